/**
 * Checks that deployed networks work: every Public RPC answers `eth_chainId` with the chain id the state says, and
 * every prefunded account holds its balance. Plain JSON-RPC over fetch (undici).
 */
import { CliError } from "./errors";
import type { DeployedNetwork } from "./stack-state";
import { parseBalance } from "../spec/amounts";

/** What the checks found. */
export interface RpcCheckSummary {
  /** Public RPC URLs that answered with the right chain id. */
  readonly rpcs: number;
  /** Accounts with the right balance. */
  readonly accounts: number;
}

/**
 * Runs the checks for every network in parallel. Throws one CliError listing every failure.
 * @example
 * await verifyNetworks(networks) // { rpcs: 3, accounts: 3 }
 */
export async function verifyNetworks(networks: readonly DeployedNetwork[], timeoutMs = 60_000): Promise<RpcCheckSummary> {
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
        for (const account of network.accounts) {
          const balance = BigInt(await jsonRpc<string>(network.publicRpcUrl, "eth_getBalance", [account.address, "latest"], timeoutMs));
          const expected = weiOf(account.balance);
          if (balance === expected) accounts++;
          else failures.push(`${where}: ${account.address} holds ${balance} wei, expected ${expected}`);
        }
      } catch (error) {
        failures.push(`${where}: ${(error as Error).message}`);
      }
    }),
  );
  if (failures.length > 0) {
    throw new CliError(`${failures.length} RPC check(s) failed: ${failures.join("; ")}`);
  }
  return { rpcs, accounts };
}

/** One JSON-RPC call; throws on an HTTP error, a JSON-RPC error or a timeout. */
export async function jsonRpc<T>(url: string, method: string, params: unknown[], timeoutMs: number): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
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

/** A balance from the state in wei: the configuration keeps the user's spelling ("100ether", hex or decimal wei). */
function weiOf(balance: string): bigint {
  const parsed = parseBalance(balance);
  if ("error" in parsed) throw new Error(`the state holds a balance chainform cannot read: ${parsed.error}`);
  return parsed.wei;
}
