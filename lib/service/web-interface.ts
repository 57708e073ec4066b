/**
 * What the service offers its web UI (lib/web: the explorer, its verification API and the dashboard), and the only
 * module of lib/service that lib/web imports (the lint holds it: eslint.config.mjs). The pages read the store's views
 * and the chains, apply the API's access rules, check a sign-in, and make the dashboard's two changes; they never see
 * the store, the engine or the database themselves. `buildService` (listen.ts) builds this once with `serviceForWeb`
 * and registers the web plugin with it.
 *
 * Besides that object, this module re-exports what the pages use as it is: the records' types, the error the pages
 * throw, and pure helpers (viem's ABI functions, which the pages hand to lib/domain/decode; the request's base URL).
 */
import { accountAccess, canSeeProject, projectAccess, type AccountAccess, type ProjectAccess } from "./auth/access";
import type { Requester } from "./auth";
import { RelayStore, type CallFrame, type ChainEngine, type JsonRpcResponse, type VnetSnapshot } from "./chains";
import type { ActionRow, Principal, ProjectRow, Store } from "./store";
import { UserAbis, type UserAbiRow } from "./store/abis";
import type { Transaction } from "../api";

export type { Requester } from "./auth";
export type { AccountAccess, ProjectAccess } from "./auth/access";
export type { CallFrame, JsonRpcResponse, VnetSnapshot } from "./chains";
export type { ActionRow, EnvironmentRecord, Principal, ProjectRow, VnetRecord } from "./store";
export type { TransactionFilters } from "./store/records";
export type { ContractVerifier, EtherscanAnswer, SourceSubmission, VerificationOutcome } from "./contract-verifier";
export type { UserAbiRow } from "./store/abis";
export { ServiceError } from "./errors";
export { baseUrlOf } from "./routes/common";
export { isOwnDiff, PRESTATE_DIFF, stateChanges, type PrestateDiff } from "./chains";
export {
  decodeEventLog,
  decodeFunctionData,
  decodeFunctionResult,
  parseAbi,
  toEventSelector,
  toFunctionSelector,
  type Abi,
  type AbiEvent,
  type AbiFunction,
  type AbiParameter,
  type Hex,
} from "./chains";

/** The deposit a bridge relay paid out. */
export interface BridgeDeposit {
  /** The Virtual Environment the deposit was made on. */
  readonly vnetId: string;
  readonly txHash: string;
}

/** The store's reads the pages show (the repositories' read methods, nothing that writes). */
export interface StoreViews {
  readonly accounts: Pick<Store["accounts"], "byId" | "organizationsOf">;
  readonly projects: Pick<Store["projects"], "ofOwner" | "sharedWith" | "deliveryChannels" | "actions">;
  readonly environments: Pick<Store["environments"], "get" | "page" | "vnet">;
  readonly records: Pick<Store["records"], "transaction" | "transactions" | "simulations">;
  /** The deposit a bridge relay transaction paid out; undefined when the hash is no relay. */
  bridgeDepositOf(relayTxHash: string): BridgeDeposit | undefined;
  /**
   * One Virtual Environment's transaction records, newest first, from `offset` (0 is the newest), at most `limit`
   * (the explorer's pages are per network).
   */
  transactionsOfVnet(vnetId: string, query: VnetTransactionQuery, offset: number, limit: number): Transaction[];
  /** The ABI a user added for an address of a Virtual Environment, if any. */
  userAbi(vnetId: string, address: string): UserAbiRow | undefined;
}

/** Which of a Virtual Environment's records a page lists. */
export interface VnetTransactionQuery {
  /** Records sent from or to this address (lowercase). */
  readonly address?: string;
  /** Records with a log this address emitted (lowercase): a token's transfers. */
  readonly emitter?: string;
}

/** What the pages read from a Virtual Environment's chain, through the chain engine. */
export interface ChainReads {
  /**
   * One JSON-RPC call on a vnet's chain, with Admin access (`debug_traceTransaction` needs it): the pages call read
   * methods only. Throws what the engine throws (a `status` of 402 or 5xx when there is no chain to ask).
   */
  call(vnetId: string, method: string, params: readonly unknown[]): Promise<JsonRpcResponse>;
  /** The snapshots a vnet's running chain holds, oldest first; none when the engine keeps none. */
  snapshots(vnetId: string): readonly VnetSnapshot[];
  /**
   * The call trace kept when a transaction was mined (the callTracer tree with its logs), or null when none is kept:
   * read it before asking the chain, which cannot trace what it ran before it was last loaded.
   */
  storedTrace(vnetId: string, txHash: string): CallFrame | null;
}

/** The API's access rules (auth/access.ts), for a signed-in user; each throws the API's 404 or 403 as a `ServiceError`. */
export interface AccessRules {
  /** An account the requester may read. */
  account(requester: Requester, accountSlug: string): AccountAccess;
  /** A project the requester may see (its own path, or a personal project shared with them). */
  project(requester: Requester, accountSlug: string, projectSlug: string): ProjectAccess;
  /** Whether the requester may see a project of an account they can read. */
  canSeeProject(access: AccountAccess, project: ProjectRow, userId: string): boolean;
}

/** Who a dashboard sign-in is: the user an access key or a one-time link names, as the API would see them. */
export interface SignInCheck {
  /** The user of an access key; undefined for an unknown (or empty) key. */
  byKey(key: string): Requester | undefined;
  /** A user by id; undefined when there is no such user (or the id is an organization's). */
  byUserId(userId: string): Requester | undefined;
}

