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
const seen: ProxyLogEntry[] = [];

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
  for await (const environment of direct.iterateEnvironments()) if (environment.display_name.startsWith(prefix)) names.push(environment.display_name);
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

describe("terraform through a quarter of requests faulted, with the CPU loaded", () => {
  test.each(SEEDS)(
    "seed %i: apply, a refresh plan and destroy of 6 environments converge",
    async (seed) => {
      const prefix = `faults-${seed}-`;
      const proxy = await startFaultProxy(service.baseUrl, { random: { rate: 0.25, seed } });
      const run = await acceptance({ env: providerEnv(service, { CHAINFORM_BASE_URL: proxy.baseUrl }) });
      try {
        await run.steps([
          { name: "apply", config: configuration(prefix), command: "apply", args: ["-parallelism=6"] },
          { name: "refresh plan is empty", command: "plan", expectNoChanges: true },
        ]);
        // Exactly the configured environments: no create was repeated after an ambiguous failure.
        expect(await displayNamesStartingWith(prefix)).toEqual(Array.from({ length: ENVIRONMENTS }, (_, i) => `${prefix}${i}`));
        await run.step({ name: "destroy", command: "destroy", args: ["-parallelism=6"] });
        expect(await displayNamesStartingWith(prefix)).toEqual([]);
        expect(proxy.log.filter((entry) => entry.fault !== "pass").length).toBeGreaterThan(0);
        seen.push(...proxy.log);
      } finally {
        run.dispose();
        await proxy.close();
      }
    },
    150_000,
  );

  test("every kind of transient fault was injected, into creates, reads and deletes", () => {
    const faulted = seen.filter((entry) => entry.fault !== "pass");
    expect(new Set(faulted.map((entry) => entry.fault))).toEqual(new Set(TRANSIENT_FAULTS));
    expect(new Set(faulted.map((entry) => entry.method))).toEqual(new Set(["POST", "GET", "DELETE"]));
    // About a quarter of all requests, as configured.
    expect(faulted.length / seen.length).toBeGreaterThan(0.1);
  });
});
