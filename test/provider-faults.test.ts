/**
 * Terraform through transient faults on a busy machine (issue 17): a proxy of our own (test/helpers/fault-proxy.ts)
 * answers a quarter of the provider's requests with a fault (503; 429 with the reset a second ahead; the connection
 * closed before forwarding; the connection closed after the service acted), drawn from a seed, while a child
 * process spins on a CPU. `terraform apply` of 6 environments, a refresh plan and `terraform destroy` must converge
 * for every seed: no transient fault may surface, no environment may be created twice or left behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { PROVIDER_BLOCK, acceptance, providerEnv } from "./helpers/acceptance";
import { TRANSIENT_FAULTS, startFaultProxy, type ProxyLogEntry } from "./helpers/fault-proxy";
import { clientFor, startTestService, type TestService } from "./helpers/service";
import type { Client } from "../lib/client";

const SEEDS = [17, 8, 2026];
const ENVIRONMENTS = 6;

let service: TestService;
let direct: Client;
let busy: ChildProcess;

beforeAll(async () => {
  service = await startTestService();
  direct = clientFor(service);
  // Another process loading a CPU for the whole suite: timers fire late, answers come slowly.
  busy = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
});

afterAll(async () => {
  if (busy.exitCode === null) {
    busy.kill("SIGKILL");
    await once(busy, "exit");
  }
  await direct.close();
  await service.close();
});

async function displayNamesStartingWith(prefix: string): Promise<string[]> {
  const names: string[] = [];
  for await (const environment of direct.iterateEnvironments())
    if (environment.display_name.startsWith(prefix)) names.push(environment.display_name);
  return names.sort();
}

const configuration = (prefix: string) =>
  PROVIDER_BLOCK +
  Array.from(
    { length: ENVIRONMENTS },
    (_, i) => `
resource "chainform_environment" "e${i}" {
  display_name = "${prefix}${i}"
  network_config { network_id = "1" }
}`,
  ).join("\n");

/** One seed's run: apply, a refresh plan, destroy, each checked against the service itself. Returns the proxy's log. */
async function converges(seed: number): Promise<ProxyLogEntry[]> {
  const prefix = `faults-${seed}-`;
  const proxy = await startFaultProxy(service.baseUrl, { random: { rate: 0.25, seed } });
  const run = await acceptance({ env: providerEnv(service, { CHAINFORM_BASE_URL: proxy.baseUrl }) });
  try {
    await run.steps([
      { name: `seed ${seed}: apply`, config: configuration(prefix), command: "apply" },
      { name: `seed ${seed}: refresh plan is empty`, command: "plan", expectNoChanges: true },
    ]);
    // Exactly the configured environments: no create was repeated after an ambiguous failure.
    expect(await displayNamesStartingWith(prefix)).toEqual(Array.from({ length: ENVIRONMENTS }, (_, i) => `${prefix}${i}`));
    await run.step({ name: `seed ${seed}: destroy`, command: "destroy" });
    expect(await displayNamesStartingWith(prefix)).toEqual([]);
    return proxy.log;
  } finally {
    run.dispose();
    await proxy.close();
  }
}

test(`terraform apply, a refresh plan and destroy of ${ENVIRONMENTS} environments converge through a quarter of requests faulted, with the CPU loaded (seeds ${SEEDS.join(", ")})`, async () => {
  // The seeds run side by side: three terraform runs are load of their own, and the suite stays under two minutes.
  const outcomes = await Promise.allSettled(SEEDS.map(converges));
  const failures = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [String((outcome.reason as Error).message)] : []));
  expect(failures).toEqual([]);

  const seen = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? outcome.value : []));
  const faulted = seen.filter((entry) => entry.fault !== "pass");
  // Every kind of transient fault was injected, into creates, reads and deletes, in about a quarter of requests.
  expect(new Set(faulted.map((entry) => entry.fault))).toEqual(new Set(TRANSIENT_FAULTS));
  expect(new Set(faulted.map((entry) => entry.method))).toEqual(new Set(["POST", "GET", "DELETE"]));
  expect(faulted.length / seen.length).toBeGreaterThan(0.1);
}, 150_000);

test("a request that really ran out of retries says how many attempts it made over how long", async () => {
  const proxy = await startFaultProxy(service.baseUrl);
  for (let i = 0; i < 3; i++) proxy.inject("503", (request) => request.url.endsWith("/projects"));
  const run = await acceptance({ env: providerEnv(service, { CHAINFORM_BASE_URL: proxy.baseUrl }) });
  try {
    await run.step({
      name: "plan through three 503s with two retries allowed",
      config: `${PROVIDER_BLOCK}
provider "chainform" { max_retries = 2 }
data "chainform_projects" "all" {}
`,
      command: "plan",
      expectError: /the service answered 503 service_unavailable.*The provider gave up after 3 attempts over \d+(\.\d)? s\./s,
    });
  } finally {
    run.dispose();
    await proxy.close();
  }
}, 60_000);
