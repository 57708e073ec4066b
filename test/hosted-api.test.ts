/**
 * The hosted clients' API beside the spec's (docs/hosted-clients.md), over HTTP against the real service and anvil:
 * the `/api` base path, the account segment's `me` and principal ids, Virtual TestNets as the vnet GitHub Action and
 * the hosted reference use them, and the 404 that names a route's shape rather than its path.
 */
import fc from "fast-check";
import WebSocket from "ws";
import { startTestService, type TestService } from "./helpers/service";
import { call, expectErrorBody, postUnderHost, rpc } from "./helpers/http";
import { privateKeyToAccount } from "./helpers/viem";

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
}, 120_000);
afterAll(() => service?.close());

const VNETS = "/api/v1/account/acme/project/demo/vnets";
const urlOf = (vnet: { rpcs: { name: string; url: string }[] }, name: string) => vnet.rpcs.find((r) => r.name === name)!.url;

describe("the /api base path", () => {
  test("serves the spec's paths under /api as at the root, and the root is unchanged", async () => {
    const root = await call(service, "GET", "/v1/supported-networks");
    const api = await call(service, "GET", "/api/v1/supported-networks");
    expect(api.status).toBe(200);
    expect(api.body).toEqual(root.body);
    const environments = await call(service, "GET", "/api/public/v1/account/acme/project/demo/environments", { as: "alice" });
    expect(environments.status).toBe(200);
    expect(Array.isArray(environments.body.environments)).toBe(true);
    // The hosted families are under /api only: nothing new at the root.
    expect((await call(service, "GET", "/v1/user", { as: "alice" })).status).toBe(404);
  });

  test("the account segment may be me or a principal id, under /api only", async () => {
    const user = await call(service, "GET", "/api/v1/user", { as: "alice" });
    expect(user.status).toBe(200);
    expect(user.body.user).toMatchObject({ username: "alice" });
    for (const account of ["me", "acme"]) {
      const projects = await call(service, "GET", `/api/public/v1/account/${account}/project/demo/environments`, { as: "alice" });
      expect(projects.status).toBe(200);
    }
    const byId = await call(service, "GET", `/api/v1/account/${user.body.user.id}/projects`, { as: "alice" });
    expect(byId.status).toBe(200);
    expect(byId.body.projects.map((p: { slug: string }) => p.slug)).toContain("sandbox");
    expectErrorBody(await call(service, "GET", "/v1/account/me/projects", { as: "alice" }), 404, "resource_not_found");
  });

  test("an unknown hosted path's 404 names its shape, never a segment that may be a secret", async () => {
    const secret = `cf_${"s3cr3t".repeat(6)}`;
    const result = await call(service, "POST", `/api/v1/account/acme/project/demo/${secret}/nothing`, { as: "alice", body: {} });
    expectErrorBody(result, 404, "resource_not_found");
    expect(result.text).not.toContain(secret);
    expect(result.body.error.message).toContain("/api/v1/account/{…}/project/{…}/{…}/{…}");
  });
});

test("a hosted-shaped key sent to the local base URL is not echoed by its 404", async () => {
  for (const key of [service.keys.alice, "nTAiXKRwpWyeKTOW0UGESAPUnLPpWGcK8M4vS9tDwJs"]) {
    const answer = await call(service, "POST", `/${key}`, { body: { jsonrpc: "2.0", id: 1, method: "eth_chainId" } });
    expectErrorBody(answer, 404, "resource_not_found");
    expect(answer.text).not.toContain(key);
  }
});

describe("who and where", () => {
  test("principal, public networks and a network's block number", async () => {
    const principal = await call(service, "GET", "/api/v1/principal", { as: "alice" });
    expect(principal.body).toMatchObject({ type: "user", username: "alice" });
    const networks = await call(service, "GET", "/api/v1/public-networks");
    expect(networks.status).toBe(200);
    const mainnet = networks.body.find((n: { ethereum_network_id: string }) => n.ethereum_network_id === "1");
    expect(Object.keys(mainnet).sort()).toEqual(["ethereum_network_id", "id", "metadata", "name", "slug", "sort_order"]);
    expect(mainnet.slug).toBe("mainnet");
    const block = await call(service, "GET", "/api/v1/network/1/block-number");
    expect(block.status).toBe(200);
    expect(Number.isInteger(block.body.block_number)).toBe(true);
    expectErrorBody(await call(service, "GET", "/api/v1/network/424242/block-number"), 404, "resource_not_found");
  });
});

