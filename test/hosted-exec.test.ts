/**
 * `chainform exec` end to end (docs/hosted-clients.md): a Node.js program that knows only the hosted host names, run
 * under exec against the real service and anvil, sends the vnet GitHub Action's exact requests (axios, as its source
 * sends them: create per network, PATCH stopped in the post step) and gets the variables a workflow would get; a Web3
 * Action run by @tenderly/actions-test reads mainnet through its gateway URL; the SDK reads the local error body as
 * its ApiError. Nothing but the hosted names is redirected: a connection elsewhere still goes where it was sent.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runCli } from "./helpers/cli";

const TSX = join(ROOT, "node_modules", ".bin", "tsx");

test("the vnet Action's requests, a gateway read by a Web3 Action and the SDK's errors work unchanged under exec", async () => {
  const result = await runCli(["exec", "--", TSX, join(ROOT, "test", "hosted-clients", "action-and-gateway.ts")], { timeoutMs: 240_000 });
  expect({ code: result.code, stderr: result.code === 0 ? "" : result.stderr }).toEqual({ code: 0, stderr: "" });
  const { variables, results } = JSON.parse(result.stdout.trim().split("\n").pop()!);
  for (const n of ["1", "8453"]) {
    expect(variables[`TENDERLY_TESTNET_ID_${n}`]).toMatch(/^[0-9a-f-]{36}$/);
    expect(variables[`TENDERLY_ADMIN_RPC_URL_${n}`]).toMatch(/^https:\/\/virtual\.(mainnet|base)\.rpc\.tenderly\.co\/[A-Za-z0-9_-]{43}$/);
    expect(variables[`TENDERLY_PUBLIC_RPC_URL_${n}`]).toBe(
      variables[`TENDERLY_ADMIN_RPC_URL_${n}`].replace(/[^/]+$/, variables[`TENDERLY_TESTNET_ID_${n}`]),
    );
    expect(variables[`TENDERLY_FOUNDRY_VERIFICATION_URL_${n}`]).toBe(`${variables[`TENDERLY_ADMIN_RPC_URL_${n}`]}/verify/etherscan`);
    expect(variables[`TENDERLY_TESTNET_SLUG_${n}`]).toBe(`12-ci-virtual-testnet-net-${n}-ci---deploy-deploy-13201840357`);
    expect(variables[`TENDERLY_CHAIN_ID_${n}`]).toBe(`7357${n}`);
    expect(results[`balance_${n}`]).toBe("42");
    expect(results[`status_${n}`]).toBe("stopped");
  }
  expect([results.chainId_1, results.chainId_8453]).toEqual(["73571", "73578453"]);
  expect(results.stoppedAnswer.status).toBe(400);
  expect(results.stoppedAnswer.message).toMatch(/stopped/);
  expect(results.gatewayBlock.chainId).toBe("1");
  expect(Number.isInteger(results.gatewayBlock.block)).toBe(true);
  // The Action's two vnets, read by the Web3 Action through the API; its send refused by the read-only gateway.
  expect(results.gatewayBlock.vnets).toBe(2);
  expect(results.gatewayBlock.sendRefused).toMatch(
    /^the method eth_sendRawTransaction does not exist\/is not available: a node gateway here is read-only/,
  );
  expect(results.sdkError).toBe("404");
}, 300_000);

test("a vnet answers under its region host (virtual.{network}.{region}.rpc…): exec issues that name a certificate", async () => {
  const result = await runCli(["exec", "--", TSX, join(ROOT, "test", "hosted-clients", "region-host.ts")], { timeoutMs: 240_000 });
  expect({ code: result.code, stderr: result.code === 0 ? "" : result.stderr }).toEqual({ code: 0, stderr: "" });
  const out = JSON.parse(result.stdout.trim().split("\n").pop()!);
  expect(out).toEqual({
    admin: "https://virtual.mainnet.rpc.tenderly.co/{key}",
    fetch_eu: `0x${(73575).toString(16)}`,
    https_eu: `0x${(73575).toString(16)}`,
    "fetch_us-east": `0x${(73575).toString(16)}`,
    "https_us-east": `0x${(73575).toString(16)}`,
  });
}, 300_000);

test("exec leaves other hosts alone and passes the child's exit code through", async () => {
  const script = "require('node:net').connect(1, '127.0.0.1').on('error', (e) => { console.log(e.code); process.exit(7); });";
  const result = await runCli(["exec", "--", process.execPath, "-e", script], { timeoutMs: 120_000 });
  expect(result.stdout.trim()).toBe("ECONNREFUSED");
  expect(result.code).toBe(7);
  expect((await runCli(["exec"], { timeoutMs: 60_000 })).code).toBe(2);
  // The child's own --help is the child's.
  const help = await runCli(["exec", "--", process.execPath, "-e", "console.log(process.argv.slice(1).join(' '))", "--", "--help"], {
    timeoutMs: 120_000,
  });
  expect(help.stdout.trim()).toBe("--help");
}, 200_000);

test("the api-client's who-and-where methods work unchanged under exec", async () => {
  const home = mkdtempSync(join(tmpdir(), "chainform-api-client-"));
  const accessKey = `cf_${"k".repeat(40)}`;
  try {
    mkdirSync(join(home, ".tenderly"));
    writeFileSync(join(home, ".tenderly", "config.yaml"), `access_key: ${accessKey}\n`);
    const result = await runCli(["exec", "--", TSX, join(ROOT, "test", "hosted-clients", "api-client-who.ts")], {
      timeoutMs: 120_000,
      env: { HOME: home, CHAINFORM_ACCESS_KEY: accessKey },
    });
    expect({ code: result.code, stderr: result.code === 0 ? "" : result.stderr }).toEqual({ code: 0, stderr: "" });
    const out = JSON.parse(result.stdout.trim().split("\n").pop()!);
    expect(out.networks).toBeGreaterThan(1);
    expect(out.mainnet).toEqual({
      slug: "mainnet",
      name: "Mainnet",
      keys: ["ethereum_network_id", "id", "metadata", "name", "slug", "sort_order"],
    });
    expect(Number.isInteger(out.latest)).toBe(true);
    expect(out.principal).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), username: "alice" });
    expect(out.projects).toEqual(["sandbox"]);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}, 200_000);
