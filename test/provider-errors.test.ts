/**
 * Acceptance: what goes wrong, through real terraform. Bad configurations fail at validate (or, for what only the
 * service knows, at plan) with the attribute at fault; a wrong access key fails with a clear 401 that does not
 * echo the key; Ctrl-C during an apply leaves no environment unknown to state.
 */
import { spawn } from "node:child_process";
import { PROVIDER_BLOCK, providerEnv, useAcceptanceSuite } from "./helpers/acceptance";
import { startFaultProxy } from "./helpers/fault-proxy";
import { terraformBinary } from "./helpers/terraform";

const environment = (name: string, body: string) => `
resource "chainform_environment" "${name}" {
  display_name = "${name}"
${body}
}
`;

const network = (extra = "", id = "1") => `  network_config {
    network_id = "${id}"
${extra}
  }`;

/** One resource per mistake, all in one configuration: one `terraform validate` reports them all. */
const badConfigs = `${PROVIDER_BLOCK}
provider "chainform" {}
${environment(
  "bad_address",
  network(`    account {
      address = "0x1234"
      balance = "1ether"
    }`),
)}
${environment(
  "bad_balance",
  network(`    account {
      address = "0x1111111111111111111111111111111111111111"
      balance = "a lot"
    }`),
)}
${environment(
  "bad_enum",
  network(`    explorer {
      verification_visibility = "everything"
    }`),
)}
${environment(
  "bad_delay",
  `${network()}
  bridge {
    enabled       = true
    delay_seconds = 30
  }`,
)}
${environment(
  "duplicate_network",
  `${network()}
${network("    chain_id = 5")}`,
)}
${environment(
  "bad_checksum",
  network(`    account {
      address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"
      balance = "1ether"
    }`),
)}
${environment("bad_block", network(`    block_number = "0123"`))}
`;

interface JsonDiagnostic {
  severity: string;
  summary: string;
  detail: string;
  address?: string;
  snippet?: { code: string; context: string };
}

