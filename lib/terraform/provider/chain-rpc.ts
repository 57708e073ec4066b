/**
 * How the chain-state resources (`chainform_contract`, `chainform_erc20_balance`, `chainform_snapshot`, the
 * `chainform_contract_call` data source) reach a Virtual Environment's chain: they read the environment from the
 * service and use the RPC URLs of `active_instance.vnets[].rpcs` (the only documented place for them). The Admin
 * RPC URL is a secret: it is never put in state, a diagnostic or an error message.
 */
import { ApiError, type Environment } from "../../client";
import type { Diagnostics } from "../framework";
import type { ValuePath } from "../framework";
import { reportError } from "./errors";
import { post } from "./http-post";
import { requireProject, type ChainformProviderData } from "./provider-data";

/** A JSON-RPC error answered by the chain. The message is the chain's; it never contains the URL. */
export class ChainRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "ChainRpcError";
  }
}

/** A Virtual Environment's RPC endpoints; `call` goes to the Admin RPC, `read` to the Public RPC when there is one. */
export interface VnetRpc {
  readonly environment: Environment;
  readonly vnetId: string;
  /** Calls a method on the Admin RPC (all methods). */
  admin<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Calls a standard method (eth_call, eth_getCode) on the Public RPC, or the Admin RPC without one. */
  read<T = unknown>(method: string, params?: unknown[]): Promise<T>;
}

/** Where the resource's environment_id and vnet_id sit, for diagnostics. */
export interface VnetPaths {
  readonly environmentId: ValuePath;
  readonly vnetId: ValuePath;
}

/**
 * The chain of `vnetId` in environment `environmentId`. When `gone` is "null" (reads), an environment or vnet that
 * no longer exists gives null (the resource is then planned again); otherwise it is an error diagnostic at the
 * attribute at fault and the result is undefined.
 */
export async function vnetRpc(
  data: ChainformProviderData,
  diagnostics: Diagnostics,
  ids: { environment_id: string; vnet_id: string },
  paths: VnetPaths,
  options: { gone: "null" | "error"; needAdmin: boolean; action: string },
): Promise<VnetRpc | null | undefined> {
  if (!requireProject(data, diagnostics, options.action)) return undefined;
  let environment: Environment;
  try {
    environment = await data.client.getEnvironment({ environmentId: ids.environment_id });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      if (options.gone === "null") return null;
      diagnostics.error(
        `Could not ${options.action}: no such environment`,
        `Project ${data.accountSlug}/${data.projectSlug} has no environment ${ids.environment_id}. Use chainform_environment.<name>.id.`,
        paths.environmentId,
      );
      return undefined;
    }
    reportError(diagnostics, data, error, { action: options.action, path: paths.environmentId });
    return undefined;
  }
  const vnet = environment.active_instance.vnets.find((v) => v.id === ids.vnet_id);
  if (!vnet) {
    if (options.gone === "null") return null;
    const known = environment.active_instance.vnets.map((v) => v.id).join(", ");
    diagnostics.error(
      `Could not ${options.action}: the Virtual Environment is not in this environment`,
      `Environment ${environment.id} has no Virtual Environment ${ids.vnet_id}; its Virtual Environments are ${known || "none"}. Use chainform_environment.<name>.vnets[<index>].id.`,
      paths.vnetId,
    );
    return undefined;
  }
  const adminUrl = vnet.rpcs.find((r) => r.name === "Admin RPC")?.url;
  const publicUrl = vnet.rpcs.find((r) => r.name === "Public RPC")?.url;
  if (!adminUrl && (options.needAdmin || !publicUrl)) {
    diagnostics.error(
      `Could not ${options.action}: the service did not give the Admin RPC`,
      `The environment's answer holds no Admin RPC URL for Virtual Environment ${ids.vnet_id}; the service omits it for read-only credentials. Use the ${data.credential ?? "credentials"} of a project member who may write.`,
      paths.vnetId,
    );
    return undefined;
  }
  return {
    environment,
    vnetId: vnet.id,
    admin: (method, params = []) => jsonRpc(adminUrl!, method, params, data.caFile),
    read: (method, params = []) => jsonRpc(publicUrl ?? adminUrl!, method, params, data.caFile),
  };
}

let nextId = 1;

/** One JSON-RPC call; throws `ChainRpcError` for an error answer. Errors never quote the URL (it holds a secret). */
export async function jsonRpc<T>(url: string, method: string, params: unknown[], caFile?: string): Promise<T> {
  const response = await post(
    url,
    { "content-type": "application/json" },
    JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    {
      timeoutMs: 120_000,
      caFile,
    },
  ).catch((error: Error & { code?: string }) => {
    throw new ChainRpcError(-32603, `the RPC URL could not be reached (${error.code ?? error.name})`);
  });
  const text = response.text;
  let body: { result?: unknown; error?: { code: number; message: string; data?: unknown } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new ChainRpcError(-32603, `the RPC answered HTTP ${response.statusCode} without JSON`);
  }
  if (body.error) throw new ChainRpcError(body.error.code, body.error.message, body.error.data);
  if (response.statusCode !== 200) throw new ChainRpcError(-32603, `the RPC answered HTTP ${response.statusCode}`);
  return body.result as T;
}

/** Adds an error for a failed chain call: what was being done, and the chain's own message. */
export function reportChainError(diagnostics: Diagnostics, action: string, error: unknown, path?: ValuePath): void {
  if (!(error instanceof ChainRpcError)) throw error;
  diagnostics.error(`Could not ${action}`, `The chain answered: ${error.message} (JSON-RPC error ${error.code}).`, path);
}
