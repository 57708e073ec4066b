/**
 * The pool of nodes: lazily started, idle-stopped chains keyed by id behind a readers-writer lock each
 * (./chain-pool.ts, ./rw-lock.ts), counted against a cap shared by the pools (./chain-budget.ts). The pool imports
 * the budget, never the other way round: the budget sees a pool only as a `BudgetedPool`.
 */
export { ChainPool, type ChainPoolOptions } from "./chain-pool";
export { ChainBudget, DEFAULT_MAX_RUNNING_CHAINS, type BudgetedPool } from "./chain-budget";
export type { LockMode } from "./rw-lock";
