import type { Web3Action } from "../../spec";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { segment } from "../transport/url";
import { projectPath, type ProjectScope } from "../utils/scope";
import { single } from "../utils/shape";

/** Parameters of {@link stopAction}. */
export interface StopActionParameters extends ProjectScope {
  /** The Web3 Action to stop. */
  actionId: string;
}
/** The stopped action (`status: "stopped"`). */
export type StopActionReturnType = Web3Action;
/** Errors {@link stopAction} can throw; an unknown id is an ApiError 404 with `rid:action`. */
export type StopActionErrorType = RequestErrorType;

/**
 * Stops a Web3 Action: `POST .../actions/action/{actionId}/stop`. Stopping a stopped action succeeds too, so the
 * client retries this POST like a PUT.
 *
 * @example
 * const action = await stopAction(client, { actionId: "b7c3..." })
 * console.log(action.status) // "stopped"
 */
export async function stopAction(client: BaseClient, params: StopActionParameters): Promise<StopActionReturnType> {
  return client.request({
    method: "POST",
    path: `${projectPath(client, params)}/actions/action/${segment("actionId", params.actionId)}/stop`,
    retry: "idempotent",
    parse: single<Web3Action>("action", ["id", "status"]),
  });
}
