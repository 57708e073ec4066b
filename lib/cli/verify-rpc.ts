/**
 * Checks that deployed networks work: every Public RPC answers `eth_chainId` with the chain id the state says, and
 * every prefunded account was funded. Plain JSON-RPC over fetch (undici), standard methods only, so the same checks
 * run against the local service and the hosted one.
 *
 * "Was funded" is checked as: the balance now, plus everything the account paid in its own transactions since the
 * fork (gas at the effective price, blob gas, L1 fee, and the value of those that succeeded, read from the blocks
 * and receipts), is at least the funded amount. An account that has only spent gas (tests, its own contract deploys,
 * a re-deploy after the tests ran) therefore passes exactly, and one that was never funded fails: it holds nothing
 * and, having nothing, can have paid nothing. Only money received from elsewhere (or held at the fork block, for an
 * address with a history on the forked network) can cover a missing funding, and only when it is at least the
 * funded amount.
 *
 * Two other designs were measured and set aside. Reading the balance at the block where the environment was
 * prepared: anvil applies the funding (a cheatcode) to the next block mined, together with that block's first
 * transaction, which is often the account's own contract deploy, and it keeps no state history once a chain is
 * stopped and started again (the local service stops idle chains; a past block then answers BlockOutOfRangeError),
 * so the read would fail or be off by that first transaction's gas. Comparing with the service's records of the
 * funding: the local service funds at chain start without a record, the hosted service's records are not documented
 * for it, and a record says what the service meant to do, not what the chain holds.
 */
import { CliError } from "./errors";
import { EXIT_INTERRUPTED } from "./interrupts";
import type { DeployedNetwork, PrefundedAccount } from "./stack-state";
import { spentSince } from "./account-spending";
import { parseBalance } from "../domain/amounts";

/** What the checks found. */
export interface RpcCheckSummary {
  /** Public RPC URLs that answered with the right chain id. */
  readonly rpcs: number;
  /** Prefunded accounts found funded (balance plus what they paid themselves at least their funding). */
  readonly accounts: number;
}

/** Options of {@link verifyNetworks}. */
export interface VerifyOptions {
  /** The deadline of each call. @default 60 s */
  readonly timeoutMs?: number;
  /** Stops every call at once when aborted (Ctrl-C); the checks then throw the interruption (exit 130). */
  readonly signal?: AbortSignal;
}

/**
 * Runs the checks for every network in parallel. Throws one CliError listing every failure.
 * @example
 * await verifyNetworks(networks) // { rpcs: 3, accounts: 3 }
 */
export async function verifyNetworks(networks: readonly DeployedNetwork[], options: VerifyOptions = {}): Promise<RpcCheckSummary> {
  const deadline = options.timeoutMs ?? 60_000;
  const timeoutMs = options.signal ? { ms: deadline, signal: options.signal } : deadline;
  const failures: string[] = [];
  let rpcs = 0;
  let accounts = 0;
  await Promise.all(
    networks.map(async (network) => {
      const where = `${network.environment}/${network.networkId} (${network.publicRpcUrl})`;
      try {
        const chainId = BigInt(await jsonRpc<string>(network.publicRpcUrl, "eth_chainId", [], timeoutMs));
        if (chainId !== BigInt(network.chainId)) {
          failures.push(`${where} answered eth_chainId ${chainId}, expected ${network.chainId}`);
          return;
        }
        rpcs++;
        const shortfalls = await accountsBelowFunding(network, timeoutMs);
        accounts += network.accounts.length - shortfalls.length;
        failures.push(...shortfalls.map((s) => `${where}: ${s}`));
      } catch (error) {
        failures.push(`${where}: ${(error as Error).message}`);
      }
    }),
  );
  if (options.signal?.aborted) throw new CliError("interrupted", { exitCode: EXIT_INTERRUPTED });
  if (failures.length > 0) {
    throw new CliError(`${failures.length} RPC check(s) failed: ${failures.join("; ")}`);
  }
  return { rpcs, accounts };
}

/**
 * The accounts of a network that were not funded (see the top of this file), each as a sentence. Blocks and receipts
 * are read only for accounts holding less than their funding now.
 */
