import { existsSync } from "node:fs";
import { Agent, request } from "undici";
import { startTestService } from "../../test/helpers/service";
import { NoChainEngine } from "./no-chain-engine";

test("--tls serves HTTPS on a localhost base URL with a self-signed certificate", async () => {
  const service = await startTestService({ tls: true, createChainEngine: () => new NoChainEngine() });
  const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
  try {
    expect(service.baseUrl).toMatch(/^https:\/\/localhost:\d+$/);
    const answer = await request(`${service.baseUrl}/v1/account/acme/projects`, {
      headers: { "x-access-key": service.keys.alice },
      dispatcher,
    });
    expect(answer.statusCode).toBe(200);
    expect(((await answer.body.json()) as { projects: unknown[] }).projects).toHaveLength(2);
    await expect(fetch(`${service.baseUrl}/v1/supported-networks`)).rejects.toThrow(); // untrusted certificate
  } finally {
    await dispatcher.close();
    await service.close();
  }
  // In memory, the certificate clients trust lived in a temporary directory, removed with the service.
  expect(existsSync(service.caFile!)).toBe(false);
});

test("the ready info: default project, the first user's key, a key per seeded user, tokens", async () => {
  const service = await startTestService({ accessKey: "cf_test_fixed", createChainEngine: () => new NoChainEngine() });
  try {
    expect(service).toMatchObject({ accountSlug: "acme", projectSlug: "demo", accessKey: "cf_test_fixed" });
    expect(Object.keys(service.keys)).toEqual(["alice", "bob", "carol", "outsider"]);
    expect(service.keys.alice).toBe("cf_test_fixed");
    expect(new Set(Object.values(service.keys)).size).toBe(4);
    expect(() => service.token("acme")).toThrow(/no seeded user/);
  } finally {
    await service.close();
  }
});