describe("Virtual TestNets", () => {
  const actionBody = (slug: string) => ({
    slug,
    display_name: "CI Virtual TestNet",
    fork_config: { network_id: 1, block_number: "latest" },
    virtual_network_config: { chain_config: { chain_id: 73571 } },
    sync_state_config: { enabled: false },
    explorer_page_config: { enabled: true, verification_visibility: "src" },
  });

  test("create, get, list, stop (data kept), run again, fork, delete", async () => {
    const created = await call(service, "POST", VNETS, { as: "alice", body: actionBody("ci-virtual-testnet-1") });
    expect(created.status).toBe(200);
    const vnet = created.body;
    expect(vnet).toMatchObject({
      slug: "ci-virtual-testnet-1",
      display_name: "CI Virtual TestNet",
      fork_config: { network_id: 1 },
      virtual_network_config: { chain_config: { chain_id: 73571 } },
      explorer_page_config: { enabled: true, verification_visibility: "src" },
      status: "running",
    });
    const admin = urlOf(vnet, "Admin RPC");
    expect(await rpc(admin, "eth_chainId")).toBe("0x11f63");
    const to = "0x000000000000000000000000000000000000dead";
    await rpc(admin, "tenderly_setBalance", [to, "0x2a"]);
    expect(await rpc(admin, "eth_getBalance", [to, "latest"])).toBe("0x2a");

    // Listed as a vnet, and as an environment of one network under the spec's API.
    const list = await call(service, "GET", VNETS, { as: "alice" });
    expect(list.body.map((v: { id: string }) => v.id)).toContain(vnet.id);
    const environment = await call(service, "GET", `/public/v1/account/acme/project/demo/environments/${vnet.environment_id}`, {
      as: "alice",
    });
    expect(environment.body.active_instance.vnets[0].id).toBe(vnet.id);

    const stopped = await call(service, "PATCH", `${VNETS}/${vnet.id}`, { as: "alice", body: { status: "stopped" } });
    expect(stopped.status).toBe(200);
    expect(stopped.body.status).toBe("stopped");
    const refused = await fetch(admin, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber" }) });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/stopped/);
    expect((await call(service, "GET", `${VNETS}/${vnet.id}`, { as: "alice" })).body.status).toBe("stopped");
    await call(service, "PATCH", `${VNETS}/${vnet.id}`, { as: "alice", body: { status: "running" } });
    expect(await rpc(admin, "eth_getBalance", [to, "latest"])).toBe("0x2a");

    const fork = await call(service, "POST", `${VNETS}/fork`, { as: "alice", body: { vnet_id: vnet.id, state_sync: false } });
    expect(fork.status).toBe(200);
    expect(fork.body.id).not.toBe(vnet.id);
    expect(await rpc(urlOf(fork.body, "Admin RPC"), "eth_getBalance", [to, "latest"])).toBe("0x2a");

    expect((await call(service, "DELETE", `${VNETS}/${vnet.id}`, { as: "alice" })).status).toBe(204);
    expectErrorBody(await call(service, "GET", `${VNETS}/${vnet.id}`, { as: "alice" }), 404, "resource_not_found");
    const many = await call(service, "DELETE", VNETS, { as: "alice", body: { vnet_ids: [fork.body.id] } });
    expect(many.status).toBe(204);
  }, 180_000);

  test("bad inputs get the spec's 400 naming the hosted field", async () => {
    const badNetwork = await call(service, "POST", VNETS, {
      as: "alice",
      body: { ...actionBody("bad-network"), fork_config: { network_id: 999999, block_number: "latest" } },
    });
    expectErrorBody(badNetwork, 400, "bad_request");
    expect(badNetwork.body.error.message).toMatch(/^fork_config\.network_id/);
    const sync = await call(service, "POST", VNETS, { as: "alice", body: { ...actionBody("sync"), sync_state_config: { enabled: true } } });
    expectErrorBody(sync, 400, "bad_request");
    expect(sync.body.error.data.field).toBe("/sync_state_config/enabled");
    const block = await call(service, "POST", VNETS, {
      as: "alice",
      body: { ...actionBody("bad-block"), fork_config: { network_id: 1, block_number: "soon" } },
    });
    expectErrorBody(block, 400, "bad_request");
    expect(block.body.error.data.field).toBe("/fork_config/block_number");
    const readOnly = await call(service, "POST", VNETS, { as: "bob", body: actionBody("by-bob") });
    expectErrorBody(readOnly, 403, "insufficient_permissions");
  });
});

/** A JSON POST to the service under another Host header, as a redirected client sends it. */
function underHost(host: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return postUnderHost(service, host, path, JSON.stringify(body), { "content-type": "application/json", ...headers });
}

describe("routing by the hosted host names", () => {
  const blockNumber = { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] };

  test("the API host answers hosted-shaped RPC URLs, and the vnet RPC host serves them by key and by slug path", async () => {
    const created = await underHost(
      "api.tenderly.co",
      VNETS,
      {
        slug: "hosted-names",
        fork_config: { network_id: 1, block_number: "latest" },
        virtual_network_config: { chain_config: { chain_id: 73571 } },
      },
      service.headersOf("alice"),
    );
    expect(created.status).toBe(200);
    const admin = new URL(urlOf(created.body, "Admin RPC"));
    const pub = new URL(urlOf(created.body, "Public RPC"));
    expect(admin.host).toBe("virtual.mainnet.rpc.tenderly.co");
    expect(pub.pathname).toBe(`/${created.body.id}`);
    const viaAdmin = await underHost(admin.host, admin.pathname, {
      jsonrpc: "2.0",
      id: 1,
      method: "tenderly_setBalance",
      params: ["0x000000000000000000000000000000000000bEEF", "0x7"],
    });
    expect(viaAdmin.body.error).toBeUndefined();
    const viaPublic = await underHost(pub.host, pub.pathname, {
      jsonrpc: "2.0",
      id: 1,
      method: "eth_getBalance",
      params: ["0x000000000000000000000000000000000000bEEF", "latest"],
    });
    expect(viaPublic.body.result).toBe("0x7");
    const bySlug = await underHost(admin.host, "/acme/demo/hosted-names", blockNumber);
    expect(bySlug.status).toBe(200);
    // The public URL may not write; another network's host does not reach this vnet.
    expect(
      (await underHost(pub.host, pub.pathname, { jsonrpc: "2.0", id: 1, method: "tenderly_setBalance", params: [] })).body.error.code,
    ).toBe(-32601);
    expect((await underHost("virtual.base.rpc.tenderly.co", admin.pathname, blockNumber)).status).toBe(404);
  }, 120_000);

  test("unknown keys and paths under hosted hosts are 404s that quote nothing", async () => {
    const secret = "cf_NotAKeyButSecretLooking0123456789";
    for (const host of ["virtual.mainnet.rpc.tenderly.co", "mainnet.gateway.tenderly.co"]) {
      const answer = await underHost(host, `/${secret}`, blockNumber);
      expect(answer.status).toBe(404);
      expect(answer.text).not.toContain(secret);
      const deeper = await underHost(host, `/${secret}/a/b/c`, blockNumber);
      expect(deeper.status).toBe(404);
      expect(deeper.text).not.toContain(secret);
    }
  });

  test("a node gateway with a valid access key reads the network's chain through its Public RPC", async () => {
    const chainId = await underHost("mainnet.gateway.tenderly.co", `/${service.keys.alice}`, {
      jsonrpc: "2.0",
      id: 1,
      method: "eth_chainId",
      params: [],
    });
    expect(chainId.body.result).toBe("0x1");
    const write = await underHost("mainnet.gateway.tenderly.co", `/${service.keys.alice}`, {
      jsonrpc: "2.0",
      id: 1,
      method: "tenderly_setBalance",
      params: [],
    });
    expect(write.body.error.code).toBe(-32601);
  }, 120_000);
});

