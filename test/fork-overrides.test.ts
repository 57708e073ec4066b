/**
 * Forks with a chain-id override and reads of past blocks (docs/forking.md): the caller's `chainId` never reaches the
 * upstream (`cast call --block N` on a fork with an override answers as of block N); offline, a read nobody recorded
 * names the block it asked, not the fork point; and `--offline-empty-accounts` reads an account nobody recorded as
 * empty, logged once per account, where without it the read is a named error. Real service, real anvil and cast.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Environment } from "../lib/api";
import { runCast } from "./helpers/cast";
import { call, adminRpc } from "./helpers/http";
import { ALICE, DEPLOYER, TOKEN, startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";
import { environmentsPath, startTestService, type TestService } from "./helpers/service";
import { encodeFunctionData } from "./helpers/viem";

const NOBODY = "0x00000000000000000000000000000000005ca1ab";
const WALLET = "0x0000000000000000000000000000000000fa11e7";

let upstream: ForkUpstream;
let root: string;
let service: TestService | undefined;

const cast = (...args: string[]) => runCast(args, 60_000);

async function rpc(url: string, method: string, params: unknown[]): Promise<{ result?: any; error?: { message: string } }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as { result?: any; error?: { message: string } };
}

beforeAll(async () => {
  upstream = await startForkUpstream();
  root = mkdtempSync(join(tmpdir(), "chainform-fork-overrides-"));
});
afterAll(async () => {
  await service?.close();
  await upstream?.close();
  rmSync(root, { recursive: true, force: true });
});

test("with a chain-id override, cast call --block N answers as of block N; offline, errors name the block asked; empty accounts only on request", async () => {
  const settings = { dataDir: join(root, "data"), forkCacheDir: join(root, "fork-cache") };
  service = await startTestService({ ...settings, forkUrls: { "1": upstream.url } });
  const created = await call(service, "POST", environmentsPath(service), {
    as: "alice",
    body: {
      display_name: "override",
      network_configs: [
        { network_id: "1", block_number: `0x${upstream.history.head.toString(16)}`, chain_config_overrides: { chain_id: "73571" } },
      ],
    },
  });
  expect(created.status).toBe(200);
  const admin = adminRpc(created.body as Environment);
  expect(await cast("chain-id", "--rpc-url", admin)).toBe("73571");
  const token = upstream.history.token;
  const { aliceFunded, bobFunded } = upstream.history;
  // ALICE held 100 at aliceFunded and 300 at the head: a read of the past block goes upstream, without our chain id.
  expect(await cast("call", "--rpc-url", admin, "--block", String(aliceFunded), token, "balanceOf(address)(uint256)", ALICE)).toBe("100");
  expect(await cast("call", "--rpc-url", admin, token, "balanceOf(address)(uint256)", ALICE)).toBe("300");
  await service.close();
  service = undefined;

  // Offline: a past read nobody made live names its own block.
  service = await startTestService({ ...settings, offline: true, logger: { level: "info", file: join(root, "offline.log") } });
  const environment = (await call(service, "GET", environmentsPath(service), { as: "alice" })).body.environments[0] as Environment;
  const url = adminRpc(environment);
  const balanceOf = {
    to: token,
    data: encodeFunctionData({ abi: TOKEN.abi, functionName: "balanceOf", args: [DEPLOYER] }),
    chainId: "0x11f63",
  };
  const past = await rpc(url, "eth_call", [balanceOf, `0x${bobFunded.toString(16)}`]);
  expect(past.error?.message).toMatch(new RegExp(`never recorded: eth_call .* at block ${bobFunded} of network 1`));
  expect(past.error?.message).not.toMatch(new RegExp(`at block ${upstream.history.head} of`));
  const nobody = await rpc(url, "eth_getBalance", [NOBODY, "latest"]);
  expect(nobody.error?.message).toMatch(/never recorded: eth_get\w+ of account/);
  await service.close();
  service = undefined;

  // With --offline-empty-accounts, a wallet nobody recorded is empty, can be funded and can send; logged once.
  service = await startTestService({
    ...settings,
    offline: true,
    offlineEmptyAccounts: true,
    logger: { level: "info", file: join(root, "empty.log") },
  });
  const again = (await call(service, "GET", environmentsPath(service), { as: "alice" })).body.environments[0] as Environment;
  const emptyUrl = adminRpc(again);
  expect((await rpc(emptyUrl, "eth_getBalance", [NOBODY, "latest"])).result).toBe("0x0");
  expect((await rpc(emptyUrl, "eth_getCode", [NOBODY, "latest"])).result).toBe("0x");
  expect((await rpc(emptyUrl, "eth_getTransactionCount", [NOBODY, "latest"])).result).toBe("0x0");
  expect((await rpc(emptyUrl, "tenderly_setBalance", [WALLET, "0xde0b6b3a7640000"])).error).toBeUndefined();
  const sent = await rpc(emptyUrl, "eth_sendTransactionSync", [{ from: WALLET, to: NOBODY, value: "0x2a" }]);
  expect(sent.result?.status).toBe("0x1");
  expect((await rpc(emptyUrl, "eth_getBalance", [NOBODY, "latest"])).result).toBe("0x2a");
  await service.close();
  service = undefined;
  const lines = readFileSync(join(root, "empty.log"), "utf8")
    .split("\n")
    .filter((line) => line.includes("reads as empty (--offline-empty-accounts)"));
  expect(lines.filter((line) => line.includes(NOBODY))).toHaveLength(1);
  expect(lines.filter((line) => line.includes(WALLET))).toHaveLength(1);
});
