/**
 * `clone_from` on chainform_environment through real terraform and the offline mirror, against the local service on
 * real anvil chains: the clone starts from the source's current state (a contract deployed and written to before),
 * lives on its own both ways, plans no changes after apply, and a new clone_from plans a replacement naming it. A
 * configuration naming other networks than the source's is an error at network_config, at plan time, that leaves the
 * clone in state as it was (docs/fixtures.md; test/provider-environment-clone.test.ts has the chain ids).
 */
import { acceptance, PROVIDER_BLOCK, providerEnv, type Acceptance } from "./helpers/acceptance";
import { call, rpc, adminRpc } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";
import type { PlannedChange } from "./helpers/terraform";
import { ENVIRONMENTS, chainFacts, createEnvironment, deployStore, send, setCall, type CreatedEnvironment } from "./helpers/fixtures";

jest.setTimeout(300_000);

let service: TestService;
let tf: Acceptance;
let first: CreatedEnvironment;
let second: CreatedEnvironment;
let address: string;

const config = (source: string, networks: readonly string[] = ["8453"]) => `${PROVIDER_BLOCK}
provider "chainform" {}

resource "chainform_environment" "clone" {
  display_name = "Terraform clone"
  clone_from   = "${source}"
${networks.map((n) => `  network_config {\n    network_id = "${n}"\n  }`).join("\n")}
}
`;

const slot0 = (url: string) => rpc<string>(url, "eth_getStorageAt", [address, "0x0", "latest"]);
const word = (value: number) => `0x${value.toString(16).padStart(64, "0")}`;

beforeAll(async () => {
  service = await startTestService();
  first = await createEnvironment(service, "Clone source", [{ network_id: "8453" }]);
  address = await deployStore(service, first, 0, 7);
  second = await createEnvironment(service, "Other source", [{ network_id: "8453" }]);
  tf = await acceptance({ env: providerEnv(service) });
});

afterAll(async () => {
  tf?.dispose();
  await service?.close();
});

const slugs = async () =>
  ((await call(service, "GET", `${ENVIRONMENTS}?perPage=100`, { as: "alice" })).body.environments as { slug: string }[]).map((e) => e.slug);

test("clone_from: a clone of the source's current state that lives on its own; a new source replaces it", async () => {
  let cloneId = "";
  await tf.steps([
    {
      name: "apply a clone",
      config: config(first.id),
      command: "apply",
      async check(ctx) {
        const state = await ctx.resource("chainform_environment.clone");
        cloneId = state.id as string;
        expect(cloneId).not.toBe(first.id);
        expect([state.clone_from, state.slug]).toEqual([first.id, "terraform-clone"]);
        const clone = (await call(service, "GET", `${ENVIRONMENTS}/${cloneId}`, { as: "alice" })).body as CreatedEnvironment;
        expect(await chainFacts(adminRpc(clone, 0), [address])).toEqual(await chainFacts(adminRpc(first, 0), [address]));
        await send(adminRpc(clone, 0), { to: address, data: setCall(8) });
        expect(await slot0(adminRpc(first, 0))).toBe(word(7));
        await send(adminRpc(first, 0), { to: address, data: setCall(9) });
        expect(await slot0(adminRpc(clone, 0))).toBe(word(8));
      },
    },
    { name: "plan after apply is empty", command: "plan", expectNoChanges: true },
    {
      name: "a new clone_from plans a replacement naming it",
      config: config(second.id),
      command: "plan",
      check(_ctx, result) {
        const change = result.plan!.resource_changes!.find((c: PlannedChange) => c.address === "chainform_environment.clone")!.change;
        expect(change.actions).toEqual(["delete", "create"]);
        expect(change.replace_paths).toEqual([["clone_from"]]);
      },
    },
    {
      name: "other networks than the source's are an error at network_config at plan time: the clone in state is kept",
      config: config(first.id, ["1"]),
      command: "apply",
      expectError: /The clone's networks are not the configured ones[\s\S]*network_config names 1/,
      async check(ctx) {
        expect((await ctx.resource("chainform_environment.clone")).id).toBe(cloneId);
        expect((await slugs()).filter((slug) => slug.startsWith("terraform-clone"))).toEqual(["terraform-clone"]);
      },
    },
    {
      name: "a clone_from that is not an id is refused at validate",
      config: config("not-an-id"),
      command: "validate",
      expectError: /an environment id \(a UUID\)/,
    },
    { name: "destroy", config: config(first.id), command: "destroy" },
  ]);
  expect(await slugs()).toEqual(expect.arrayContaining(["clone-source", "other-source"]));
  expect(await slugs()).not.toContain("terraform-clone");
});
