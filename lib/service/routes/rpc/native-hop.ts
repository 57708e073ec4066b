/**
 * The RPC URLs' native hop, seen from the service: loads the addon (./native-hop.c, compiled by
 * scripts/build/30-native-hop.mjs), hands it connections, lends it chains and takes connections back.
 *
 * A plain-HTTP connection whose call just passed through (a read-only call the chain answered alone) is handed to the
 * hop with the bytes read ahead (`offer`). From then on the hop answers that connection's pass-through calls on a
 * thread of its own: no JavaScript runs per call. At the first call it does not know (a write, a cheatcode, another
 * URL, an `Origin`, anything not of the plain shape), it hands the connection back with every byte not yet answered,
 * and the service answers as it always has (`onHandBack`).
 *
 * The hop calls a chain only under a lease on the chain's lock (`ChainEngine.leaseForHop`): a write, a stop or a
 * deletion asks for the lock alone, the lease's holder pauses the vnet in the hop, and lets go once the hop's calls
 * to it are answered (the addon's `drained` event). The hop lets go on its own too once no connection of its calls
 * that vnet, so an idle chain still idle-stops. Every RPC URL's rate window lives in the addon (`take`), so a URL's
 * calls count in one window whichever side answers them.
 *
 * Linux only. Where the addon is not built or does not load, or `CHAINFORM_NATIVE_RPC=off`, the service answers
 * every call itself (http-connections.ts), as before.
 */
import { existsSync } from "node:fs";
import { Socket } from "node:net";
import { join } from "node:path";
import { packageRoot } from "../../chains/artifacts";
import type { ChainEngine, RpcAccess } from "../../chains/types";
import type { RateDecision } from "../../rate-limit";

/** The addon's functions (native-hop.c, "Node-API"). */
interface NativeHopAddon {
  start(
    settings: HopSettings & { readonly rate: Float64Array },
    onEvent: (kind: number, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown) => void,
  ): object;
  take(hop: object, path: string, count: boolean): boolean;
  adopt(hop: object, fd: number, bytes: Buffer, access: string, key: string, vnetId: string, ipcPath: string, method: string): number;
  pause(hop: object, vnetId: string): number;
  close(hop: object): void;
  dispose(hop: object): void;
  stats(hop: object): [number, number, number];
}

/** What the hop has done so far (tests and benchmarks look). */
export interface HopStats {
  /** Connections handed to it. */
  readonly adopted: number;
  /** Calls it answered itself. */
  readonly answered: number;
  /** Connections it handed back. */
  readonly handedBack: number;
}

/** What the hop answers by. */
export interface HopSettings {
  /** An idle connection is ended after this long, as the service's keep-alive timeout. */
  readonly keepAliveMs: number;
  /** Largest body it reads; a larger one goes back to the service (which answers 400). */
  readonly bodyLimit: number;
  /** The RPC URLs' sliding window and limit (rate-limit.ts). */
  readonly windowMs: number;
  readonly rpcLimit: number;
}

const EVENT_HAND_BACK = 0;
const EVENT_DRAINED = 1;
const EVENT_CLOSED = 2;
const NO_BYTES = Buffer.alloc(0);

/** The addon's file for this platform, under dist/native/. */
export function nativeHopFile(root = packageRoot()): string {
  return join(root, "dist", "native", `native-hop-${process.platform}-${process.arch}.node`);
}

let addon: NativeHopAddon | null | undefined;

/** The addon, or null where it is not built, does not load, or is turned off (`CHAINFORM_NATIVE_RPC=off`). */
export function loadNativeHop(): NativeHopAddon | null {
  if (addon !== undefined) return addon;
  addon = null;
  if (process.platform !== "linux" || process.env.CHAINFORM_NATIVE_RPC === "off") return addon;
  try {
    const file = nativeHopFile();
    if (!existsSync(file)) return addon;
    const module = { exports: {} };
    process.dlopen(module, file);
    addon = module.exports as NativeHopAddon;
  } catch {
    addon = null; // no package root, or built for another libc or machine: the service's own path serves
  }
  return addon;
}

/** A lease on one vnet's chain, while the hop may call it. */
interface Lease {
  readonly ipcPath: () => string | null;
  readonly release: () => void;
  /** The addon's generation of the vnet's opening this lease covers; 0 before the first connection is adopted. */
  generation: number;
  /** Asked to give way: no connection is handed over under it any more. */
  wanted: boolean;
}

