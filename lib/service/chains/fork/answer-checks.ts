/**
 * Which upstream answers a fork may keep (docs/forking.md "Only well-formed answers are kept"). A recording is
 * replayed in every later run, so one bad answer kept (a lagging node's `null`, a wrongly typed result, a -32601 from
 * a node that lacks a method its peers have) would fail that read forever. Each method's result is checked for the
 * type it must have; `null` where it means "not yet" is never kept; a "method not found" is kept only once a second
 * ask confirms it.
 */
import { isHexQuantity } from "../../../domain/amounts";

/** The verdict on one answer: keep it, ask again (the upstream may not have it yet), or refuse it, saying why. */
export type AnswerVerdict = { readonly keep: true } | { readonly keep: false; readonly why: string; readonly notYet: boolean };

const DATA = /^0x([0-9a-f]{2})*$/i;
const WORD = /^0x[0-9a-f]{64}$/i;
const HASH = WORD;

type Check = (result: unknown) => string | null;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

const quantity: Check = (r) => (isHexQuantity(r) ? null : "a hex quantity");
const data: Check = (r) => (typeof r === "string" && DATA.test(r) ? null : "hex data");
const word: Check = (r) => (typeof r === "string" && WORD.test(r) ? null : "a 32-byte hex word");
const decimal: Check = (r) => (typeof r === "string" && /^[0-9]{1,20}$/.test(r) ? null : "a decimal string");
const block: Check = (r) =>
  isObject(r) && isHexQuantity(r.number) && typeof r.hash === "string" && HASH.test(r.hash) ? null : "a block with its number and hash";
const transaction: Check = (r) => (isObject(r) && typeof r.hash === "string" && HASH.test(r.hash) ? null : "a transaction");
const receipt: Check = (r) => (isObject(r) && typeof r.transactionHash === "string" && HASH.test(r.transactionHash) ? null : "a receipt");
const list: Check = (r) => (Array.isArray(r) ? null : "a list");
const object: Check = (r) => (isObject(r) ? null : "an object");
const present: Check = (r) => (r !== null && r !== undefined ? null : "a result");
const accountInfo: Check = (r) =>
  isObject(r) && quantity(r.balance) === null && quantity(r.nonce) === null && data(r.code) === null
    ? null
    : "an account's balance, nonce and code";
const feeHistory: Check = (r) => (isObject(r) && isHexQuantity(r.oldestBlock) && Array.isArray(r.baseFeePerGas) ? null : "a fee history");

/** The type each read's result must have; `nullable` methods answer `null` for what does not exist (yet). */
const CHECKS: Readonly<Record<string, { readonly check: Check; readonly nullable?: boolean }>> = {
  eth_chainId: { check: quantity },
  eth_blockNumber: { check: quantity },
  net_version: { check: decimal },
  eth_gasPrice: { check: quantity },
  eth_maxPriorityFeePerGas: { check: quantity },
  eth_blobBaseFee: { check: quantity },
  eth_feeHistory: { check: feeHistory },
  eth_getBlockByNumber: { check: block, nullable: true },
  eth_getBlockByHash: { check: block, nullable: true },
  eth_getBlockReceipts: { check: list, nullable: true },
  eth_getBlockTransactionCountByNumber: { check: quantity, nullable: true },
  eth_getBlockTransactionCountByHash: { check: quantity, nullable: true },
  eth_getUncleByBlockNumberAndIndex: { check: block, nullable: true },
  eth_getUncleByBlockHashAndIndex: { check: block, nullable: true },
  eth_getAccountInfo: { check: accountInfo },
  eth_getBalance: { check: quantity },
  eth_getTransactionCount: { check: quantity },
  eth_getCode: { check: data },
  eth_getStorageAt: { check: word },
  eth_getProof: { check: object },
  eth_getTransactionByHash: { check: transaction, nullable: true },
  eth_getTransactionByBlockNumberAndIndex: { check: transaction, nullable: true },
  eth_getTransactionByBlockHashAndIndex: { check: transaction, nullable: true },
  eth_getTransactionReceipt: { check: receipt, nullable: true },
  eth_getLogs: { check: list },
  eth_call: { check: data },
  eth_estimateGas: { check: quantity },
  eth_createAccessList: { check: object },
};

/**
 * Whether a result the upstream gave for `method` may be kept. `null` from a method where it means "not there (yet)"
 * is `notYet` (a lagging node, or a block beyond its head): answered, never kept. Methods without a listed type
 * (traces) keep any result but `null`.
 *
 * @example
 * checkResult("eth_getBalance", "0x5678") // { keep: true }
 * checkResult("eth_getBalance", null).keep // false
 */
export function checkResult(method: string, result: unknown): AnswerVerdict {
  const rule = CHECKS[method] ?? { check: present, nullable: true };
  if (result === null || result === undefined) {
    return { keep: false, notYet: rule.nullable === true, why: `answered ${method} with null` };
  }
  const expected = rule.check(result);
  return expected === null
    ? { keep: true }
    : { keep: false, notYet: false, why: `answered ${method} with something that is not ${expected}` };
}

/**
 * Whether a recorded answer (`{ result }` or `{ error }`, as recordings hold them) is well-formed: what an import keeps
 * of a fixture's recordings, whose answers are held to the rule live answers are. A kept error is only a "method not
 * found" (-32601); marks (`chainform:...`) are kept as they are.
 */
export function wellFormedRecording(key: string, answer: unknown): boolean {
  if (key.startsWith("chainform:")) return answer === true;
  const space = key.indexOf(" ");
  if (space <= 0 || !isObject(answer)) return false;
  const method = key.slice(0, space);
  if ("error" in answer) return isObject(answer.error) && answer.error.code === -32601 && typeof answer.error.message === "string";
  return "result" in answer && checkResult(method, answer.result).keep;
}
