/**
 * `npm run bench -- fixtures`: environments as fixtures (docs/fixtures.md), against the local service on real anvil
 * chains, for two sizes: 1 network with 1 contract, and 3 networks with 200 contracts between them (BENCH_CONTRACTS
 * changes the count). For each size:
 *
 * - export: `GET .../export` of the environment, its chains running (median of BENCH_REPEAT, default 5), and the
 *   file's size;
 * - import: `POST .../import` into a second service (median), and import until every network has answered a call (its
 *   chain started from the imported state: what a CI job waits for);
 * - clone: `POST .../clone` in place (median), and clone until every network has answered;
 * - beside them, the way there without fixtures: `terraform apply` of a `chainform_environment` with the same
 *   networks and one `chainform_contract` per contract (the provider as Terraform runs it; once, since it is slow:
 *   BENCH_TF_CONTRACTS caps its contract count, and the figure then says how many it deployed).
 *
 * The last line is one JSON object with the figures and the ratios (apply time over import-ready time).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROVIDER_ADDRESS, mirrorLayout, terraformCliConfigPath } from "../lib/terraform/mirror";
import { PROVIDER_BLOCK, providerEnv } from "../test/helpers/acceptance";
import { DEPLOYER, ENVIRONMENTS, createEnvironment, exportFixture, importFixture, storeContract } from "../test/helpers/fixtures";
import { adminRpc, call } from "../test/helpers/http";
import { startTestService, type TestService } from "../test/helpers/service";
import { TerraformWorkspace } from "../test/helpers/terraform";
import { median } from "./support/stats";

const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const LARGE_CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 200);
const TF_CONTRACTS = process.env.BENCH_TF_CONTRACTS === undefined ? undefined : Number(process.env.BENCH_TF_CONTRACTS);
const SIZES = [
  { name: "1net1contract", networks: ["1"], contracts: 1 },
  { name: `3net${LARGE_CONTRACTS}contracts`, networks: ["1", "10", "8453"], contracts: LARGE_CONTRACTS },
] as const;
/** The Store contract's ABI (test/helpers/fixtures.ts), for the provider's chainform_contract. */
const STORE_ABI = JSON.stringify([
  { type: "function", name: "set", stateMutability: "nonpayable", inputs: [{ name: "v", type: "uint256" }], outputs: [] },
  { type: "function", name: "value", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "uint256" }] },
  { type: "function", name: "calls", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "uint256" }] },
]);

const round = (ms: number) => Math.round(ms * 10) / 10;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** One JSON-RPC batch through an Admin RPC URL; throws on any error answer. */
async function batch(url: string, calls: readonly { method: string; params: unknown[] }[]): Promise<unknown[]> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: "2.0", id, ...c }))),
  });
  const answers = (await response.json()) as { id: number; result?: unknown; error?: { message: string } }[];
  const failed = answers.find((a) => a.error);
  if (failed) throw new Error(failed.error!.message);
  return answers.sort((a, b) => a.id - b.id).map((a) => a.result);
}

/**
 * Deploys `count` Store contracts spread over the environment's networks, in one batch per network, each transaction
 * with its nonce (anvil may take a batch's calls in parallel, and two without a nonce could get the same one).
 */
async function deploy(environment: Awaited<ReturnType<typeof createEnvironment>>, networks: number, count: number): Promise<void> {
  const { bytecode } = storeContract();
  await Promise.all(
    Array.from({ length: networks }, async (_, index) => {
      const mine = Math.floor(count / networks) + (index < count % networks ? 1 : 0);
      if (mine === 0) return;
      const url = adminRpc(environment, index);
      const [nonce] = (await batch(url, [{ method: "eth_getTransactionCount", params: [DEPLOYER, "pending"] }])) as string[];
      const calls = Array.from({ length: mine }, (_, i) => ({
        method: "eth_sendTransaction",
        params: [{ from: DEPLOYER, data: bytecode, gas: "0x1e8480", nonce: `0x${(BigInt(nonce) + BigInt(i)).toString(16)}` }],
      }));
      await batch(url, calls);
    }),
  );
}

/** Until every network of an environment has answered a call (its chain started). */
async function ready(environment: {
  active_instance: { vnets: readonly { rpcs: readonly { name: string; url: string }[] }[] };
}): Promise<void> {
  await Promise.all(
    environment.active_instance.vnets.map((vnet) =>
      batch(vnet.rpcs.find((r) => r.name === "Admin RPC")!.url, [{ method: "eth_blockNumber", params: [] }]),
    ),
  );
}

