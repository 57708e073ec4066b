/**
 * `chainform_action_stop`: ensures a Web3 Action is stopped. Creating it stops the action (stopping a stopped
 * action succeeds); destroying it does nothing, the action stays stopped. The service has no read of an action,
 * so state keeps what the stop returned.
 */
import { ApiError, type StopActionReturnType } from "../../../client";
import { at, attr, defineResource, defineSchema, lengthBetween, requiresReplace, useStateForUnknown, type Model } from "../../framework";
import { MAX_ACTION_ID_LENGTH } from "../../../domain/constants";
import { reportError } from "../errors";
import { requireProject, type ChainformProviderData } from "../provider-data";

/** The resource schema. */
export const actionStopSchema = defineSchema({
  description:
    "Ensures a Web3 Action is stopped. Destroying this resource does nothing: the action stays stopped (start it again in the dashboard).",
  attributes: {
    // Required
    action_id: attr.string({
      description: "Identifier of the Web3 Action to stop. Changing it stops the other action.",
      required: true,
      validators: [lengthBetween(1, MAX_ACTION_ID_LENGTH)],
      planModifiers: [requiresReplace()],
    }),
    // Computed
    id: attr.string({ description: "Identifier of the Web3 Action.", computed: true, planModifiers: [useStateForUnknown()] }),
    name: attr.string({
      description: "Name of the Web3 Action, when the service's answer carried it (the hosted service documents no body; then null).",
      computed: true,
      planModifiers: [useStateForUnknown()],
    }),
    status: attr.string({ description: "Status of the Web3 Action: stopped.", computed: true, planModifiers: [useStateForUnknown()] }),
  },
});

/** The state of a `chainform_action_stop`. */
export type ActionStopState = Model<typeof actionStopSchema>;

/** The one mapping from the service's action to state. */
export function toState(action: StopActionReturnType, actionId: string): ActionStopState {
  // name is null when the answer did not carry the action (a computed attribute may be null).
  return { action_id: actionId, id: action.id, name: action.name as string, status: action.status };
}

/** The resource. */
export const actionStop = defineResource<typeof actionStopSchema, ChainformProviderData>({
  typeName: "chainform_action_stop",
  schema: actionStopSchema,
  async create({ plan, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "stop the Web3 Action")) return;
    try {
      return toState(await data.client.stopAction({ actionId: plan.action_id }), plan.action_id);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        diagnostics.error(
          "No such Web3 Action",
          `Project ${data.accountSlug}/${data.projectSlug} has no Web3 Action with id "${plan.action_id}". Check action_id.${error.errorId ? ` (error id ${error.errorId})` : ""}`,
          at("action_id"),
        );
        return;
      }
      reportError(diagnostics, data, error, { action: "stop the Web3 Action", path: at("action_id") });
      return;
    }
  },
  // The service cannot read an action; the stop is what this resource promises, so state stays as it was.
  async read({ state }) {
    return state;
  },
  async delete() {
    // Destroying does nothing: there is no "start" to undo a stop with.
  },
});
