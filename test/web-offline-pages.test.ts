/**
 * The explorer and dashboard of a fork served offline (docs/explorer-and-dashboard.md): the service's own records
 * (a cheatcode, whose hash is the service's; transactions sent through an RPC URL and through the API, one of them
 * reverted; a bridge deposit and its relay to a second network) are read from the service's store, never from the
 * upstream, so every page of every record kind answers 200 with the upstream gone, though no page was visited while
 * it was there. Real service, real anvil, an upstream anvil with real history.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Environment, Transaction } from "../lib/api";
import { BRIDGE_ADDRESS } from "../lib/domain/bridge-contract";
import { loadArtifact } from "../lib/service/chains/evm/artifacts";
import { call, rpc, adminRpc } from "./helpers/http";
import { DEPLOYER, TOKEN, startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";
import { environmentsPath, startTestService, type TestService } from "./helpers/service";
import { encodeFunctionData, type Hex } from "./helpers/viem";

const SENDER = "0x00000000000000000000000000000000005e11d0";
const RECEIVER = "0x00000000000000000000000000000000000fe5a1";

let upstream: ForkUpstream;
let root: string;
let service: TestService;

/** The dashboard's session cookie of a user, from the one-time sign-in link. */
async function signIn(s: TestService): Promise<string> {
  const response = await fetch(s.dashboardLink("alice"), { redirect: "manual" });
  const cookie = response.headers.get("set-cookie");
  if (!cookie) throw new Error(`no session cookie (HTTP ${response.status})`);
  return cookie.split(";")[0]!;
}

/** Every page of the environment and its records: [path, status, first 300 characters of an error page]. */
async function pages(s: TestService, environment: Environment, records: Transaction[]): Promise<[string, number, string][]> {
  const cookie = await signIn(s);
  const dashboard = `/dashboard/${s.accountSlug}/${s.projectSlug}/environments/${environment.id}`;
  const paths = [dashboard, ...environment.active_instance.vnets.map((vnet) => `/explorer/${vnet.id}`)];
  for (const record of records) {
    const explorer = `/explorer/${record.vnet_id}`;
    paths.push(`${explorer}/tx/${record.tx_hash}`, `${dashboard}/tx/${record.tx_hash}`);
    if (record.block_number) paths.push(`${explorer}/block/${BigInt(record.block_number)}`);
    for (const address of [record.from, record.to]) if (address) paths.push(`${explorer}/address/${address.toLowerCase()}`);
  }
  const answers: [string, number, string][] = [];
  for (const path of [...new Set(paths)]) {
    const response = await fetch(`${s.baseUrl}${path}`, { headers: { cookie } });
    const text = await response.text();
    answers.push([path, response.status, response.status === 200 ? "" : text.replace(/<[^>]+>/g, " ").slice(0, 300)]);
  }
  return answers;
}

beforeAll(async () => {
  upstream = await startForkUpstream();
  root = mkdtempSync(join(tmpdir(), "chainform-web-offline-"));
});
afterAll(async () => {
  await service?.close();
  await upstream?.close();
  rmSync(root, { recursive: true, force: true });
});

test("offline, the explorer and dashboard pages of every record kind answer 200", async () => {
  const settings = { dataDir: join(root, "data"), forkCacheDir: join(root, "fork-cache") };
  service = await startTestService({ ...settings, forkUrls: { "1": upstream.url } });
  const created = await call(service, "POST", environmentsPath(service), {
    as: "alice",
    body: {
      display_name: "offline pages",
      network_configs: [
        { network_id: "1", explorer_config: { enabled: true }, accounts: [{ address: SENDER, balance: "0x56bc75e2d63100000" }] },
        { network_id: "8453", explorer_config: { enabled: true } },
      ],
      bridge_config: { enabled: true, relay_mode: "autoRelay" },
    },
  });
  expect(created.status).toBe(200);
  const environment = created.body as Environment;
  const vnet = environment.active_instance.vnets[0];
  const admin = adminRpc(environment);

  // A cheatcode, a transfer through the RPC URL, a reverted token transfer, a transaction sent through the API.
  await rpc(admin, "tenderly_setBalance", [RECEIVER, "0xde0b6b3a7640000"]);
  expect((await rpc(admin, "eth_sendTransactionSync", [{ from: SENDER, to: RECEIVER, value: "0x2a" }])).status).toBe("0x1");
  const overdraw = encodeFunctionData({ abi: TOKEN.abi, functionName: "transfer", args: [RECEIVER, 10n ** 30n] });
  const reverted = await rpc(admin, "eth_sendTransactionSync", [
    { from: SENDER, to: upstream.history.token, data: overdraw, gas: "0x30000" },
  ]);
  expect(reverted.status).toBe("0x0");
  const instancePath = `${environmentsPath(service)}/${environment.id}/instance/${environment.active_instance.id}`;
  const sent = await call(service, "POST", `${instancePath}/vnet/${vnet.id}/transactions`, {
    as: "alice",
    body: { callArgs: { from: DEPLOYER, to: RECEIVER, value: "0x7" } },
  });
  expect(sent.status).toBe(200);
  // A deposit into the bridge on the fork, relayed to the second network (a record of origin bridge).
  const bridge = await loadArtifact("ChainformBridge");
  const destination = BigInt(await rpc<string>(adminRpc(environment, 1), "eth_chainId", []));
  const deposit = encodeFunctionData({ abi: bridge.abi, functionName: "deposit", args: [destination, RECEIVER as Hex] });
  expect(
    (await rpc(admin, "eth_sendTransactionSync", [{ from: SENDER, to: BRIDGE_ADDRESS, data: deposit, value: "0xde0b6b3a7640000" }])).status,
  ).toBe("0x1");
  let records: Transaction[] = [];
  for (let tries = 0; !records.some((r) => r.origin === "bridge"); tries++) {
    if (tries > 200) throw new Error("the deposit was never relayed");
    await new Promise((resolve) => setTimeout(resolve, 100));
    records = (await call(service, "GET", `${instancePath}/transactions?perPage=100`, { as: "alice" })).body as Transaction[];
  }
  expect(new Set(records.map((r) => `${r.kind}/${r.origin}/${r.status}`))).toEqual(
    new Set([
      "cheatcode/rpc/success",
      "blockchain/rpc/success",
      "blockchain/rpc/failed",
      "blockchain/api/success",
      "blockchain/bridge/success",
    ]),
  );

  // No page is visited live: what the pages read offline must not depend on what a live visit recorded.
  await service.close();

  // The upstream is gone; the same data dir is served offline.
  await upstream.close();
  const asked = upstream.methods.length;
  service = await startTestService({ ...settings, offline: true });
  const offline = await pages(service, environment, records);
  expect(offline.filter(([, status]) => status !== 200)).toEqual([]);
  expect(offline.length).toBeGreaterThanOrEqual(2 + 2 * records.length);
  expect(upstream.methods.length).toBe(asked);
});