test("a node gateway is read-only: sends and state changes are refused as a node refuses a method, reads answer, over HTTP and WebSocket", async () => {
  const path = `/${service.keys.alice}`;
  const host = "mainnet.gateway.tenderly.co";
  const ask = async (method: string, params: unknown[] = []) =>
    (await underHost(host, path, { jsonrpc: "2.0", id: 7, method, params })).body;
  const before = (await ask("eth_blockNumber")).result;
  expect(before).toMatch(/^0x[0-9a-f]+$/);
  const account = privateKeyToAccount(`0x${"5d".repeat(32)}`);
  const raw = await account.signTransaction({
    chainId: 1,
    nonce: 0,
    to: "0x000000000000000000000000000000000000bEEF",
    value: 0n,
    gas: 21_000n,
    maxFeePerGas: 10n ** 11n,
    maxPriorityFeePerGas: 1n,
  });
  const writes: [string, unknown[]][] = [
    ["eth_sendRawTransaction", [raw]],
    ["eth_sendTransaction", [{ from: account.address, to: account.address }]],
    ["anvil_setBalance", [account.address, "0x1"]],
    ["anvil_mine", []],
    ["evm_mine", []],
    ["evm_snapshot", []],
    ["tenderly_setBalance", [account.address, "0x1"]],
    ["hardhat_setCode", [account.address, "0x00"]],
  ];
  for (const [method, params] of writes) {
    const answer = await ask(method, params);
    expect({ method, id: answer.id, code: answer.error?.code }).toEqual({ method, id: 7, code: -32601 });
    expect(answer.error.message).toBe(
      `the method ${method} does not exist/is not available: a node gateway here is read-only (send transactions and state changes to a Virtual TestNet)`,
    );
  }
  // A batch: reads answered, writes refused where they stand, a refused notification unanswered.
  const batch = await underHost(host, path, [
    { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
    { jsonrpc: "2.0", id: 2, method: "eth_sendRawTransaction", params: [raw] },
    { jsonrpc: "2.0", method: "evm_mine", params: [] },
    { jsonrpc: "2.0", id: 3, method: "eth_getBalance", params: [account.address, "latest"] },
  ]);
  expect(batch.body.map((a: any) => [a.id, a.result ?? a.error.code])).toEqual([
    [1, "0x1"],
    [2, -32601],
    [3, "0x0"],
  ]);
  expect((await ask("eth_blockNumber")).result).toBe(before);
  expect((await ask("eth_getTransactionCount", [account.address, "latest"])).result).toBe("0x0");
  // The same over WebSocket.
  const url = new URL(service.baseUrl);
  const socket = new WebSocket(`ws://${url.host}${path}`, { headers: { host } });
  const answers = await new Promise<any[]>((resolve, reject) => {
    const got: any[] = [];
    socket.on("open", () => {
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_sendRawTransaction", params: [raw] }));
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "eth_chainId", params: [] }));
    });
    socket.on("message", (data) => {
      got.push(JSON.parse(String(data)));
      if (got.length === 2) resolve(got.sort((a, b) => a.id - b.id));
    });
    socket.on("error", reject);
  });
  socket.close();
  expect(answers.map((a) => a.result ?? a.error.code)).toEqual([-32601, "0x1"]);
}, 120_000);

