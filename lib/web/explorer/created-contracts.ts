/**
 * The contracts a mined call created (a factory's pairs), read once from its call trace and then kept in memory: a mined
 * transaction's trace never changes. The trace kept with its record is read first: a chain reloaded since (an idle
 * stop, a restart, an import) can no longer trace the transaction.
 */
import { ChainReader } from "../chain-reader";
import type { WebContext } from "../context";
import { createdContracts, type CreatedContract } from "./transaction-parts";

/** Most transactions whose created contracts are kept (the oldest are forgotten first). */
const MAX_KEPT = 10_000;

const kept = new Map<string, readonly CreatedContract[]>();

/** The contracts a transaction's inner CREATE frames made; none when the chain cannot trace it now (not kept then). */
export async function contractsCreatedBy(context: WebContext, vnetId: string, hash: string): Promise<readonly CreatedContract[]> {
  const key = `${vnetId}/${hash}`;
  const found = kept.get(key);
  if (found) return found;
  const chain = new ChainReader(context.service.chains, vnetId);
  try {
    const trace =
      context.service.chains.storedTrace(vnetId, hash) ??
      (await chain.call<Parameters<typeof createdContracts>[0]>("debug_traceTransaction", [hash, { tracer: "callTracer" }]));
    const created = createdContracts(trace);
    if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(key, created);
    return created;
  } catch {
    return [];
  }
}
