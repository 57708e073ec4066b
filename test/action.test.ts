/**
 * The GitHub Action (action.yml, action/) run as GitHub's runner runs a node action: its main step with inputs and
 * fresh GITHUB_OUTPUT/GITHUB_ENV/GITHUB_STATE files, later "test" steps with the variables it exported, and its
 * post step with the saved state, against the local service (started by the action itself, or one given as
 * base-url). Foundry (`forge`, `cast`) reads the foundry output; a Hardhat-style config loads the hardhat output.
 */
import { execFile } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createClient, type Client } from "../lib/client";
import { actionMetadata, alive, expectSucceeded, RunnerJob, type RunningStep, type StepResult } from "./helpers/actions-runner";
import { assertCliBuilt } from "./helpers/cli";
import { forgeProject } from "./helpers/forge";
import { clientFor, startTestService, type TestService } from "./helpers/service";

const run = promisify(execFile);
const CAST = join(__dirname, "..", "node_modules", ".bin", "cast");
const DEPLOYER = "0x1111111111111111111111111111111111111111";

/** eth_chainId of an RPC URL, as a number. */
async function chainIdAt(url: string): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
  });
  return Number(((await response.json()) as { result: string }).result);
}

/** Waits until the proxy holds its request; fails if the step ends first. */
async function heldBeforeTheEnd(proxy: { held: Promise<void> }, step: RunningStep): Promise<void> {
  await Promise.race([proxy.held, step.done.then((r) => Promise.reject(new Error(`the step ended first:\n${r.stdout}\n${r.stderr}`)))]);
}

/** Cancels a step as GitHub's runner does: SIGINT, then SIGTERM if the step is still there 7.5 s later. */
async function cancelAsTheRunnerDoes(step: RunningStep): Promise<StepResult> {
  step.child.kill("SIGINT");
  const escalate = setTimeout(() => step.child.kill("SIGTERM"), 7_500);
  try {
    return await step.done;
  } finally {
    clearTimeout(escalate);
  }
}

/** Slugs of the project's environments that start with `prefix`. */
async function slugsWithPrefix(client: Client, prefix: string): Promise<string[]> {
  const slugs: string[] = [];
  for await (const environment of client.iterateEnvironments()) if (environment.slug.startsWith(prefix)) slugs.push(environment.slug);
  return slugs;
}

/**
 * An HTTP proxy to `upstream` that forwards every request, but holds the answer to the first request `hold`
 * matches: the service has acted, its client waits. `held` resolves once it holds one. With `rewrite`, the
 * upstream's origin in answers becomes the proxy's, so that the RPC URLs of environments lead through it too.
 */
