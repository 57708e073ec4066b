import { startFaultProxy, type FaultProxy } from "../../../test/helpers/fault-proxy";
import { clientFor, startTestService, type TestService } from "../../../test/helpers/service";
import { createClient } from "../../client";
import { planLookups } from "./plan-lookups";

describe("planLookups: what concurrent plans of many environments ask the service", () => {
  let service: TestService;
  let proxy: FaultProxy;
  beforeAll(async () => {
    service = await startTestService();
    proxy = await startFaultProxy(service.baseUrl);
  });
  afterAll(async () => {
    await proxy.close();
    await service.close();
  });
  beforeEach(() => (proxy.log.length = 0));
  const client = () => clientFor({ ...service, baseUrl: proxy.baseUrl });

  test("50 concurrent look-ups of networks and slugs make one network call and one listing walk", async () => {
    // GIVEN an environment with a known slug
    const direct = clientFor(service);
    const existing = await direct.createEnvironment({
      display_name: "Shared Lookups",
      slug: "shared-lookups",
      network_configs: [{ network_id: "1" }],
    });
    proxy.log.length = 0;
    // WHEN 50 plans ask at once, as Terraform's concurrent PlanResourceChange calls do
    const lookups = planLookups(client());
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => ({
        networks: await lookups.supportedNetworks(),
        found: await lookups.environmentBySlug(i === 0 ? "shared-lookups" : `free-${i}`),
      })),
    );
    // THEN every answer is right, from two requests in all
    expect(answers[0]!.found?.id).toBe(existing.id);
    expect(answers.slice(1).every((a) => a.found === null)).toBe(true);
    expect(answers.every((a) => a.networks.some((n) => n.chain_id === "1"))).toBe(true);
    expect(proxy.log.map((r) => `${r.method} ${new URL(r.url, "http://x").pathname}`).sort()).toEqual([
      `GET /public/v1/account/${service.accountSlug}/project/${service.projectSlug}/environments`,
      "GET /v1/supported-networks",
    ]);
    await direct.deleteEnvironment({ environmentId: existing.id });
  });

  test("a failed network answer is not kept: the next look-up asks again", async () => {
    // GIVEN a client that does not retry, and a service whose first answer is a 503
    const lookups = planLookups(createClient({ baseUrl: proxy.baseUrl, accessKey: service.accessKey, maxRetries: 0 }));
    proxy.inject("503", (r) => r.url.includes("supported-networks"));
    // WHEN asked twice
    const first = await lookups.supportedNetworks().catch((e: unknown) => e);
    const second = await lookups.supportedNetworks();
    // THEN the first fails and the second asks the service again and succeeds
    expect(first).toMatchObject({ status: 503 });
    expect(second.some((n) => n.chain_id === "1")).toBe(true);
    expect(proxy.log.filter((r) => r.url.includes("supported-networks"))).toHaveLength(2);
  });

  test("credentials: one request for 20 concurrent plans, a rejection reported to one caller only, an unreachable service not a rejection", async () => {
    // GIVEN a wrong key
    const wrong = planLookups(
      createClient({
        baseUrl: proxy.baseUrl,
        accessKey: "cf_wrong",
        accountSlug: service.accountSlug,
        projectSlug: service.projectSlug,
        maxRetries: 0,
      }),
    );
    const reports: number[] = [];
    // WHEN 20 plans ask at once
    const verdicts = await Promise.all(Array.from({ length: 20 }, () => wrong.credentialsAccepted((error) => reports.push(error.status))));
    // THEN all are refused, from one request, and one of them reports the 401
    expect(verdicts.every((v) => v === false)).toBe(true);
    expect(reports).toEqual([401]);
    expect(proxy.log.filter((r) => r.url.includes("/environments"))).toHaveLength(1);
    // AND the right key is accepted
    expect(await planLookups(client()).credentialsAccepted(() => reports.push(0))).toBe(true);
    // AND a service that cannot be reached is no verdict on the key
    const nowhere = planLookups(
      createClient({ baseUrl: "http://127.0.0.1:9", accessKey: "cf_x", accountSlug: "a", projectSlug: "p", maxRetries: 0 }),
    );
    expect(await nowhere.credentialsAccepted(() => reports.push(-1))).toBe(true);
    expect(reports).toEqual([401]);
  });
});
