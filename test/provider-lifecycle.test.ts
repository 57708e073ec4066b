/**
 * Acceptance (issue 10, "a lifecycle that never gets stuck"), real terraform against the local service:
 * - create_before_destroy with slug_prefix replaces cleanly;
 * - create_before_destroy with a fixed slug fails with the slug_prefix advice, and destroy still works;
 * - an environment created out of band with a declared slug blocks apply with a working import command, while
 *   `plan -refresh-only` and `destroy` work;
 * - with `adopt_existing = true` the same apply converges to exactly the declared environments, also after a real
 *   "crash mid-apply": the service commits a create whose answer never arrives (a fault proxy drops it).
 */
import { PROVIDER_BLOCK, providerEnv, useAcceptanceSuite } from "./helpers/acceptance";
import { startFaultProxy } from "./helpers/fault-proxy";

const provider = (settings = "") => `${PROVIDER_BLOCK}
provider "chainform" {
${settings}
}
`;

const environment = (name: string, body: string) => `
resource "chainform_environment" "${name}" {
${body}
}
`;

const network = (id: string) => `  network_config {
    network_id = "${id}"
  }`;

const CBD = `  lifecycle {
    create_before_destroy = true
  }`;

describe("chainform_environment lifecycle through terraform", () => {
  const suite = useAcceptanceSuite();
  /** The project's environment slugs (those starting with `prefix`, when given: each test has its own). */
  const slugs = async (prefix = "") =>
    (await suite.client.listEnvironments())
      .map((e) => e.slug)
      .filter((slug) => slug.startsWith(prefix))
      .sort();
  const exists = async (id: string) =>
    suite.client.getEnvironment({ environmentId: id }).then(
      () => true,
      (error: { status?: number }) => (error.status === 404 ? false : Promise.reject(error)),
    );

  test("create_before_destroy with slug_prefix replaces cleanly", async () => {
    const run = await suite.workspace();
    const config = (networkId: string) =>
      provider() + environment("preview", [`  display_name = "Preview"`, `  slug_prefix  = "cbd-"`, network(networkId), CBD].join("\n"));
    let first = { id: "", slug: "" };
    await run.steps([
      {
        name: "create with a generated slug",
        config: config("1"),
        command: "apply",
        async check(ctx) {
          const env = await ctx.resource("chainform_environment.preview");
          expect(env.slug).toMatch(/^cbd-[0-9a-f]{8}$/);
          expect(env.slug_prefix).toBe("cbd-");
          first = { id: env.id as string, slug: env.slug as string };
        },
      },
      { name: "plan is empty", command: "plan", expectNoChanges: true },
      {
        name: "a change that replaces: the new environment is created first, with a fresh slug, then the old one deleted",
        config: config("8453"),
        command: "apply",
        async check(ctx) {
          const env = await ctx.resource("chainform_environment.preview");
          expect(env.id).not.toBe(first.id);
          expect(env.slug).toMatch(/^cbd-[0-9a-f]{8}$/);
          expect(env.slug).not.toBe(first.slug);
          expect(await exists(first.id)).toBe(false);
          expect(await slugs("cbd-")).toEqual([env.slug]);
        },
      },
      { name: "plan is empty after the replacement", command: "plan", expectNoChanges: true },
      { name: "destroy", command: "destroy", check: async () => expect(await slugs("cbd-")).toEqual([]) },
    ]);
  }, 180_000);

  test("create_before_destroy with a fixed slug fails with the slug_prefix advice; plan and destroy still work", async () => {
    const run = await suite.workspace();
    const config = (networkId: string) =>
      provider() + environment("fixed", [`  display_name = "Fixed"`, `  slug         = "cbd-fixed"`, network(networkId), CBD].join("\n"));
    let id = "";
    await run.steps([
      {
        name: "create",
        config: config("1"),
        command: "apply",
        check: async (ctx) => void (id = (await ctx.resource("chainform_environment.fixed")).id as string),
      },
      {
        name: "a replacement cannot take the slug the old environment holds: the error says to use slug_prefix",
        config: config("8453"),
        command: "apply",
        expectError: /An environment with this slug already exists[\s\S]*create_before_destroy[\s\S]*slug_prefix/,
      },
      {
        name: "nothing is stuck: the old environment is still the current object and a plan works",
        command: "plan",
        async check(ctx, result) {
          expect((await ctx.resource("chainform_environment.fixed")).id).toBe(id);
          const change = result.plan?.resource_changes?.find((c) => c.address === "chainform_environment.fixed")?.change;
          expect(change?.actions).toEqual(["create", "delete"]);
          expect(await exists(id)).toBe(true);
        },
      },
      { name: "plan -refresh-only works", command: "plan", args: ["-refresh-only"] },
      {
        name: "destroy works",
        command: "destroy",
        async check(ctx) {
          expect(await ctx.state()).toEqual([]);
          expect(await exists(id)).toBe(false);
        },
      },
    ]);
  }, 180_000);

  test("an environment created out of band blocks apply with a working import command; refresh-only and destroy work", async () => {
    const run = await suite.workspace();
    const keeper = environment("keeper", [`  display_name = "Keeper"`, `  slug         = "oob-keeper"`, network("1")].join("\n"));
    const declared = environment("oob", [`  display_name = "Out of band"`, `  slug         = "oob-env"`, network("1")].join("\n"));
    let outOfBand = "";
    let importCommand = "";
    await run.steps([
      { name: "apply another environment first, so that state is not empty", config: provider() + keeper, command: "apply" },
      {
        name: "someone creates the declared slug out of band; the plan warns with the import command",
        before: async () => {
          outOfBand = (
            await suite.client.createEnvironment({ display_name: "Out of band", slug: "oob-env", network_configs: [{ network_id: "1" }] })
          ).id;
        },
        config: provider() + keeper + declared,
        command: "plan",
        check: (_ctx, result) =>
          expect((result.stdout + result.stderr).replace(/\s+/g, " ")).toMatch(new RegExp(`terraform import <address> ${outOfBand}`)),
      },
      {
        name: "apply fails with the import command",
        command: "apply",
        expectError: /already has environment [0-9a-f-]{36} with slug "oob-env"[\s\S]*terraform import <address> [0-9a-f-]{36}/,
        check(_ctx, result) {
          const match = /terraform import <address> ([0-9a-f-]{36})/.exec((result.stdout + result.stderr).replace(/\s+/g, " "));
          importCommand = match![1]!;
          expect(importCommand).toBe(outOfBand);
        },
      },
      { name: "plan -refresh-only works", command: "plan", args: ["-refresh-only"] },
      {
        name: "destroy works (the out-of-band environment is not Terraform's: it stays)",
        command: "destroy",
        async check(ctx) {
          expect(await ctx.state()).toEqual([]);
          expect(await slugs("oob-")).toEqual(["oob-env"]);
        },
      },
      {
        name: "the advised import command works",
        resource: "chainform_environment.oob",
        importId: () => importCommand,
      },
      {
        name: "apply converges: the imported environment is kept, the other one created",
        command: "apply",
        async check(ctx) {
          expect((await ctx.resource("chainform_environment.oob")).id).toBe(outOfBand);
          expect(await slugs("oob-")).toEqual(["oob-env", "oob-keeper"]);
        },
      },
      { name: "plan is empty", command: "plan", expectNoChanges: true },
      { name: "destroy removes both", command: "destroy", check: async () => expect(await slugs("oob-")).toEqual([]) },
    ]);
  }, 240_000);

  test("with adopt_existing = true the same apply converges to exactly the declared environments", async () => {
    const run = await suite.workspace();
    const declared =
      environment(
        "alpha",
        [`  display_name = "Adopt alpha"`, `  slug         = "adopt-alpha"`, network("1"), `  bridge {\n    enabled = true\n  }`].join(
          "\n",
        ),
      ) + environment("beta", [`  display_name = "Adopt beta"`, `  slug         = "adopt-beta"`, network("8453")].join("\n"));
    let alpha = "";
    await run.steps([
      {
        name: "a create the service committed without answering (simulated: created out of band), and a mismatching squatter",
        before: async () => {
          alpha = (
            await suite.client.createEnvironment({
              display_name: "Adopt alpha",
              slug: "adopt-alpha",
              network_configs: [{ network_id: "1" }],
              bridge_config: { enabled: true },
            })
          ).id;
        },
        config: provider() + declared,
        command: "apply",
        expectError: /already has environment [0-9a-f-]{36} with slug "adopt-alpha"[\s\S]*adopt_existing = true/,
      },
      {
        name: "with adopt_existing the apply adopts the matching environment and creates the missing one",
        config: provider("  adopt_existing = true") + declared,
        command: "apply",
        async check(ctx, result) {
          expect((result.stdout + result.stderr).replace(/\s+/g, " ")).toMatch(/Adopted an existing environment/);
          expect((await ctx.resource("chainform_environment.alpha")).id).toBe(alpha);
          expect(await slugs("adopt-")).toEqual(["adopt-alpha", "adopt-beta"]);
          expect((await ctx.resource("chainform_environment.alpha")).bridge).toEqual([
            { enabled: true, relay_mode: null, delay_seconds: null },
          ]);
        },
      },
      { name: "plan is empty", command: "plan", expectNoChanges: true },
      {
        name: "an environment that does not match is not adopted",
        before: async () => {
          await suite.client.createEnvironment({
            display_name: "Adopt gamma",
            slug: "adopt-gamma",
            network_configs: [{ network_id: "10" }],
          });
        },
        config:
          provider("  adopt_existing = true") +
          declared +
          environment("gamma", [`  display_name = "Adopt gamma"`, `  slug         = "adopt-gamma"`, network("1")].join("\n")),
        command: "apply",
        expectError: /does not match[\s\S]*\/network_configs\/0\/network_id: configured "1", found "10"/,
      },
      {
        name: "destroy",
        config: provider("  adopt_existing = true") + declared,
        command: "destroy",
        async check(ctx) {
          expect(await ctx.state()).toEqual([]);
          expect(await slugs("adopt-")).toEqual(["adopt-gamma"]);
        },
      },
    ]);
  }, 240_000);

  test("after a create whose answer was lost mid-apply: safe by default, converges with adopt_existing", async () => {
    // GIVEN a proxy in front of the service that will drop the answer to one create (the service commits it)
    const proxy = await startFaultProxy(suite.service.baseUrl);
    try {
      const run = await suite.workspace(providerEnv(suite.service, { CHAINFORM_BASE_URL: proxy.baseUrl }));
      const declared =
        environment("one", [`  display_name = "Crash one"`, `  slug         = "crash-one"`, network("1")].join("\n")) +
        environment("two", [`  display_name = "Crash two"`, `  slug         = "crash-two"`, network("8453")].join("\n"));
      // max_retries = 0: the client does not look for its lost create, as when the service itself died.
      const settings = (adopt: boolean) => `  max_retries = 0${adopt ? "\n  adopt_existing = true" : ""}`;
      await run.steps([
        {
          name: "the apply fails: one create's answer is lost after the service committed it",
          before: () => proxy.inject("drop-after", (r) => r.method === "POST" && r.url.endsWith("/environments")),
          config: provider(settings(false)) + declared,
          command: "apply",
          expectError: /cannot reach the service|did not answer|unexpected answer|connection/i,
          async check(ctx) {
            expect(await slugs("crash-")).toEqual(["crash-one", "crash-two"]);
            expect(await ctx.state()).toHaveLength(1);
          },
        },
        {
          name: "by default the next apply adopts nothing and says how to: import or adopt_existing",
          command: "apply",
          expectError:
            /already has environment [0-9a-f-]{36} with slug "crash-(one|two)"[\s\S]*terraform import <address>[\s\S]*adopt_existing = true/,
          check: async (ctx) => expect(await ctx.state()).toHaveLength(1),
        },
        {
          name: "with adopt_existing the same apply converges to exactly the declared environments",
          config: provider(settings(true)) + declared,
          command: "apply",
          async check(ctx) {
            const remote = (await suite.client.listEnvironments()).filter((e) => e.slug.startsWith("crash-"));
            expect(remote.map((e) => e.slug).sort()).toEqual(["crash-one", "crash-two"]);
            const ids = [(await ctx.resource("chainform_environment.one")).id, (await ctx.resource("chainform_environment.two")).id];
            expect(ids.sort()).toEqual(remote.map((e) => e.id).sort());
          },
        },
        { name: "plan is empty", command: "plan", expectNoChanges: true },
        { name: "destroy", command: "destroy", check: async () => expect(await slugs("crash-")).toEqual([]) },
      ]);
    } finally {
      await proxy.close();
    }
  }, 240_000);
});
