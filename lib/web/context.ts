/**
 * What the web pages share: the service as its interface offers it (lib/service/web-interface.ts), the web part's own
 * table and compiler, and the one place that reads a transaction record's fields.
 */
import type { FastifyReply } from "fastify";
import type { EnvironmentRecord, ServiceForWeb, StoreViews, VnetRecord } from "../service/web-interface";
import { explorerEnabled, verificationVisibility, type Transaction, type VerificationVisibility } from "../api";
import { PAGE_HEADERS } from "./html";
import type { Compilers } from "./verification/compilers";
import type { VerifiedContracts } from "./verification/verified-contracts";

/** The web part's dependencies. */
export interface WebContext {
  readonly service: ServiceForWeb;
  readonly verified: VerifiedContracts;
  /** The Solidity compilers verification uses, by version. */
  readonly compiler: Compilers;
}

/** A Virtual Environment with its environment and explorer settings. */
export interface VnetView {
  readonly vnet: VnetRecord;
  readonly environment: EnvironmentRecord;
  readonly explorerEnabled: boolean;
  readonly visibility: VerificationVisibility;
}

/** Looks a Virtual Environment up with its explorer settings. */
export function vnetView(views: StoreViews, vnetId: string): VnetView | undefined {
  const vnet = views.environments.vnet(vnetId);
  const environment = vnet && views.environments.get(vnet.project_id, vnet.environment_id);
  if (!vnet || !environment) return undefined;
  const config = environment.network_configs[vnet.position];
  return { vnet, environment, explorerEnabled: explorerEnabled(config), visibility: verificationVisibility(config) };
}

/** The fields of a transaction record the pages show (one place reads the record). */
export interface TransactionSummary {
  readonly hash: string;
  readonly vnetId: string;
  /** null while the transaction is pending. */
  readonly blockNumber: string | null;
  readonly from: string;
  readonly to: string | null;
  readonly value: string;
  readonly status: string;
  readonly category: string;
  readonly kind: string;
  /** `rpc`, `api` or `bridge` (a bridge relay: mined, so its kind is `blockchain`). */
  readonly origin: string;
  /** The JSON-RPC method that made it (`tenderly_setBalance` for a cheatcode). */
  readonly rpcMethod: string | null;
  /** The contract a creation deployed, when the record knows it. */
  readonly contractAddress: string | null;
  readonly createdAt: string;
}

/** Reads a stored transaction record. */
export function summarize(record: Transaction): TransactionSummary {
  return {
    hash: record.tx_hash,
    vnetId: record.vnet_id,
    blockNumber: record.block_number,
    from: record.from,
    to: record.to,
    value: record.value,
    status: record.status,
    category: record.category,
    kind: record.kind,
    origin: record.origin,
    rpcMethod: record.rpc_method ?? null,
    contractAddress: record.contract_address ?? null,
    createdAt: record.created_at,
  };
}

/** Sends an HTML page with the pages' security headers. */
export function sendPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(body);
}
