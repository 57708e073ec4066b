/** The supported-network list. Written by the seed only, so it is read once and kept. */
import type { SqlDatabase } from "../sqlite";
import type { SupportedNetwork } from "../../api";

/** A supported network with chainform's notional latest block (the default fork point). */
export interface NetworkRecord extends SupportedNetwork {
  readonly latest_block: number;
}

interface NetworkRow {
  chain_id: string;
  network_name: string;
  explorer_slug: string;
  node_rpc_slug: string;
  vnet_rpc_slug: string;
  virtual_testnet: number;
  node: number;
  explorer: number;
  simulator: number;
  monitoring: number;
  latest_block: number;
}

/** Reads the supported networks. */
export class Networks {
  private cached: { list: NetworkRecord[]; byChainId: Map<string, NetworkRecord> } | undefined;

  constructor(private readonly db: SqlDatabase) {}

  /** Every supported network, in seed order. */
  list(): NetworkRecord[] {
    return this.load().list;
  }

  /** A supported network by chain id (decimal string). */
  byChainId(chainId: string): NetworkRecord | undefined {
    return this.load().byChainId.get(chainId);
  }

  private load() {
    if (!this.cached) {
      const rows = this.db.prepare("SELECT * FROM networks ORDER BY position").all() as NetworkRow[];
      const list = rows.map(toRecord);
      this.cached = { list, byChainId: new Map(list.map((n) => [n.chain_id, n])) };
    }
    return this.cached;
  }
}

function toRecord(row: NetworkRow): NetworkRecord {
  return {
    network_name: row.network_name,
    chain_id: row.chain_id,
    network_slugs: {
      explorer_slug: row.explorer_slug,
      node_rpc_slug: row.node_rpc_slug,
      vnet_rpc_slug: row.vnet_rpc_slug,
    },
    supported_features: {
      virtual_testnet: row.virtual_testnet === 1,
      node: row.node === 1,
      explorer: row.explorer === 1,
      simulator: row.simulator === 1,
      monitoring: row.monitoring === 1,
    },
    latest_block: row.latest_block,
  };
}