async function terraformApply(
  service: TestService,
  networks: readonly string[],
  contracts: number,
): Promise<{ ms: number; contracts: number }> {
  const count = TF_CONTRACTS === undefined ? contracts : Math.min(contracts, TF_CONTRACTS);
  const tf = TerraformWorkspace.create({
    filesystemMirror: { path: mirrorLayout().mirrorDir, include: [PROVIDER_ADDRESS] },
    env: { ...providerEnv(service), XDG_CACHE_HOME: join(tmpdir(), "chainform-bench-fixtures-cache") },
  });
  try {
    tf.write(
      "main.tf",
      `${PROVIDER_BLOCK}
resource "chainform_environment" "e" {
  display_name = "bench terraform ${networks.length}x${count}"
${networks.map((n) => `  network_config {\n    network_id = "${n}"\n  }`).join("\n")}
}
resource "chainform_contract" "c" {
  count          = ${count}
  environment_id = chainform_environment.e.id
  vnet_id        = chainform_environment.e.vnets[count.index % ${networks.length}].id
  bytecode       = "${storeContract().bytecode}"
  abi            = ${JSON.stringify(STORE_ABI)}
}
`,
    );
    await tf.expect(["init", "-input=false"]);
    const applied = await tf.expect(["apply", "-auto-approve", "-input=false", "-parallelism=10"]);
    await tf.expect(["destroy", "-auto-approve", "-input=false"]);
    return { ms: applied.ms, contracts: count };
  } finally {
    tf.dispose();
  }
}

async function main(): Promise<void> {
  terraformCliConfigPath(); // fails clearly when the provider is not built
  const root = mkdtempSync(join(tmpdir(), "chainform-bench-fixtures-"));
  const [source, target] = await Promise.all([
    startTestService({ dataDir: join(root, "source") }),
    startTestService({ dataDir: join(root, "target") }),
  ]);
  const figures: Record<string, unknown> = { repeat: REPEAT };
  try {
    for (const size of SIZES) {
      const environment = await createEnvironment(
        source,
        `bench ${size.name}`,
        size.networks.map((network_id) => ({ network_id })),
      );
      const built = await timed(() => deploy(environment, size.networks.length, size.contracts));
      const exports: number[] = [];
      let file: Buffer = Buffer.alloc(0);
      for (let i = 0; i < REPEAT; i++) {
        const run = await timed(() => exportFixture(source, environment.id));
        exports.push(run.ms);
        file = run.value;
      }
      const imports: number[] = [];
      const importsReady: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const started = performance.now();
        const imported = await importFixture(target, file, { slug: `${size.name.toLowerCase()}-${i}` });
        if (imported.status !== 201) throw new Error(`import: ${JSON.stringify(imported.body)}`);
        imports.push(performance.now() - started);
        await ready(imported.body);
        importsReady.push(performance.now() - started);
      }
      const clones: number[] = [];
      const clonesReady: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const started = performance.now();
        const cloned = await call(source, "POST", `${ENVIRONMENTS}/${environment.id}/clone`, {
          as: "alice",
          body: { display_name: `clone ${size.name} ${i}` },
        });
        if (cloned.status !== 201) throw new Error(`clone: ${cloned.text}`);
        clones.push(performance.now() - started);
        await ready(cloned.body);
        clonesReady.push(performance.now() - started);
      }
      const terraform = await terraformApply(source, size.networks, size.contracts);
      const entry = {
        networks: size.networks.length,
        contracts: size.contracts,
        deployByRpcMs: round(built.ms),
        exportMs: round(median(exports)),
        fileBytes: file.length,
        importMs: round(median(imports)),
        importReadyMs: round(median(importsReady)),
        cloneMs: round(median(clones)),
        cloneReadyMs: round(median(clonesReady)),
        terraformApplyMs: round(terraform.ms),
        terraformContracts: terraform.contracts,
        applyOverImportReady: Math.round((terraform.ms / median(importsReady)) * 10) / 10,
      };
      figures[size.name] = entry;
      console.log(`${size.name}: ${JSON.stringify(entry)}`);
    }
  } finally {
    await Promise.all([source.close(), target.close()]);
    rmSync(root, { recursive: true, force: true });
  }
  console.log(JSON.stringify(figures));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