describe("hosted hosts against hostile paths", () => {
  test("any path under a vnet RPC or gateway host is answered, and never echoed", async () => {
    const hosts = ["virtual.mainnet.rpc.tenderly.co", "mainnet.gateway.tenderly.co", "virtual.base.eu.rpc.tenderly.co"];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...hosts),
        fc.array(fc.stringMatching(/^[A-Za-z0-9%._~-]{1,40}$/), { maxLength: 5 }),
        async (host, segments) => {
          const path = `/${segments.join("/")}`;
          const answer = await underHost(host, path, { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
          expect([200, 400, 404]).toContain(answer.status);
          for (const segment of segments) if (segment.length > 6) expect(answer.text).not.toContain(segment);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});

test("a vnet's hosted WebSocket URL is served under its host name", async () => {
  const created = await call(service, "POST", VNETS, {
    as: "alice",
    body: { slug: "hosted-ws", fork_config: { network_id: 1 }, virtual_network_config: { chain_config: { chain_id: 73571 } } },
  });
  const url = new URL(service.baseUrl);
  const socket = new WebSocket(`ws://${url.host}/${created.body.id}`, { headers: { host: "virtual.mainnet.rpc.tenderly.co" } });
  const answer = await new Promise<any>((resolve, reject) => {
    socket.on("open", () => socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] })));
    socket.on("message", (data) => resolve(JSON.parse(String(data))));
    socket.on("error", reject);
  });
  socket.close();
  expect(answer.result).toBe("0x11f63");
}, 120_000);