describe("provider errors through terraform", () => {
  const suite = useAcceptanceSuite();

  test("bad configurations fail at validate with the attribute at fault", async () => {
    const run = await suite.workspace();
    await run.step({
      name: "validate reports every mistake",
      config: badConfigs,
      command: "validate",
      args: ["-json"],
      expectError: /"valid": false/,
      check(_ctx, result) {
        const diagnostics = (JSON.parse(result.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics;
        const about = (resource: string) =>
          diagnostics.filter((d) => d.snippet?.context === `resource "chainform_environment" "${resource}"`);
        // Each diagnostic points at the attribute: Terraform quotes its line of the configuration.
        expect(about("bad_address")).toEqual([
          expect.objectContaining({
            severity: "error",
            detail: expect.stringMatching(/"0x1234".*0x followed by 40 hex digits/),
            snippet: expect.objectContaining({ code: expect.stringMatching(/address = "0x1234"/) }),
          }),
        ]);
        expect(about("bad_balance")).toEqual([
          expect.objectContaining({
            detail: expect.stringMatching(/"a lot" is not a balance.*100ether/),
            snippet: expect.objectContaining({ code: expect.stringMatching(/balance = "a lot"/) }),
          }),
        ]);
        expect(about("bad_enum")).toEqual([
          expect.objectContaining({
            detail: expect.stringMatching(/"everything".*"bytecode", "abi", "source"/),
            snippet: expect.objectContaining({ code: expect.stringMatching(/verification_visibility = "everything"/) }),
          }),
        ]);
        expect(about("bad_delay")).toEqual([
          expect.objectContaining({
            summary: "delay_seconds needs delayedRelay",
            snippet: expect.objectContaining({ code: expect.stringMatching(/delay_seconds = 30/) }),
          }),
        ]);
        expect(about("duplicate_network")).toEqual([
          expect.objectContaining({
            summary: "Duplicate network",
            detail: expect.stringMatching(/already network_config\[0\]/),
            snippet: expect.objectContaining({ code: expect.stringMatching(/network_id = "1"/) }),
          }),
        ]);
        // A mixed-case address whose EIP-55 checksum does not match (the last letter's case flipped).
        expect(about("bad_checksum")).toEqual([
          expect.objectContaining({
            severity: "error",
            detail: expect.stringMatching(/0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD does not match its EIP-55 checksum/),
            snippet: expect.objectContaining({ code: expect.stringMatching(/address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"/) }),
          }),
        ]);
        expect(about("bad_block")).toEqual([
          expect.objectContaining({
            detail: expect.stringMatching(/"0123" is not a block number: use a block number in decimal \("19500000"\) or hex/),
            snippet: expect.objectContaining({ code: expect.stringMatching(/block_number = "0123"/) }),
          }),
        ]);
        expect(diagnostics).toHaveLength(7);
      },
    });
    await run.step({
      name: "an unsupported network fails the plan, at network_id",
      config: `${PROVIDER_BLOCK}
provider "chainform" {}
${environment("unsupported", network("", "999999"))}`,
      command: "plan",
      expectError:
        /Unsupported network[\s\S]*network_id = "999999"[\s\S]*Network 999999 is not supported by the service\. Networks with Virtual Environments: 1 \(Mainnet\),[\s\S]*8453 \(Base\)/,
    });
    expect(await suite.client.listEnvironments()).toEqual([]);
  }, 60_000);

  test("a wrong access key fails with a clear 401 that does not echo the key", async () => {
    const wrongKey = "cf_WrongKeyThatMustNeverBeShown0123456789abcdef";
    const run = await suite.workspace(providerEnv(suite.service, { CHAINFORM_ACCESS_KEY: wrongKey }));
    await run.step({
      name: "plan with a wrong key",
      config: `${PROVIDER_BLOCK}
provider "chainform" {}
${environment("env", network())}
data "chainform_projects" "all" {}
`,
      command: "plan",
      expectError: /authentication failed \(401\)[\s\S]*rejected the access key from CHAINFORM_ACCESS_KEY/,
      check(_ctx, result) {
        expect(result.stdout + result.stderr).not.toContain(wrongKey);
        expect(result.stdout + result.stderr).not.toContain(wrongKey.slice(3, 20));
      },
    });
    await run.step({
      name: "the same key as a provider argument: the message names the argument",
      config: `${PROVIDER_BLOCK}
provider "chainform" {
  access_key = "${wrongKey}"
}
data "chainform_projects" "all" {}
`,
      command: "plan",
      expectError: /authentication failed \(401\)[\s\S]*provider's access_key argument/,
      check(_ctx, result) {
        expect(result.stdout + result.stderr).not.toContain(wrongKey);
      },
    });
  }, 60_000);

  test("a plan of a new environment fails at plan, not at apply, with no key or a wrong one", async () => {
    const config = `${PROVIDER_BLOCK}
provider "chainform" {}
${environment("env", network())}
`;
    const wrongKey = "cf_WrongKeyThatMustNeverBeShown0123456789abcdef";
    const wrong = await suite.workspace(providerEnv(suite.service, { CHAINFORM_ACCESS_KEY: wrongKey }));
    await wrong.step({
      name: "plan with a wrong key and nothing but the environment",
      config,
      command: "plan",
      expectError:
        /Could not plan chainform_environment: authentication failed \(401\)[\s\S]*rejected the access key from CHAINFORM_ACCESS_KEY/,
      check(_ctx, result) {
        expect(result.stdout + result.stderr).not.toContain(wrongKey);
        // Once, however many resources: one check per provider process.
        expect((result.stdout + result.stderr).match(/authentication failed/g)).toHaveLength(1);
      },
    });
    const { CHAINFORM_ACCESS_KEY: _key, ...noKey } = providerEnv(suite.service);
    const none = await suite.workspace(noKey);
    await none.step({
      name: "plan with no key",
      config: config + environment("second", network()),
      command: "plan",
      expectError:
        /Could not plan chainform_environment: authentication failed \(401\)[\s\S]*No credentials are configured\. Set access_key in the provider block or CHAINFORM_ACCESS_KEY/,
      check(_ctx, result) {
        expect((result.stdout + result.stderr).match(/authentication failed/g)).toHaveLength(1);
      },
    });
    // A provider whose key is not known at plan (it comes from a resource) is not checked against the service.
    const unknownKey = await suite.workspace(noKey);
    await unknownKey.step({
      name: "plan with a key known only after apply",
      config: `${PROVIDER_BLOCK}
resource "terraform_data" "key" {
  input = "${suite.service.accessKey}"
}
provider "chainform" {
  access_key = terraform_data.key.output
}
${environment("env", network())}
`,
      command: "plan",
    });
    expect(await suite.client.listEnvironments()).toEqual([]);
  }, 90_000);

  test("Ctrl-C during apply leaves no environment unknown to state", async () => {
    // GIVEN a proxy in front of the service that holds each create for a while, so one is surely in flight when
    // the user presses Ctrl-C (Terraform halts a create it has announced but not yet sent: "execution halted")
    let createArrived: () => void = () => {};
    const firstCreate = new Promise<void>((resolve) => (createArrived = resolve));
    const isCreate = (r: { method: string; url: string }) => r.method === "POST" && /\/environments$/.test(r.url);
    const proxy = await startFaultProxy(suite.service.baseUrl, { onRequest: (r) => isCreate(r) && createArrived() });
    try {
      for (let i = 0; i < 4; i++) proxy.inject({ delayMs: 3_000 }, isCreate);
      const run = await suite.workspace(providerEnv(suite.service, { CHAINFORM_BASE_URL: proxy.baseUrl }));
      run.tf.write(
        "main.tf",
        `${PROVIDER_BLOCK}
provider "chainform" {}

resource "chainform_environment" "many" {
  count        = 4
  display_name = "interrupted \${count.index}"
  network_config {
    network_id = "1"
  }
  network_config {
    network_id = "8453"
  }
}
`,
      );
      await run.tf.expect(["init", "-input=false"]);
      // WHEN terraform gets SIGINT (Ctrl-C) while the first create is on its way to the service
      const child = spawn(terraformBinary, ["apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=2"], {
        cwd: run.tf.dir,
        env: run.env,
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      await Promise.race([firstCreate, exited]);
      child.kill("SIGINT");
      const code = await exited;
      // THEN terraform stops early...
      expect(output).toMatch(/Interrupt received/);
      expect(code).not.toBe(0);
      // ...and every environment the service has is in state: the creates in flight (at most -parallelism of them)
      // finished and were saved, and none started after the interrupt.
      const inState = (await run.state()).map((r) => r.values.id as string).sort();
      const remote = (await suite.client.listEnvironments({ perPage: 100 }))
        .filter((e) => e.slug.startsWith("interrupted-"))
        .map((e) => e.id)
        .sort();
      if (remote.length === 0 || remote.length > 2) console.error(`terraform apply, interrupted during a create, printed:\n${output}`);
      expect(remote.length).toBeGreaterThan(0);
      expect(remote.length).toBeLessThanOrEqual(2);
      expect(inState).toEqual(remote);
      // AND a second apply creates the rest, then destroy removes everything.
      await run.tf.expect(["apply", "-auto-approve", "-input=false"]);
      expect((await suite.client.listEnvironments({ perPage: 100 })).filter((e) => e.slug.startsWith("interrupted-"))).toHaveLength(4);
      await run.tf.expect(["destroy", "-auto-approve", "-input=false"]);
      expect((await suite.client.listEnvironments({ perPage: 100 })).filter((e) => e.slug.startsWith("interrupted-"))).toHaveLength(0);
    } finally {
      await proxy.close();
    }
  }, 90_000);
});
