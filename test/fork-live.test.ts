/**
 * Virtual Environments that fork a live upstream (docs/forking.md): an anvil with chain id 1 stands in for mainnet
 * (test/helpers/fork-upstream.ts). A fork at block N sees the token and balances as of N; without block_number the
 * upstream's head is pinned and returned; the chain-id override, prefunding, tenderly_setErc20Balance on the
 * upstream's token, transactions with their records, both simulations and the explorer work on forked state; the
 * upstream never receives a write and its URL (an API key) never shows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAnvilEngine } from "../lib/service/chains";
import { UPSTREAM_READ_METHODS } from "../lib/service/chains/fork";
import type { Environment } from "../lib/api";
import { call, type CallResult, adminRpc } from "./helpers/http";
import { ALICE, BOB, DEPLOYER, TOKEN, UPSTREAM_SECRET, startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";
import { environmentsPath, startTestService, type TestService } from "./helpers/service";
import { encodeFunctionData } from "./helpers/viem";

const CAROL = "0x00000000000000000000000000000000000ca201";
const PREFUNDED = "0x00000000000000000000000000000000000f00d1";
const hex = (n: bigint) => `0x${n.toString(16)}`;

let upstream: ForkUpstream;
let service: TestService;
let dataDir: string;
let project: string;
/** Every answer the service gave, to look for the upstream's secret in. */
const answers: string[] = [];

async function api(method: string, path: string, body?: unknown): Promise<CallResult> {
  const result = await call(service, method, path, { as: "alice", body });
  answers.push(result.text);
  return result;
}

async function createEnvironment(slug: string, networkConfig: Record<string, unknown>): Promise<CallResult> {
  return api("POST", `/public${project}/environments`, {
    display_name: slug,
    slug,
    network_configs: [{ network_id: "1", ...networkConfig }],
  });
}

async function rpc(
  url: string,
  method: string,
  params: unknown[] = [],
): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await response.text();
  answers.push(text);
  return JSON.parse(text);
}

async function tokenBalance(url: string, holder: string): Promise<bigint> {
  const data = encodeFunctionData({ abi: TOKEN.abi, functionName: "balanceOf", args: [holder] });
  const answer = await rpc(url, "eth_call", [{ to: upstream.history.token, data }, "latest"]);
  if (answer.error) throw new Error(answer.error.message);
  return BigInt(answer.result);
}