async function accountsBelowFunding(network: DeployedNetwork, timeoutMs: Deadline): Promise<string[]> {
  const url = network.publicRpcUrl;
  const balances = (
    await jsonRpcBatch(
      url,
      network.accounts.map((a) => ({ method: "eth_getBalance", params: [a.address, "latest"] })),
      timeoutMs,
    )
  ).map((b) => BigInt(b as string));
  const low: { account: PrefundedAccount; balance: bigint; funded: bigint }[] = [];
  network.accounts.forEach((account, i) => {
    const funded = weiOf(account.balance);
    if (balances[i] < funded) low.push({ account, balance: balances[i], funded });
  });
  if (low.length === 0) return [];
  const afterBlock =
    network.forkBlock !== null
      ? BigInt(network.forkBlock)
      : BigInt((await jsonRpc<{ number: string }>(url, "eth_getBlockByNumber", ["earliest", false], timeoutMs)).number);
  const spent = await spentSince(
    (calls) => jsonRpcBatch(url, calls, timeoutMs),
    low.map((l) => l.account.address),
    afterBlock,
  );
  return low.flatMap(({ account, balance, funded }) => {
    const paid = spent.get(account.address.toLowerCase()) ?? { wei: 0n, transactions: 0 };
    if (balance + paid.wei >= funded) return [];
    return [
      `${account.address} holds ${balance} wei and paid ${paid.wei} wei in ${paid.transactions} transaction(s) of its own since the fork: ` +
        `${funded - balance - paid.wei} wei less than the ${funded} it was funded with (was the account funded?)`,
    ];
  });
}

/** A call's deadline in ms, or a deadline and a signal that stops the call sooner (Ctrl-C). */
export type Deadline = number | { readonly ms: number; readonly signal: AbortSignal };

/** The abort signal of a call with this deadline. */
function signalOf(deadline: Deadline): AbortSignal {
  return typeof deadline === "number"
    ? AbortSignal.timeout(deadline)
    : AbortSignal.any([AbortSignal.timeout(deadline.ms), deadline.signal]);
}

/** One JSON-RPC call; throws on an HTTP error, a JSON-RPC error, a timeout or an abort. */
export async function jsonRpc<T>(url: string, method: string, params: unknown[], timeoutMs: Deadline): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: signalOf(timeoutMs),
  });
  const text = await response.text();
  let body: { result?: T; error?: { code: number; message: string } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new Error(`${method} got HTTP ${response.status} with a body that is not JSON`);
  }
  if (body.error) throw new Error(`${method} got JSON-RPC error ${body.error.code}: ${body.error.message}`);
  if (!response.ok || body.result === undefined) throw new Error(`${method} got HTTP ${response.status} without a result`);
  return body.result;
}

/** A JSON-RPC batch; resolves to the results in the order of `calls`, throws on the first error. */
export async function jsonRpcBatch(
  url: string,
  calls: readonly { method: string; params: unknown[] }[],
  timeoutMs: Deadline,
): Promise<unknown[]> {
  if (calls.length === 0) return [];
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: "2.0", id, method: c.method, params: c.params }))),
    signal: signalOf(timeoutMs),
  });
  const text = await response.text();
  let answers: { id: number; result?: unknown; error?: { code: number; message: string } }[];
  try {
    answers = JSON.parse(text) as typeof answers;
  } catch {
    throw new Error(`${calls[0].method} (in a batch) got HTTP ${response.status} with a body that is not JSON`);
  }
  if (!Array.isArray(answers)) throw new Error(`${calls[0].method} (in a batch) got HTTP ${response.status} without a batch answer`);
  const byId = new Map(answers.map((a) => [a.id, a]));
  return calls.map((call, id) => {
    const answer = byId.get(id);
    if (answer?.error) throw new Error(`${call.method} got JSON-RPC error ${answer.error.code}: ${answer.error.message}`);
    if (!answer || !("result" in answer)) throw new Error(`${call.method} got HTTP ${response.status} without a result`);
    return answer.result;
  });
}

/** A balance from the state in wei: the configuration keeps the user's spelling ("100ether", hex or decimal wei). */
function weiOf(balance: string): bigint {
  const parsed = parseBalance(balance);
  if ("error" in parsed) throw new Error(`the state holds a balance chainform cannot read: ${parsed.error}`);
  return parsed.wei;
}
