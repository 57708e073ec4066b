/**
 * Answers a fork's recordings hold in another form than the call asks: an account read whole or part by part, a slot
 * of the EIP-2935 ring read whole at creation (./block-inputs.ts). Each is the upstream's own answer, reshaped.
 * Also the one answer the proxy makes up, and only on request: an empty account (`--offline-empty-accounts`).
 */
import { HISTORY_CONTRACT, ringSlot } from "./block-inputs";
import { callKey, type Recordings } from "./recordings";

/** A recorded answer: the upstream's result, or its "method not found" (which anvil then works around). */
export type Recorded = { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string } };

/** The parts of `eth_getAccountInfo`'s answer and the calls that read each alone. */
const ACCOUNT_PARTS = { balance: "eth_getBalance", nonce: "eth_getTransactionCount", code: "eth_getCode" } as const;

/** What an account nobody funded or deployed to reads as, per method. */
const EMPTY_ACCOUNT: Readonly<Record<string, unknown>> = {
  eth_getBalance: "0x0",
  eth_getTransactionCount: "0x0",
  eth_getCode: "0x",
  eth_getAccountInfo: { balance: "0x0", nonce: "0x0", code: "0x" },
};

/** A zero storage word, as `eth_getStorageAt` answers it. */
const ZERO_WORD = `0x${"0".repeat(64)}`;

/**
 * An answer the recordings hold in another form. anvil reads an account with `eth_getAccountInfo` and, racing it,
 * with the three single reads, keeping whichever answers first: which calls reached the upstream varies from run
 * to run, so a replay answers either form from the other. A slot of the EIP-2935 ring at the fork point comes from
 * the ring recorded whole.
 */
export function derivedAnswer(recordings: Recordings, method: string, params: unknown, forkBlock: bigint): Recorded | undefined {
  if (!Array.isArray(params)) return undefined;
  if (method === "eth_getStorageAt" && params.length === 3) {
    const [account, slot, block] = params as unknown[];
    if (String(account).toLowerCase() !== HISTORY_CONTRACT || block !== `0x${forkBlock.toString(16)}`) return undefined;
    if (typeof slot !== "string" || !/^0x[0-9a-f]{1,64}$/i.test(slot)) return undefined;
    const value = ringSlot(recordings, forkBlock, BigInt(slot));
    return value === undefined ? undefined : { result: value };
  }
  if (params.length !== 2) return undefined;
  const resultOf = (m: string) => (recordings.get(callKey(m, params)) as { result?: unknown } | undefined)?.result;
  const part = Object.entries(ACCOUNT_PARTS).find(([, single]) => single === method)?.[0];
  if (part) {
    const info = resultOf("eth_getAccountInfo") as Record<string, unknown> | undefined;
    return info && typeof info === "object" && typeof info[part] === "string" ? { result: info[part] } : undefined;
  }
  if (method !== "eth_getAccountInfo") return undefined;
  const parts = Object.entries(ACCOUNT_PARTS).map(([name, single]) => [name, resultOf(single)] as const);
  return parts.every(([, value]) => typeof value === "string") ? { result: Object.fromEntries(parts) } : undefined;
}

/** The account a read of an account or of its storage is about, lowercase; undefined for other calls. */
export function accountOf(method: string, params: unknown): string | undefined {
  if (!Array.isArray(params) || typeof params[0] !== "string") return undefined;
  if (method in EMPTY_ACCOUNT || method === "eth_getStorageAt") return params[0].toLowerCase();
  return undefined;
}

/** The answer of a read of an account taken as empty (no balance, nonce, code or storage). */
export function emptyAccountAnswer(method: string): Recorded | undefined {
  if (method === "eth_getStorageAt") return { result: ZERO_WORD };
  return method in EMPTY_ACCOUNT ? { result: EMPTY_ACCOUNT[method] } : undefined;
}

/**
 * Whether a read is one anvil panics on, rather than returning an error, when it fails: the history contract's
 * account and ring slots, which every new block writes. The proxy answers those as empty when it has no recording,
 * so that an old recording without the ring keeps its chain alive (the slot's old value is overwritten unread).
 */
export function panicsWhenMissing(method: string, params: unknown): boolean {
  return accountOf(method, params) === HISTORY_CONTRACT;
}
