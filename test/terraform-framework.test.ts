/**
 * The framework and wire layer against the real terraform binary: a throwaway provider (test/helpers/echo-provider)
 * is bundled, found through dev_overrides, and driven through create, no-op plan, update, replacement, validation,
 * import, drift and destroy.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateServerCertificate } from "../lib/certificates/self-signed";
import { MAGIC_COOKIE_VALUE } from "../lib/terraform/protocol/handshake";
import { bundleProvider, TerraformWorkspace, type PlannedChange } from "./helpers/terraform";

const PROVIDER_ADDRESS = "chainform-test/echo";

const config = (thing: { name?: string; description?: string; size?: number; extra?: string } = {}) => `
terraform {
  required_providers {
    echo = { source = "${PROVIDER_ADDRESS}" }
  }
}

provider "echo" {
  store_path = "\${path.module}/store.json"
}

resource "echo_thing" "a" {
  name        = "${thing.name ?? "alpha"}"
  description = "${thing.description ?? "first"}"
  size        = ${thing.size ?? 3}
  secret      = "s3cret"
  tags        = { env = "test" }
  ${thing.extra ?? ""}

  rule {
    port = 80
  }
  rule {
    port     = 443
    protocol = "udp"
  }
}

# Its name is a refined unknown at plan time ("beta-" prefix, known after apply).
resource "echo_thing" "b" {
  name = "beta-\${echo_thing.a.revision}"
}

data "echo_thing" "a" {
  name       = echo_thing.a.name
  depends_on = [echo_thing.a]
}

output "looked_up_size" {
  value = data.echo_thing.a.size
}
`;

describe("the framework against real terraform", () => {
  let binDir: string;
  let launcher: string;
  let tf: TerraformWorkspace;
  const store = () => JSON.parse(readFileSync(join(tf.dir, "store.json"), "utf8")) as Record<string, Record<string, unknown>>;
  const change = (plan: { resource_changes?: PlannedChange[] }, address: string) =>
    plan.resource_changes?.find((c) => c.address === address)?.change;

  beforeAll(async () => {
    binDir = mkdtempSync(join(tmpdir(), "chainform-echo-"));
    ({ launcher } = await bundleProvider({ entry: join(__dirname, "helpers", "echo-provider-main.ts"), outDir: binDir, type: "echo" }));
    // The provider's compile cache goes to the throwaway directory, not the user's ~/.cache.
    tf = TerraformWorkspace.create({ devOverrides: { [PROVIDER_ADDRESS]: binDir }, env: { XDG_CACHE_HOME: join(binDir, "cache") } });
  });
  afterAll(() => {
    tf?.dispose();
    rmSync(binDir, { recursive: true, force: true });
  });

  test("apply creates the resources, with defaults, computed values and the data source", async () => {
    tf.write("main.tf", config());
    const apply = await tf.expect(["apply", "-auto-approve"]);
    expect(apply.stdout).toContain("Apply complete! Resources: 2 added, 0 changed, 0 destroyed.");

    const resources = await tf.stateResources();
    const a = resources.find((r) => r.address === "echo_thing.a")!;
    expect(a.values).toMatchObject({ name: "alpha", size: 3, revision: 1, greeting: "hello alpha", tags: { env: "test" } });
    expect(a.values.rule).toEqual([
      { port: 80, protocol: "tcp" },
      { port: 443, protocol: "udp" },
    ]);
    expect(a.sensitive_values).toMatchObject({ secret: true });
    const b = resources.find((r) => r.address === "echo_thing.b")!;
    expect(b.values).toMatchObject({ name: "beta-1", size: 1 });
    expect(resources.find((r) => r.address === "data.echo_thing.a")!.values).toMatchObject({ id: a.values.id, size: 3 });
    expect(Object.keys(store())).toHaveLength(2);
  });

  test("a second plan is empty", async () => {
    const plan = await tf.run("plan", "-detailed-exitcode");
    expect(plan.stdout).toContain("No changes.");
    expect(plan.code).toBe(0);
  });

  test("changing an updatable attribute plans an in-place update that keeps useStateForUnknown values", async () => {
    tf.write("main.tf", config({ description: "second" }));
    const plan = await tf.planJson();
    const a = change(plan, "echo_thing.a")!;
    expect(a.actions).toEqual(["update"]);
    expect(a.after).toMatchObject({ description: "second", id: a.before!.id, greeting: "hello alpha" });
    expect(a.after_unknown).toMatchObject({ revision: true });
    expect(a.after_unknown.id).toBeUndefined();
  });

  test("changing a requiresReplace attribute plans a replacement naming the attribute", async () => {
    tf.write("main.tf", config({ name: "gamma" }));
    const plan = await tf.planJson();
    const a = change(plan, "echo_thing.a")!;
    expect(a.actions).toEqual(["delete", "create"]);
    expect(a.replace_paths).toEqual([["name"]]);
    const text = await tf.run("plan");
    expect(text.stdout).toMatch(/~ name\s+= "alpha" -> "gamma" # forces replacement/);
  });

  test("a validator's error points at the attribute in the configuration", async () => {
    tf.write("main.tf", config({ size: 11 }));
    const validate = await tf.run("validate");
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain("Invalid attribute value");
    expect(validate.stderr).toContain("11 is out of range: expected a number from 1 to 10.");
    expect(validate.stderr).toMatch(/size\s+= 11/); // the source snippet of the offending attribute
  });

  test("a resource can fail a plan with a diagnostic", async () => {
    tf.write("main.tf", config({ description: "forbidden" }));
    const plan = await tf.run("plan");
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("Forbidden description");
    expect(plan.stderr).toMatch(/description\s+= "forbidden"/);
  });

  test("apply of an update, then import restores a forgotten resource with nothing to change", async () => {
    tf.write("main.tf", config({ description: "second" }));
    await tf.expect(["apply", "-auto-approve"]);
    const id = (await tf.stateResources()).find((r) => r.address === "echo_thing.a")!.values.id as string;
    expect(store()[id]).toMatchObject({ description: "second", revision: 2 });

    await tf.expect(["state", "rm", "echo_thing.a"]);
    const refused = await tf.run("import", "echo_thing.a", "no-such-id");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('No echo_thing has id "no-such-id"');
    const imported = await tf.expect(["import", "echo_thing.a", id]);
    expect(imported.stdout).toContain("Import successful!");
    expect((await tf.run("plan", "-detailed-exitcode")).code).toBe(0);
  });

  test("an object deleted behind terraform's back is planned for creation again", async () => {
    const id = (await tf.stateResources()).find((r) => r.address === "echo_thing.a")!.values.id as string;
    const all = store();
    delete all[id];
    writeFileSync(join(tf.dir, "store.json"), JSON.stringify(all));
    const plan = await tf.planJson();
    expect(change(plan, "echo_thing.a")!.actions).toEqual(["create"]);
  });

  test("destroy removes everything", async () => {
    const destroy = await tf.expect(["destroy", "-auto-approve"]);
    expect(destroy.stdout).toMatch(/Destroy complete! Resources: \d+ destroyed\./);
    expect(store()).toEqual({});
  });

  test("the bundled provider answers the handshake, reusing the compile cache terraform's runs left", async () => {
    // How fast it answers is bench/provider's business (timed assertions do not belong in tests on a shared machine).
    expect(readdirSync(join(binDir, "cache", "chainform", "v8")).filter((f) => f.endsWith(".bin"))).toHaveLength(1);
    const client = generateServerCertificate();
    const env = {
      PATH: process.env.PATH,
      XDG_CACHE_HOME: join(binDir, "cache"),
      TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
      PLUGIN_CLIENT_CERT: client.certPem,
      PLUGIN_MIN_PORT: "10000",
      PLUGIN_MAX_PORT: "25000",
      PLUGIN_PROTOCOL_VERSIONS: "6",
    };
    const firstLine = await new Promise<string>((resolve, reject) => {
      const child = spawn(launcher, [], { env });
      let out = "";
      child.once("error", reject);
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) {
          resolve(out.split("\n")[0]!);
          child.kill();
        }
      });
    });
    expect(firstLine).toMatch(/^1\|6\|unix\|[^|]+\.sock\|grpc\|[A-Za-z0-9+/]+$/);
    expect(readdirSync(join(binDir, "cache", "chainform", "v8")).filter((f) => f.endsWith(".bin"))).toHaveLength(1);
  });
});
