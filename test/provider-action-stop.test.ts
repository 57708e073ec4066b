/**
 * Acceptance: `chainform_action_stop` as examples/hcl/action_stop writes it, through real terraform against the local
 * service: apply stops the running Web3 Action, the plan after it is empty, destroy leaves the action stopped, and an
 * unknown action id fails at apply naming action_id.
 */
import { useAcceptanceSuite } from "./helpers/acceptance";
import { hclExample as example } from "./helpers/hcl-examples";

describe("chainform_action_stop", () => {
  const suite = useAcceptanceSuite();
  const actionStatus = (id: string) =>
    (suite.service.app.service.store.db.prepare("SELECT status FROM actions WHERE id = ?").get(id) as { status: string }).status;

  test("action_stop: stops the action; destroy leaves it stopped", async () => {
    const { id } = suite.service.app.service.store.db.prepare("SELECT id FROM actions WHERE status = 'running'").get() as { id: string };
    const run = await suite.workspace();
    await run.steps([
      {
        name: "apply stops the running action",
        config: example("action_stop"),
        command: "apply",
        args: [`-var=action_id=${id}`],
        async check(ctx) {
          expect((await ctx.outputs()).status!.value).toBe("stopped");
          expect(actionStatus(id)).toBe("stopped");
        },
      },
      { name: "plan is empty", command: "plan", args: [`-var=action_id=${id}`], expectNoChanges: true },
      {
        name: "destroy does nothing to the action",
        command: "destroy",
        args: [`-var=action_id=${id}`],
        check: () => expect(actionStatus(id)).toBe("stopped"),
      },
      {
        name: "an unknown action id fails at apply, naming action_id",
        command: "apply",
        args: ["-var=action_id=no-such-action"],
        expectError: /No such Web3 Action[\s\S]*no Web3 Action with id "no-such-action"/,
      },
    ]);
  }, 60_000);
});