/** One service's hop: its thread, its leases. */
export class NativeHop {
  private readonly hop: object;
  private readonly rate = new Float64Array(3);
  private readonly leases = new Map<string, Lease>();
  private closed: Promise<void> | null = null;
  private resolveClosed: () => void = () => undefined;
  /**
   * Where a connection back from the hop goes, with its unanswered bytes; `counted` when its first call already
   * counts in its URL's window (set by http-connections.ts `serveRpcConnections`).
   */
  onHandBack: (socket: Socket, bytes: Buffer, counted: RateDecision | null) => void = (socket) => socket.destroy();

  constructor(
    private readonly addon: NativeHopAddon,
    settings: HopSettings,
    private readonly engine: ChainEngine,
  ) {
    this.hop = addon.start({ ...settings, rate: this.rate }, (kind, a, b, c, d, e, f) => this.event(kind, a, b, c, d, e, f));
  }

  /** Counts one call on an RPC URL's path in its window (every RPC call counts here while the hop runs). */
  take(path: string, count = true): RateDecision {
    const allowed = this.addon.take(this.hop, path, count);
    return { allowed, limit: this.rate[0], remaining: this.rate[1], resetTimestamp: this.rate[2] };
  }

  /**
   * Hands `socket` to the hop, with the bytes read ahead of it, right after the service answered a call of `method`
   * on the URL (`access`, `key`) of `vnetId` that passed through. False, with nothing done, when the hop cannot take
   * it (the chain's lock is wanted, the chain is not running, the socket is not a plain one).
   */
  offer(socket: Socket, buffered: Buffer | null, access: RpcAccess, key: string, vnetId: string, method: string): boolean {
    if (this.closed !== null || this.engine.leaseForHop === undefined) return false;
    const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
    if (typeof fd !== "number" || fd < 0 || socket.readableLength > 0 || socket.writableLength > 0) return false;
    let lease = this.leases.get(vnetId);
    if (lease?.wanted) return false;
    if (lease === undefined) {
      const taken = this.engine.leaseForHop(vnetId, () => this.giveWay(vnetId));
      if (taken === null) return false;
      lease = { ...taken, generation: 0, wanted: false };
      this.leases.set(vnetId, lease);
    }
    const ipcPath = lease.ipcPath();
    const generation = ipcPath === null ? 0 : this.addon.adopt(this.hop, fd, buffered ?? NO_BYTES, access, key, vnetId, ipcPath, method);
    if (generation === 0) {
      if (lease.generation === 0) this.letGo(vnetId, lease);
      return false;
    }
    lease.generation = generation;
    // The hop reads and writes a copy of the descriptor from now on; closing ours sends nothing to the caller.
    socket.removeAllListeners();
    socket.on("error", () => undefined);
    socket.destroy();
    return true;
  }

  /** What the hop has done so far. */
  stats(): HopStats {
    const [adopted, answered, handedBack] = this.addon.stats(this.hop);
    return { adopted, answered, handedBack };
  }

  /** Ends the hop: its calls under way are answered, connections with a call half-read come back, the rest end. */
  close(): Promise<void> {
    if (this.closed === null) {
      this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
      this.addon.close(this.hop);
    }
    return this.closed;
  }

  private giveWay(vnetId: string): void {
    const lease = this.leases.get(vnetId);
    if (lease === undefined) return;
    lease.wanted = true;
    const closed = this.addon.pause(this.hop, vnetId);
    // Nothing of the hop's in flight (or never adopted): let go now; else at the `drained` event.
    if (lease.generation === 0 || closed === lease.generation) this.letGo(vnetId, lease);
  }

  private letGo(vnetId: string, lease: Lease): void {
    if (this.leases.get(vnetId) === lease) this.leases.delete(vnetId);
    lease.release();
  }

  private event(kind: number, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown): void {
    if (kind === EVENT_HAND_BACK) {
      const socket = new Socket({ fd: a as number, readable: true, writable: true, allowHalfOpen: true });
      const counted = c === true ? { allowed: true, limit: d as number, remaining: e as number, resetTimestamp: f as number } : null;
      this.onHandBack(socket, b as Buffer, counted);
    } else if (kind === EVENT_DRAINED) {
      const lease = this.leases.get(a as string);
      if (lease !== undefined && lease.generation === b) this.letGo(a as string, lease);
    } else if (kind === EVENT_CLOSED) {
      this.addon.dispose(this.hop);
      for (const [vnetId, lease] of this.leases) this.letGo(vnetId, lease);
      this.resolveClosed();
    }
  }
}