/** The changes the dashboard makes, each as the API makes it. */
export interface DashboardChanges {
  /** Deletes an environment of a project and destroys its chains. */
  deleteEnvironment(projectId: string, environmentId: string): Promise<void>;
  /** Stops a Web3 Action of a project; undefined when the project has no such action. */
  stopAction(projectId: string, actionId: string): ActionRow | undefined;
}

/**
 * The web UI's own table of verified contracts (`web_verified_contracts`, a migration of store/database.ts): one
 * JSON record per Virtual Environment and address, which the web part writes and reads as it likes.
 */
export interface VerifiedContractRows {
  /** Saves (or replaces) the record at an address. */
  save(vnetId: string, address: string, record: string): void;
  /** The record at an address, if any. */
  get(vnetId: string, address: string): string | undefined;
}

/** Everything the web UI reaches of the service. */
export interface ServiceForWeb {
  readonly views: StoreViews;
  readonly chains: ChainReads;
  readonly access: AccessRules;
  readonly signIn: SignInCheck;
  readonly changes: DashboardChanges;
  readonly verifiedContracts: VerifiedContractRows;
}

/**
 * The service as its web UI sees it.
 *
 * @example
 * await registerWeb(app, serviceForWeb(store, engine));
 */
export function serviceForWeb(store: Store, engine: ChainEngine): ServiceForWeb {
  const relays = new RelayStore(store.db);
  const userAbis = new UserAbis(store.db);
  const requesterOf = (user: Principal | undefined, readOnly: (user: Principal) => boolean): Requester | undefined =>
    user && user.type === "user" ? { user, readOnly: readOnly(user), rateKey: `user:${user.id}` } : undefined;
  return {
    views: {
      accounts: store.accounts,
      projects: store.projects,
      environments: store.environments,
      records: store.records,
      bridgeDepositOf(relayTxHash) {
        const deposit = relays.depositOf(relayTxHash);
        return deposit && { vnetId: deposit.sourceVnetId, txHash: deposit.depositTxHash };
      },
      transactionsOfVnet: vnetTransactions(store),
      userAbi: (vnetId, address) => userAbis.get(vnetId, address),
    },
    chains: {
      async call(vnetId, method, params) {
        return (await engine.rpc(vnetId, { jsonrpc: "2.0", id: 1, method, params }, "admin")) as JsonRpcResponse;
      },
      snapshots: (vnetId) => engine.snapshots?.(vnetId) ?? [],
      storedTrace: (vnetId, txHash) => engine.storedTrace?.(vnetId, txHash) ?? null,
    },
    access: {
      account: (requester, accountSlug) => accountAccess(store, requester, accountSlug),
      project: (requester, accountSlug, projectSlug) => projectAccess(store, requester, accountSlug, projectSlug),
      canSeeProject: (access, project, userId) => canSeeProject(store, access, project, userId),
    },
    signIn: {
      byKey(key) {
        const owner = key === "" ? undefined : store.accounts.keyOwner(key);
        return owner && requesterOf(owner.user, () => owner.readOnly);
      },
      byUserId: (userId) => requesterOf(store.accounts.byId(userId), (user) => store.accounts.isReadOnlyUser(user.id)),
    },
    changes: {
      async deleteEnvironment(projectId, environmentId) {
        const { deletedVnetIds } = store.environments.delete(projectId, [environmentId]);
        if (deletedVnetIds.length > 0) await engine.destroyVnets(deletedVnetIds);
      },
      stopAction: (projectId, actionId) => store.projects.stopAction(projectId, actionId),
    },
    verifiedContracts: verifiedContractRows(store),
  };
}

/** One vnet's records by address or by log emitter; the unique (vnet_id, hash) index narrows them to the vnet. */
function vnetTransactions(store: Store): StoreViews["transactionsOfVnet"] {
  const select = (where: string) =>
    store.db.prepare(`SELECT record FROM transactions WHERE vnet_id = ?${where} ORDER BY seq DESC LIMIT ? OFFSET ?`);
  const all = select("");
  const byAddress = select(" AND (from_address = ? OR to_address = ?)");
  const byEmitter = select(
    " AND EXISTS (SELECT 1 FROM json_each(record, '$.logs') AS log WHERE json_extract(log.value, '$.raw.address') = ?)",
  );
  return (vnetId, query, offset, limit) => {
    const rows = query.address
      ? byAddress.all(vnetId, query.address, query.address, limit, offset)
      : query.emitter
        ? byEmitter.all(vnetId, query.emitter, limit, offset)
        : all.all(vnetId, limit, offset);
    return (rows as { record: string }[]).map((row) => JSON.parse(row.record) as Transaction);
  };
}

/** `web_verified_contracts`, by vnet and lowercase address. */
function verifiedContractRows(store: Store): VerifiedContractRows {
  const upsert = store.db.prepare(
    `INSERT INTO web_verified_contracts (vnet_id, address, record) VALUES (?, ?, ?)
     ON CONFLICT (vnet_id, address) DO UPDATE SET record = excluded.record`,
  );
  const select = store.db.prepare("SELECT record FROM web_verified_contracts WHERE vnet_id = ? AND address = ?");
  return {
    save: (vnetId, address, record) => void upsert.run(vnetId, address.toLowerCase(), record),
    get: (vnetId, address) => (select.get(vnetId, address.toLowerCase()) as { record: string } | undefined)?.record,
  };
}