async function holdingProxy(
  upstream: string,
  hold: (method: string, url: string) => boolean,
  rewrite = false,
): Promise<{ baseUrl: string; held: Promise<void>; close(): Promise<void> }> {
  const target = new URL(upstream);
  let holding = false;
  let onHeld!: () => void;
  const held = new Promise<void>((resolve) => (onHeld = resolve));
  let baseUrl = "";
  const server = createServer((req, res) => {
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        if (!holding && hold(req.method ?? "", req.url ?? "")) {
          holding = true;
          answer.resume();
          onHeld();
          return; // never answered: the connection closes with the proxy
        }
        if (!rewrite) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const body = Buffer.from(Buffer.concat(chunks).toString("utf8").split(target.origin).join(baseUrl));
          const headers = { ...answer.headers, "content-length": String(body.length) };
          delete headers["transfer-encoding"];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    held,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every secret of a step's outputs is masked, and appears in its log only in its ::add-mask:: line. */
function expectMasked(result: StepResult, secrets: readonly string[]): void {
  expect(secrets.length).toBeGreaterThan(0);
  for (const secret of secrets) {
    expect(result.masks).toContain(secret);
    const lines = result.stdout.split("\n").filter((line) => line.includes(secret));
    expect(lines).toContain(`::add-mask::${secret}`);
    expect(lines.filter((line) => !line.startsWith("::add-mask::"))).toEqual([]);
    expect(result.stderr).not.toContain(secret);
  }
}

describe("action.yml", () => {
  it("is a node24 action whose main and post are plain JavaScript, the post step running always", () => {
    const metadata = actionMetadata();
    expect(metadata.runs).toEqual({ using: "node24", main: "action/main.js", post: "action/post.js", "post-if": "always()" });
  });

  it("declares the outputs of every well-known network", () => {
    const { Network } = require("../lib/constructs/network") as typeof import("../lib/constructs/network");
    const outputs = Object.keys(actionMetadata().outputs);
    for (const name of Object.keys(Network.all()).map((n) => n.toLowerCase())) {
      for (const suffix of ["rpc_url", "chain_id", "network_id", "environment_id", "admin_rpc_url"])
        expect(outputs).toContain(`${name}_${suffix}`);
    }
  });
});

describe("the inline inputs", () => {
  const { inlineConfig, checkSlugPrefix } = require("../action/inline-app") as {
    inlineConfig(inputs: Record<string, string>): { resource: { chainform_environment: { this: Record<string, unknown> } } };
    checkSlugPrefix(prefix: string): string;
  };
  const base = {
    networks: "1, 8453",
    chainIdPrefix: "",
    blockNumber: "latest",
    accounts: "",
    bridge: "none",
    slugPrefix: "gh-1-1-abc-",
    displayName: "run",
  };

  it("become one environment with the run's slug prefix", () => {
    const config = inlineConfig({
      ...base,
      chainIdPrefix: "7357",
      blockNumber: "21000000",
      accounts: `${DEPLOYER}=5ether\n0x2222222222222222222222222222222222222222`,
      bridge: "delayed:30",
    });
    expect(config.resource.chainform_environment.this).toEqual({
      display_name: "run",
      slug_prefix: "gh-1-1-abc-",
      network_config: ["1", "8453"].map((id) => ({
        network_id: id,
        chain_id: `7357${id}`,
        block_number: "0x1406f40",
        account: [
          { address: DEPLOYER, balance: "5ether" },
          { address: "0x2222222222222222222222222222222222222222", balance: "100ether" },
        ],
      })),
      bridge: [{ enabled: true, relay_mode: "delayedRelay", delay_seconds: 30 }],
    });
  });

  it.each([
    [{ networks: "" }, /^input networks is empty: list the network ids/],
    [{ networks: "mainnet" }, /^input networks holds "mainnet", which is not a network id/],
    [{ networks: "1,1" }, /^input networks names network 1 twice/],
    [{ chainIdPrefix: "0x1" }, /^input chain-id-prefix must be decimal digits/],
    [{ blockNumber: "yesterday" }, /^input block-number must be latest, a decimal number or 0x-hex/],
    [{ accounts: "0x1234=1ether" }, /^input accounts holds "0x1234=1ether": write ADDRESS or ADDRESS=BALANCE/],
    [{ bridge: "slow" }, /^input bridge must be none, auto or delayed:SECONDS/],
  ])("reject %j naming the input", (change, message) => {
    expect(() => inlineConfig({ ...base, ...change })).toThrow(message);
  });

  it("node-version: empty runs chainform with the action's own Node; a version the node on PATH lacks is an error saying what to add", () => {
    const { nodeFor } = require("../action/chainform") as { nodeFor(wanted: string): string };
    expect(nodeFor("")).toBe(process.execPath);
    expect(() => nodeFor("19")).toThrow(
      /^input node-version asks for Node 19, but the node on PATH is v\d+\.\d+\.\d+: add actions\/setup-node with node-version: 19 before this step/,
    );
  });

  it("reject a slug prefix that is not one", () => {
    expect(() => checkSlugPrefix("PR_42")).toThrow(/^input slug-prefix must be lowercase letters and digits/);
  });
});

describe("where the action gets chainform", () => {
  const { locateChainform, ACTION_ROOT } = require("../action/chainform") as {
    locateChainform(options: { searchFrom: string[] }): { bin: string; source: string };
    ACTION_ROOT: string;
  };
  const version = (require("../package.json") as { version: string }).version;

  /** A workspace with a built chainform of this version in node_modules. */
  function workspaceWith(installed: string): string {
    const dir = mkdtempSync(join(tmpdir(), "chainform-workspace-"));
    const root = join(dir, "node_modules", "chainform");
    mkdirSync(join(root, "dist", "cli"), { recursive: true });
    mkdirSync(join(root, "bin"));
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "chainform", version: installed }));
    writeFileSync(join(root, "dist", "cli", "index.js"), "");
    writeFileSync(join(root, "bin", "chainform"), "");
    return dir;
  }

  it("the workspace's own chainform of the action's version first, else the action's own build", () => {
    const same = workspaceWith(version);
    const older = workspaceWith("0.0.1");
    try {
      expect(locateChainform({ searchFrom: [same] })).toEqual({
        bin: join(same, "node_modules", "chainform", "bin", "chainform"),
        source: `the workspace's own chainform ${version} (${join(same, "node_modules", "chainform")})`,
      });
      expect(locateChainform({ searchFrom: [older] })).toEqual({
        bin: join(ACTION_ROOT, "bin", "chainform"),
        source: `the action's own build (${ACTION_ROOT})`,
      });
    } finally {
      rmSync(same, { recursive: true, force: true });
      rmSync(older, { recursive: true, force: true });
    }
  });
});

