import { Type, type Static } from "@sinclair/typebox";
import { ProjectParams } from "./common";
import { MAX_ACTION_ID_LENGTH } from "../domain/constants";

/** A Web3 Action (docs/service.md "Shapes": the stop answer's record). */
export const Web3Action = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.Union([Type.Literal("running"), Type.Literal("stopped")]),
});
export type Web3Action = Static<typeof Web3Action>;

/** POST .../actions/action/{actionId}/stop path parameters. */
export const ActionParams = Type.Composite([
  ProjectParams,
  Type.Object({ actionId: Type.String({ minLength: 1, maxLength: MAX_ACTION_ID_LENGTH }) }),
]);
export type ActionParams = Static<typeof ActionParams>;

/** POST .../actions/action/{actionId}/stop answer: `{ action }`. */
export const StopActionResponse = Type.Object({ action: Web3Action });
export type StopActionResponse = Static<typeof StopActionResponse>;
