import type { Web3Action } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { segment } from "../transport/url";
import { projectPath, type ProjectScope } from "../utils/scope";

/** Parameters of {@link stopAction}. */
export interface StopActionParameters extends ProjectScope {
  /** The Web3 Action to stop. */
  actionId: string;
}
/**
 * The stopped action. The hosted service documents success without a body, so only `id` and `status` are
 * certain: `name` is null when the answer did not carry the action.
 */
export interface StopActionReturnType {
  /** The action's id (from the answer, else the id asked for). */
  id: string;
  /** The action's name when the answer carried it, else null. */
  name: string | null;
  /** "stopped" (the answer's status when it carried one). */
  status: string;
}
/** Errors {@link stopAction} can throw; an unknown id is an ApiError 404 with `rid:action`. */
export type StopActionErrorType = RequestErrorType;

/**
 * Stops a Web3 Action: `POST .../actions/action/{actionId}/stop`. Stopping a stopped action succeeds too, so the
 * client retries this POST like a PUT. Any 2xx answer is success, whatever its body (none, `{ action }`, a bare
 * action, or something else): the hosted service documents none.
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
    anyBody: true,
    parse: (body) => stoppedFrom(body, params.actionId),
  });
}

/** What a 2xx answer tells about the stopped action; never fails. */
function stoppedFrom(body: unknown, actionId: string): StopActionReturnType {
  const record = (value: unknown): Partial<Web3Action> | undefined =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Partial<Web3Action>) : undefined;
  const outer = record(body);
  const action = record(outer?.["action" as keyof Web3Action]) ?? outer;
  return {
    id: typeof action?.id === "string" ? action.id : actionId,
    name: typeof action?.name === "string" ? action.name : null,
    status: typeof action?.status === "string" ? action.status : "stopped",
  };
}