describe("the action with the local service it starts itself", () => {
  let job: RunnerJob;
  let main: StepResult;
  const inputs = { networks: "1, 8453", "chain-id-prefix": "7357", accounts: `${DEPLOYER}=50ether`, bridge: "delayed:30" };

  beforeAll(async () => {
    assertCliBuilt();
    job = new RunnerJob();
    main = await job.main(inputs).done;
  }, 240_000);
  afterAll(async () => {
    // Never leave a service behind, whatever failed above.
    const pid = Number(main?.state.service_pid ?? 0);
    if (pid && alive(pid)) process.kill(pid, "SIGKILL");
    rmSync(job.dir, { recursive: true, force: true });
  });

  it("deploys, and writes each network's outputs and variables", async () => {
    expectSucceeded(main);
    // The repository is built, so the action runs its own build (docs/github-actions.md: how it gets chainform).
    expect(main.stdout).toContain(`chainform: the action's own build (${join(__dirname, "..")})`);
    const { outputs } = main;
    expect(outputs.mainnet_chain_id).toBe("73571");
    expect(outputs.base_chain_id).toBe("73578453");
    expect(outputs.mainnet_network_id).toBe("1");
    expect(outputs.mainnet_environment_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(outputs.base_environment_id).toBe(outputs.mainnet_environment_id);
    expect(outputs["slug-prefix"]).toMatch(/^gh-4242-1-[0-9a-f]{6}-$/);
    expect(JSON.parse(outputs.networks)).toEqual({
      mainnet: {
        network_id: "1",
        chain_id: 73571,
        rpc_url: outputs.mainnet_rpc_url,
        environment_id: outputs.mainnet_environment_id,
        environment_slug: expect.stringMatching(/^gh-4242-1-/),
      },
      base: {
        network_id: "8453",
        chain_id: 73578453,
        rpc_url: outputs.base_rpc_url,
        environment_id: outputs.mainnet_environment_id,
        environment_slug: expect.stringMatching(/^gh-4242-1-/),
      },
    });
    expect(outputs.eth_rpc_url).toBe(outputs.mainnet_rpc_url);
    expect(await chainIdAt(outputs.mainnet_rpc_url)).toBe(73571);
    expect(await chainIdAt(outputs.base_rpc_url)).toBe(73578453);
    expect(main.env).toMatchObject({
      MAINNET_RPC_URL: outputs.mainnet_rpc_url,
      BASE_CHAIN_ID: "73578453",
      ETH_RPC_URL: outputs.mainnet_rpc_url,
      CHAINFORM_BASE_URL: outputs["base-url"],
    });
  });

  it("masks the Admin RPC URLs and the service's key before they reach an output or a variable", () => {
    const admin = [main.outputs.mainnet_admin_rpc_url, main.outputs.base_admin_rpc_url];
    expect(admin.every((url) => /\/rpc\/admin\//.test(url))).toBe(true);
    expect(main.env.MAINNET_ADMIN_RPC_URL).toBe(admin[0]);
    expectMasked(main, [...admin, main.env.CHAINFORM_ACCESS_KEY]);
    expect(main.outputs.networks + main.outputs.foundry + main.outputs.hardhat).not.toMatch(/\/rpc\/admin\//);
  });

  it("funds the accounts on every network", async () => {
    for (const url of [main.outputs.mainnet_rpc_url, main.outputs.base_rpc_url]) {
      const { stdout } = await run(CAST, ["balance", DEPLOYER, "--rpc-url", url]);
      expect(stdout.trim()).toBe("50000000000000000000");
    }
  });

  it("forge reads the foundry output and cast reaches each network through it", async () => {
    const project = await forgeProject({
      "src/Fork.t.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface Vm { function createSelectFork(string calldata urlOrAlias) external returns (uint256); }
contract ForkTest {
    Vm constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    function test_mainnet() public { vm.createSelectFork("mainnet"); require(block.chainid == 73571, "mainnet chain id"); }
    function test_base() public { vm.createSelectFork("base"); require(block.chainid == 73578453, "base chain id"); }
}
`,
    });
    try {
      // A step of the job: append the output to the project's own foundry.toml, as docs/github-actions.md says.
      appendFileSync(join(project.dir, "foundry.toml"), `\n${main.outputs.foundry}`);
      const config = JSON.parse((await project.forge(["config", "--json"])).stdout) as { rpc_endpoints: Record<string, string> };
      expect(config.rpc_endpoints).toEqual({ mainnet: main.outputs.mainnet_rpc_url, base: main.outputs.base_rpc_url });
      const tested = await project.forge(["test", "--match-path", "src/Fork.t.sol", "--contracts", "src"]);
      expect(tested.stdout).toMatch(/2 tests passed, 0 failed/);
      const env = job.stepEnv();
      for (const [alias, chainId] of [
        ["mainnet", "73571"],
        ["base", "73578453"],
      ]) {
        const { stdout } = await run(CAST, ["chain-id", "--rpc-url", alias], { cwd: project.dir, env });
        expect(stdout.trim()).toBe(chainId);
      }
      // Without --rpc-url, cast uses ETH_RPC_URL, which the action exported: the first network.
      const { stdout } = await run(CAST, ["chain-id"], { cwd: tmpdir(), env });
      expect(stdout.trim()).toBe("73571");
    } finally {
      await project.close();
    }
  }, 180_000);

  it("a Hardhat-style config loads the hardhat output", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chainform-hardhat-"));
    try {
      writeFileSync(join(dir, "chainform-networks.json"), main.outputs.hardhat);
      writeFileSync(
        join(dir, "hardhat.config.js"),
        `// The shape Hardhat reads: networks by name, each { type: "http", url, chainId }.
module.exports = { solidity: "0.8.24", networks: { ...require("./chainform-networks.json") } };
`,
      );
      const config = require(join(dir, "hardhat.config.js")) as {
        networks: Record<string, { type: string; url: string; chainId: number }>;
      };
      expect(Object.keys(config.networks)).toEqual(["mainnet", "base"]);
      for (const network of Object.values(config.networks)) {
        expect(network.type).toBe("http");
        expect(await chainIdAt(network.url)).toBe(network.chainId);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the post step destroys the environment and stops the service", async () => {
    const pid = Number(main.state.service_pid);
    expect(alive(pid)).toBe(true);
    const client = createClient({
      baseUrl: main.state.local_base_url,
      accessKey: main.state.local_access_key,
      accountSlug: main.state.local_account,
      projectSlug: main.state.local_project,
    });
    try {
      expect(await slugsWithPrefix(client, main.outputs["slug-prefix"])).toHaveLength(1);
    } finally {
      await client.close();
    }
    const post = await job.post(inputs, main.state).done;
    expectSucceeded(post);
    expect(post.stderr).toContain("✓ terraform destroy");
    expect(post.stdout).toContain(`Nothing left with slug prefix ${main.outputs["slug-prefix"]}`);
    expect(alive(pid)).toBe(false);
  }, 180_000);
});

describe("the action against a given service", () => {
  let service: TestService;
  let client: Client;
  let job: RunnerJob;
  const serviceInputs = () => ({
    "base-url": service.baseUrl,
    "access-key": service.accessKey,
    account: service.accountSlug,
    project: service.projectSlug,
  });

  beforeAll(async () => {
    assertCliBuilt();
    service = await startTestService();
    client = clientFor(service);
    job = new RunnerJob();
  });
  afterAll(async () => {
    await client?.close();
    await service?.close();
    rmSync(job.dir, { recursive: true, force: true });
  });

  it("after a failed test step, the post step destroys the app; run again, it succeeds with nothing left", async () => {
    // GIVEN an app of the workspace whose slug starts with the prefix given to the action
    const app = join(job.workspace, "infra");
    mkdirSync(app);
    writeFileSync(
      join(app, "main.tf"),
      `terraform {
  required_providers {
    chainform = { source = "chainform/chainform" }
  }
}
variable "slug_prefix" { type = string }
resource "chainform_environment" "this" {
  display_name = "app"
  slug_prefix  = var.slug_prefix
  network_config { network_id = "10" }
}
output "greeting" { value = "hello" }
output "admin_rpc_urls" {
  value     = chainform_environment.this.admin_rpc_urls
  sensitive = true
}
`,
    );
    const inputs = { ...serviceInputs(), app: "infra", "slug-prefix": "failed-test-" };
    const main = await job.main(inputs, { TF_VAR_slug_prefix: "failed-test-" }).done;
    expectSucceeded(main);
    expect(main.outputs.greeting).toBe("hello");
    expect(await chainIdAt(main.outputs.optimism_rpc_url)).toBe(10);
    // The app's own sensitive map is masked as a whole and in its parts.
    expect(JSON.parse(main.outputs.admin_rpc_urls)).toEqual({ "10": main.outputs.optimism_admin_rpc_url });
    expectMasked(main, [main.outputs.optimism_admin_rpc_url, main.outputs.admin_rpc_urls]);
    // The given key stays in the inputs: it is not exported to later steps.
    expect(main.env.CHAINFORM_ACCESS_KEY).toBeUndefined();
    expect(main.stdout + main.stderr).not.toContain(service.accessKey);
    expect(await slugsWithPrefix(client, "failed-test-")).toHaveLength(1);

    // WHEN a test step fails
    const failed = await run(process.execPath, ["-e", "process.exit(Number(process.env.OPTIMISM_CHAIN_ID) === 11 ? 0 : 1)"], {
      env: job.stepEnv(),
    }).then(
      () => 0,
      (error: { code: number }) => error.code,
    );
    expect(failed).toBe(1);

    // THEN the post step removes the environment
    const post = await job.post(inputs, main.state, { TF_VAR_slug_prefix: "failed-test-" }).done;
    expectSucceeded(post);
    expect(await slugsWithPrefix(client, "failed-test-")).toEqual([]);
    // AND a second post step (the environment already gone) does not fail the job
    const again = await job.post(inputs, main.state, { TF_VAR_slug_prefix: "failed-test-" }).done;
    expectSucceeded(again);
    expect(again.stdout).toContain("Nothing left with slug prefix failed-test-");
  }, 300_000);

  it("after a cancel (SIGINT) once the environment exists, the post step removes it", async () => {
    // GIVEN a proxy that holds the first call to a Public RPC URL: deploy checks the RPC URLs after Terraform applied
    // and recorded the environment, so the step is certainly past the create when it waits there
    const proxy = await holdingProxy(service.baseUrl, (method, url) => method === "POST" && url.startsWith("/rpc/public/"), true);
    try {
      const inputs = { ...serviceInputs(), "base-url": proxy.baseUrl, networks: "1, 10, 8453", "slug-prefix": "cancelled-" };
      const step = job.main(inputs);
      await heldBeforeTheEnd(proxy, step);
      expect(await slugsWithPrefix(client, "cancelled-")).toHaveLength(1);
      // WHEN the run is cancelled
      const main = await cancelAsTheRunnerDoes(step);
      expect(main.code).not.toBe(0);
      expect(main.stdout).toMatch(/^::error::the chainform action was cancelled/m);
      expect(main.state.slug_prefix).toBe("cancelled-");
      // THEN the post step removes the environment
      const post = await job.post(inputs, main.state).done;
      expectSucceeded(post);
      expect(await slugsWithPrefix(client, "cancelled-")).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 300_000);

  it("after a cancel while the service's answer to the create is in flight (so Terraform never recorded it), the post step deletes it by prefix", async () => {
    // GIVEN a proxy in front of the service that holds its answer to the environment's creation
    const proxy = await holdingProxy(service.baseUrl, (method, url) => method === "POST" && /\/environments$/.test(url));
    try {
      const inputs = {
        "base-url": proxy.baseUrl,
        "access-key": service.accessKey,
        account: service.accountSlug,
        project: service.projectSlug,
        networks: "8453",
        "slug-prefix": "in-flight-",
      };
      const step = job.main(inputs);
      await heldBeforeTheEnd(proxy, step);
      expect(await slugsWithPrefix(client, "in-flight-")).toHaveLength(1);
      // WHEN the run is cancelled
      const main = await cancelAsTheRunnerDoes(step);
      expect(main.code).not.toBe(0);
      expect(main.stdout).toMatch(/^::error::the chainform action was cancelled during chainform deploy/m);
      // THEN the post step finds the environment by its prefix and deletes it
      const post = await job.post(inputs, main.state).done;
      expectSucceeded(post);
      expect(post.stdout).toContain("Deleted what was left with slug prefix in-flight-");
      expect(await slugsWithPrefix(client, "in-flight-")).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 300_000);

  it("keep: true leaves the environment in place", async () => {
    const inputs = { ...serviceInputs(), networks: "10", "slug-prefix": "kept-", keep: "true" };
    const main = await job.main(inputs).done;
    expectSucceeded(main);
    const post = await job.post(inputs, main.state).done;
    expectSucceeded(post);
    expect(post.stdout).toContain("keep: true: leaving the environments (slug prefix kept-) in place");
    expect(await slugsWithPrefix(client, "kept-")).toHaveLength(1);
    // A later job (here: the same post step without keep) still finds it by its prefix.
    expect((await job.post({ ...inputs, keep: "false" }, { ...main.state, keep: "false" }).done).code).toBe(0);
    expect(await slugsWithPrefix(client, "kept-")).toEqual([]);
  }, 300_000);

  it("a mistake in the inputs fails the step with the input named, and the post step has nothing to do", async () => {
    const inputs = { ...serviceInputs(), networks: "1", bridge: "sometimes" };
    const main = await job.main(inputs).done;
    expect(main.code).toBe(1);
    expect(main.stdout).toContain('::error::input bridge must be none, auto or delayed:SECONDS (e.g. delayed:30), got "sometimes"');
    const post = await job.post(inputs, main.state).done;
    expectSucceeded(post);
    expect(post.stdout).toContain("chainform never ran in this job: nothing to clean up");
  });
});
