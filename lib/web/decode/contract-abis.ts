/**
 * Which ABI a page decodes a contract with: its verified ABI (when the explorer's visibility reveals ABIs), else the
 * ABI a user added for it, else, for a proxy, the same for its implementation (found in the EIP-1967 or EIP-1822 slot,
 * or through an EIP-1967 beacon). Without any, the pages decode by selector and topic (book.ts).
 */
import { reveals } from "../../api";
import { parseAbiFile } from "../../domain/abi-files";
import type { Abi } from "../../service/web-interface";
import type { ChainReader } from "../chain-reader";
import type { VnetView, WebContext } from "../context";
import type { AbiSource } from "./book";
import { PROXY_SLOTS } from "../../domain/decode/standard-interfaces";

/** `implementation()`, which a beacon answers. */
const IMPLEMENTATION_CALL = "0x5c60da1b";

/** A contract's own ABI, or its implementation's when it is a proxy. */
export interface ResolvedAbi {
  readonly abi: Abi;
  readonly source: AbiSource;
  /** The contract name the source gives (verified or user-added). */
  readonly name: string;
  /** The implementation whose ABI this is, for a proxy. */
  readonly implementation?: string;
}

/** A proxy's implementation and the standard that locates it. */
export interface ProxyTarget {
  readonly standard: string;
  readonly implementation: string;
}

/** The ABIs one page uses, each looked up once. */
export class ContractAbis {
  private readonly resolved = new Map<string, Promise<ResolvedAbi | undefined>>();
  private readonly proxies = new Map<string, Promise<ProxyTarget | undefined>>();

  constructor(
    private readonly context: WebContext,
    private readonly view: VnetView,
    private readonly chain: ChainReader,
  ) {}

  /** The contract's own ABI (verified first, then user-added), without looking at proxies. */
  own(address: string): ResolvedAbi | undefined {
    const at = address.toLowerCase();
    if (reveals(this.view.visibility, "abi")) {
      const verified = this.context.verified.get(this.view.vnet.id, at);
      if (verified) return { abi: verified.abi, source: "verified", name: verified.contractName.split(":").pop() ?? "" };
    }
    const added = this.context.service.views.userAbi(this.view.vnet.id, at);
    if (!added) return undefined;
    const parsed = parseAbiFile(added.abi);
    return "abi" in parsed ? { abi: parsed.abi as unknown as Abi, source: "user", name: added.name } : undefined;
  }

  /** The ABI to decode an address with, following a proxy to its implementation. */
  of(address: string): Promise<ResolvedAbi | undefined> {
    const at = address.toLowerCase();
    let found = this.resolved.get(at);
    if (!found) this.resolved.set(at, (found = this.lookUp(at)));
    return found;
  }

  /**
   * Looks every address up at once and answers a synchronous lookup (what the trace and log decoding take).
   *
   * @example
   * const abiOf = await abis.lookup([tx.to, ...logAddresses]); abiOf(tx.to)?.length
   */
  async lookup(addresses: Iterable<string>): Promise<(address: string) => Abi | undefined> {
    const unique = [...new Set([...addresses].map((a) => a.toLowerCase()))];
    const found = await Promise.all(unique.map((a) => this.of(a)));
    const byAddress = new Map(unique.map((a, i) => [a, found[i]?.abi]));
    return (address) => byAddress.get(address.toLowerCase());
  }

  /** Where a proxy keeps its implementation, undefined when no standard slot holds one (read once a page). */
  proxyTarget(address: string): Promise<ProxyTarget | undefined> {
    const at = address.toLowerCase();
    let found = this.proxies.get(at);
    if (!found) this.proxies.set(at, (found = this.readProxySlots(at)));
    return found;
  }

  private async readProxySlots(address: string): Promise<ProxyTarget | undefined> {
    const values = await Promise.all(PROXY_SLOTS.map((slot) => this.chain.storageAt(address, slot.slot).catch(() => "0x")));
    for (const [i, slot] of PROXY_SLOTS.entries()) {
      const target = addressIn(values[i]!);
      if (!target) continue;
      if (slot.holds === "implementation") return { standard: slot.standard, implementation: target };
      const answer = await this.chain.call<string>("eth_call", [{ to: target, data: IMPLEMENTATION_CALL }, "latest"]).catch(() => "0x");
      const implementation = addressIn(answer);
      if (implementation) return { standard: slot.standard, implementation };
    }
    return undefined;
  }

  private async lookUp(address: string): Promise<ResolvedAbi | undefined> {
    const own = this.own(address);
    if (own) return own;
    const proxy = await this.proxyTarget(address);
    const target = proxy && this.own(proxy.implementation);
    return target && { ...target, implementation: proxy.implementation };
  }
}

/** The address in a 32-byte word (the low 20 bytes), undefined for zero or a value that is no word. */
function addressIn(word: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{64}$/.test(word)) return undefined;
  const address = `0x${word.slice(-40).toLowerCase()}`;
  return /^0x0{40}$/.test(address) ? undefined : address;
}