beforeAll(async () => {
  upstream = await startForkUpstream();
  dataDir = mkdtempSync(join(tmpdir(), "chainform-fork-live-"));
  service = await startTestService({ dataDir, forkUrls: { "1": upstream.url } });
  project = `/v1/account/${service.accountSlug}/project/${service.projectSlug}`;
});
afterAll(async () => {
  await service?.close();
  await upstream?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test("a fork at block N sees the upstream's token and balances as of N, with the chain-id override and a prefunded account", async () => {
  const { history } = upstream;
  const created = await createEnvironment("at-n", {
    block_number: hex(history.aliceFunded),
    chain_config_overrides: { chain_id: "73571" },
    accounts: [{ address: PREFUNDED, balance: "0xde0b6b3a7640000" }],
  });
  expect(created.status).toBe(200);
  const environment = created.body as Environment;
  expect(environment.networks[0].block_number).toBe(hex(history.aliceFunded));
  expect(environment.active_instance.vnets[0].fork_config).toEqual({ network_id: 1, block_number: hex(history.aliceFunded) });
  const url = adminRpc(environment);

  expect((await rpc(url, "eth_chainId")).result).toBe(hex(73571n));
  // The token exists, with balances as of N: ALICE's first 100, not the 200 she got later; BOB's 50 came after N.
  expect((await rpc(url, "eth_getCode", [history.token, "latest"])).result).not.toBe("0x");
  expect(await tokenBalance(url, ALICE)).toBe(100n);
  expect(await tokenBalance(url, BOB)).toBe(0n);
  expect(await tokenBalance(url, DEPLOYER)).toBe(900n);
  expect(BigInt((await rpc(url, "eth_getBalance", [PREFUNDED, "latest"])).result)).toBe(10n ** 18n);
  // block.chainid answers the override too: a simulation of CHAINID (0x46) returning it.
  const chainIdCall = await rpc(url, "eth_call", [{ data: "0x4660005260206000f3" }, "latest"]);
  expect(BigInt(chainIdCall.result)).toBe(73571n);
});

test("without block_number the upstream's head is pinned at creation and returned; a block beyond it is a 400 naming the field", async () => {
  const created = await createEnvironment("at-head", {});
  expect(created.status).toBe(200);
  const environment = created.body as Environment;
  expect(environment.networks[0].block_number).toBe(hex(upstream.history.head));
  expect(environment.active_instance.vnets[0].fork_config.block_number).toBe(hex(upstream.history.head));
  const url = adminRpc(environment);
  expect(await tokenBalance(url, ALICE)).toBe(300n);
  expect(await tokenBalance(url, BOB)).toBe(50n);
  // The upstream moves on; the environment stays at the block it pinned.
  await upstream.node.rpc.request("anvil_mine", ["0x2"]);
  const again = await api("GET", `/public${project}/environments/${environment.id}`);
  expect(again.body.networks[0].block_number).toBe(hex(upstream.history.head));

  const beyond = await createEnvironment("beyond", { block_number: hex(upstream.history.head + 1000n) });
  expect(beyond.status).toBe(400);
  expect(beyond.body.error.data.field).toBe("/network_configs/0/block_number");
  expect(beyond.body.error.message).toMatch(/^network_configs\[0\]\.block_number: block \d+ is beyond the head of network 1/);
  const list = await api("GET", `/public${project}/environments`);
  expect(list.body.environments.map((e: Environment) => e.slug)).not.toContain("beyond");
});

test("Admin RPC, a transaction with its record, both simulations and the explorer work on forked state", async () => {
  const { history } = upstream;
  const environment = (await createEnvironment("work", { block_number: hex(history.aliceTopped), explorer_config: { enabled: true } }))
    .body as Environment;
  const url = adminRpc(environment);
  const vnet = environment.active_instance.vnets[0];

  // tenderly_setErc20Balance finds the balance slot of the upstream's real token.
  expect((await rpc(url, "tenderly_setErc20Balance", [history.token, CAROL, "0x2a"])).result).toBeNull();
  expect(await tokenBalance(url, CAROL)).toBe(42n);
  expect(await tokenBalance(url, ALICE)).toBe(300n);

  // A transaction through the API: ALICE (impersonated) moves 10 of her forked tokens to CAROL.
  const transfer = encodeFunctionData({ abi: TOKEN.abi, functionName: "transfer", args: [CAROL, 10n] });
  await rpc(url, "tenderly_setBalance", [ALICE, "0xde0b6b3a7640000"]);
  const sent = await api(
    "POST",
    `/public${project}/environments/${environment.id}/instance/${environment.active_instance.id}/vnet/${vnet.id}/transactions`,
    {
      callArgs: { from: ALICE, to: history.token, data: transfer },
    },
  );
  expect(sent.status).toBe(200);
  expect(sent.body.status).toBe("success");
  expect(await tokenBalance(url, CAROL)).toBe(52n);
  expect(await tokenBalance(url, ALICE)).toBe(290n);
  const records = await api(
    "GET",
    `/public${project}/environments/${environment.id}/instance/${environment.active_instance.id}/transactions`,
  );
  expect(records.body.map((t: { tx_hash: string }) => t.tx_hash)).toContain(sent.body.tx_hash);

  // Vnet simulation: the same transfer again, nothing kept.
  const simulated = await api("POST", `${project}/vnets/${vnet.id}/transactions/simulate`, {
    callArgs: { from: ALICE, to: history.token, data: transfer },
  });
  expect(simulated.status).toBe(200);
  expect(simulated.body.status).toBe(true);
  expect(await tokenBalance(url, CAROL)).toBe(52n);

  // Project simulation on a replica of network 1, forked from the upstream: ALICE holds tokens there.
  const project1 = await api("POST", `${project}/simulate`, { network_id: "1", from: ALICE, to: history.token, input: transfer });
  expect(project1.status).toBe(200);
  expect(project1.body.simulation.status).toBe(true);
  const tooMuch = encodeFunctionData({ abi: TOKEN.abi, functionName: "transfer", args: [CAROL, 10_000n] });
  const failed = await api("POST", `${project}/simulate`, { network_id: "1", from: ALICE, to: history.token, input: tooMuch });
  expect(failed.body.simulation.status).toBe(false);

  // The explorer shows the transaction of the forked chain.
  const page = await fetch(`${service.baseUrl}/explorer/${vnet.id}/tx/${sent.body.tx_hash}`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(sent.body.tx_hash);
});

test("the upstream received reads only, and its URL shows in no answer", () => {
  expect(upstream.methods.length).toBeGreaterThan(0);
  expect(upstream.methods.filter((method) => !UPSTREAM_READ_METHODS.has(method))).toEqual([]);
  expect(upstream.methods.filter((method) => /^(eth_send|anvil_|tenderly_|evm_|hardhat_)/.test(method))).toEqual([]);
  expect(answers.filter((text) => text.includes(UPSTREAM_SECRET))).toEqual([]);
});

test("an upstream of another chain is refused naming both ids; an unreachable one names the network and its --fork setting; both are the user's to fix (400); nothing is half-made", async () => {
  const other = await startTestService({
    forkUrls: { "1": upstream.url.replace("127.0.0.1", "localhost"), "10": upstream.url, "8453": "http://127.0.0.1:9/v2/sk-dead-key" },
  });
  try {
    const path = environmentsPath(other);
    const wrong = await call(other, "POST", path, {
      as: "alice",
      body: { display_name: "wrong", network_configs: [{ network_id: "10" }] },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/upstream of network 10 answers chain id 1, not 10.*--fork 10=URL/);
    const dead = await call(other, "POST", path, {
      as: "alice",
      body: { display_name: "dead", network_configs: [{ network_id: "1" }, { network_id: "8453" }] },
    });
    expect(dead.status).toBe(400);
    expect(dead.body.error.message).toMatch(/cannot fork network 8453: the upstream of network 8453 cannot be reached.*--fork 8453=URL/);
    for (const text of [wrong.text, dead.text]) expect(text).not.toMatch(/sk-dead-key|sk-upstream/);
    const list = await call(other, "GET", path, { as: "alice" });
    expect(list.body.environments).toEqual([]);
  } finally {
    await other.close();
  }
});

test("a slow upstream is bounded by a timeout that names the network", async () => {
  const slow = await startTestService({
    forkUrls: { "1": upstream.url },
    createChainEngine: (host) => createAnvilEngine(host, { upstreamTimeoutMs: 300 }),
  });
  upstream.delayMs = 2_000;
  try {
    const path = environmentsPath(slow);
    const result = await call(slow, "POST", path, { as: "alice", body: { display_name: "slow", network_configs: [{ network_id: "1" }] } });
    expect(result.status).toBe(504);
    expect(result.body.error.message).toBe("cannot fork network 1: the upstream of network 1 did not answer within 300 ms");
  } finally {
    upstream.delayMs = 0;
    await slow.close();
  }
});
