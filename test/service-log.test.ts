/**
 * The log of `chainform serve` (a real process, `--log-file`): JSON lines, one per request, every 5xx with the
 * error id its answer carries, and no secret in it whatever the requests carried: access keys (header, Basic, in a
 * URL), bearer tokens, Admin RPC URL secrets, dashboard sign-in tokens.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_BIN, cleanEnv } from "./helpers/cli";
import { api, environmentsPath, killAllServed, rpc, startServe, stopServe } from "./service-process";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "chainform-log-"));
});
afterAll(() => {
  killAllServed();
  rmSync(root, { recursive: true, force: true });
});

test("every request is logged as JSON, each 5xx with its error id, and no secret reaches the log", async () => {
  const dataDir = join(root, "data");
  const logFile = join(root, "service.log");
  // A chain engine that cannot start chains (no anvil there): chain calls answer 503.
  const served = startServe(["--data-dir", dataDir, "--log-file", logFile], { CHAINFORM_ANVIL: join(root, "no-anvil") });
  const ready = await served.ready;
  try {
    const bearer = execFileSync(process.execPath, [CLI_BIN, "token", "--data-dir", dataDir], { env: cleanEnv() }).toString().trim();
    const basic = `Basic ${Buffer.from(`${ready.accessKey}:`).toString("base64")}`;
    const environment = (
      await api(ready, "POST", environmentsPath(ready), { display_name: "logged", network_configs: [{ network_id: "1" }] })
    ).body;
    const adminUrl: string = environment.active_instance.vnets[0].rpcs.find((r: { name: string }) => r.name === "Admin RPC").url;
    const adminSecret = adminUrl.split("/rpc/admin/")[1];
    // requests carrying every kind of secret, in headers and URLs
    for (const authorization of [`Bearer ${bearer}`, basic]) {
      expect((await fetch(`${ready.baseUrl}${environmentsPath(ready)}`, { headers: { authorization } })).status).toBe(200);
    }
    await fetch(`${ready.baseUrl}/v1/supported-networks?access_key=${ready.accessKey}&token=${bearer}`);
    await fetch(`${ready.baseUrl}/rpc/admin/${adminSecret}/nothing-here`);
    await fetch(ready.dashboardUrl, { redirect: "manual" });
    expect((await rpc(adminUrl, "eth_chainId")).error?.code).toBe(-32000);
    // a 5xx: sending a transaction on a chain that cannot start
    const failed = await api(
      ready,
      "POST",
      `${environmentsPath(ready)}/${environment.id}/instance/${environment.active_instance.id}/vnet/${environment.active_instance.vnets[0].id}/transactions`,
      {
        callArgs: { from: "0x00000000000000000000000000000000000c0ffe", to: "0x00000000000000000000000000000000000c0ffe" },
      },
    );
    expect(failed.status).toBeGreaterThanOrEqual(500);
    const errorId: string = failed.body.error.id;
    await stopServe(served);

    const text = readFileSync(logFile, "utf8");
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, any>);
    // one "incoming request" line per request at least
    expect(lines.filter((line) => line.msg === "incoming request").length).toBeGreaterThanOrEqual(7);
    const failure = lines.find((line) => line.errorId === errorId);
    expect(failure).toMatchObject({ level: 50, status: failed.status, msg: "request failed" });
    for (const [name, secret] of Object.entries({
      accessKey: ready.accessKey,
      bearer,
      basic: basic.slice("Basic ".length),
      adminSecret,
      loginToken: new URL(ready.dashboardUrl).searchParams.get("token")!,
    })) {
      expect([name, text.includes(secret)]).toEqual([name, false]);
    }
    expect(text).toContain("/rpc/admin/[redacted]");
  } finally {
    await stopServe(served);
  }
});

test.each([
  ["info", "not lines of the log (they take the fast path)", false],
  ["debug", "lines of the log (every request is)", true],
])("at --log-level %s, RPC calls are %s", async (level, _what, logged) => {
  const dataDir = join(root, `data-${level}`);
  const logFile = join(root, `service-${level}.log`);
  const served = startServe(["--data-dir", dataDir, "--log-file", logFile, "--log-level", level], {
    CHAINFORM_ANVIL: join(root, "no-anvil"),
  });
  const ready = await served.ready;
  try {
    const environment = (
      await api(ready, "POST", environmentsPath(ready), { display_name: `rpc ${level}`, network_configs: [{ network_id: "1" }] })
    ).body;
    const publicUrl: string = environment.active_instance.vnets[0].rpcs.find((r: { name: string }) => r.name === "Public RPC").url;
    // GIVEN a Public RPC call answered (the chain cannot start here: a JSON-RPC error, as on either path)
    expect((await rpc(publicUrl, "eth_chainId")).error?.code).toBe(-32000);
    await stopServe(served);
    // THEN the log has a line for it only where every request is logged
    const lines = readFileSync(logFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string } });
    const rpcLines = lines.filter((line) => line.msg === "incoming request" && line.req?.url?.startsWith("/rpc/public/"));
    expect(rpcLines.length > 0).toBe(logged);
    expect(lines.some((line) => line.msg === "incoming request" && line.req?.url?.includes("/environments"))).toBe(true);
  } finally {
    await stopServe(served);
  }
});
