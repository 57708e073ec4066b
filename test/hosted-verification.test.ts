/**
 * The Etherscan-compatible verifier doors over HTTP against the real service and anvil (docs/hosted-clients.md
 * "Verification"): `<Admin RPC URL>/verify/etherscan` (the vnet GitHub Action's Foundry verifier), `<RPC URL>/verify`
 * (hardhat-integration, which asks `checkverifystatus` by address), the API's `etherscan/verify/testnet/{key}` and
 * `vnet-type`; each verifies through the one verifier, so the explorer shows the source. Unknown keys are 404s that
 * quote no path.
 */
import fc from "fast-check";
import { startTestService, type TestService } from "./helpers/service";
import { createHostedVnet } from "./helpers/hosted-vnets";
import { call, expectErrorBody, postUnderHost, rpc } from "./helpers/http";

const solc = require("solc") as { version(): string; compile(input: string): string };
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Store {
    uint256 public value;
    function set(uint256 v) external { value = v; }
}
`;
const INPUT = {
  language: "Solidity",
  sources: { "src/Store.sol": { content: SOURCE } },
  settings: { optimizer: { enabled: false, runs: 200 } },
};
let service: TestService;
let vnet: { id: string; rpcs: { name: string; url: string }[] };
let admin: string;
let publicRpc: string;

async function deploy(): Promise<string> {
  const output = { ...INPUT, settings: { ...INPUT.settings, outputSelection: { "*": { "*": ["evm.bytecode.object"] } } } };
  const bytecode = JSON.parse(solc.compile(JSON.stringify(output))).contracts["src/Store.sol"].Store.evm.bytecode.object;
  const from = "0x00000000000000000000000000000000000d0d03";
  await rpc(admin, "tenderly_setBalance", [from, "0xde0b6b3a7640000"]);
  const hash = await rpc<string>(admin, "eth_sendTransaction", [{ from, data: `0x${bytecode}` }]);
  return (await rpc<{ contractAddress: string }>(admin, "eth_getTransactionReceipt", [hash])).contractAddress.toLowerCase();
}

async function form(url: string, fields: Record<string, string>): Promise<{ status: number; body: any; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}

/** A form POST to the service under the hosted vnet RPC host of mainnet (the Host header kept). */
async function hostedForm(path: string, fields: Record<string, string>): Promise<any> {
  const body = new URLSearchParams(fields).toString();
  const answer = await postUnderHost(service, "virtual.mainnet.rpc.tenderly.co", path, body, {
    "content-type": "application/x-www-form-urlencoded",
    "content-length": Buffer.byteLength(body),
  });
  return answer.body;
}

const submission = (address: string) => ({
  module: "contract",
  action: "verifysourcecode",
  codeformat: "solidity-standard-json-input",
  contractaddress: address,
  contractname: "src/Store.sol:Store",
  compilerversion: `v${solc.version().replace(".Emscripten.clang", "")}`,
  sourceCode: JSON.stringify(INPUT),
});

beforeAll(async () => {
  service = await startTestService();
  vnet = await createHostedVnet(service, { slug: "verify-doors", displayName: "Verify doors", chainId: 73573 });
  admin = vnet.rpcs.find((r) => r.name === "Admin RPC")!.url;
  publicRpc = vnet.rpcs.find((r) => r.name === "Public RPC")!.url;
}, 180_000);
afterAll(() => service?.close());

const sourceShown = async (address: string) => {
  const answer = await call(service, "GET", `/explorer/${vnet.id}/api?module=contract&action=getsourcecode&address=${address}`);
  return String(answer.body.result[0].SourceCode);
};

test("<Admin RPC URL>/verify/etherscan verifies as forge submits; <RPC URL>/verify answers checkverifystatus by address", async () => {
  const address = await deploy();
  const submitted = await form(`${admin}/verify/etherscan`, submission(address));
  expect(submitted.body).toMatchObject({ status: "1", message: "OK" });
  const status = await form(`${admin}/verify/etherscan`, { module: "contract", action: "checkverifystatus", guid: submitted.body.result });
  expect(status.body.result).toBe("Pass - Verified");
  expect(await sourceShown(address)).toContain("contract Store");
  // The same door under the hosted vnet RPC host name (as chainform exec or a hosts-file redirect delivers it).
  const secret = admin.split("/").pop()!;
  const hosted = await hostedForm(`/${secret}/verify/etherscan`, { module: "contract", action: "getsourcecode", address });
  expect(hosted.result[0].SourceCode).toContain("contract Store");
  const byAddress = await form(`${publicRpc}/verify?module=contract&action=checkverifystatus`, {
    module: "contract",
    action: "checkverifystatus",
    guid: address,
  });
  expect(byAddress.body.result).toBe("Pass - Verified");
  // A path whose letters are escaped is the same door (the RPC side lets plain paths without "verify" by unsplit).
  const escaped = await form(`${admin}/%76erify/etherscan`, {
    module: "contract",
    action: "checkverifystatus",
    guid: submitted.body.result,
  });
  expect(escaped.body.result).toBe("Pass - Verified");
}, 120_000);

test("the API's etherscan/verify/testnet/{key} verifies by vnet id or Admin RPC key; vnet-type answers testnet", async () => {
  const address = await deploy();
  const secret = admin.split("/").pop()!;
  const door = `${service.baseUrl}/api/v1/account/acme/project/demo/etherscan/verify/testnet/${secret}`;
  const response = await fetch(door, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-access-key": service.keys.alice },
    body: new URLSearchParams(submission(address)),
  });
  expect(await response.json()).toMatchObject({ status: "1" });
  expect(await sourceShown(address)).toContain("contract Store");
  const again = await call(
    service,
    "GET",
    `/api/v1/account/acme/project/demo/etherscan/verify/testnet/${vnet.id}?module=contract&action=getabi&address=${address}`,
    { as: "alice" },
  );
  expect(JSON.parse(again.body.result)[0]).toMatchObject({ type: "function" });
  expect((await call(service, "GET", `/api/v1/vnet-type/${secret}`, { as: "alice" })).body).toEqual({ vnetType: "testnet" });
  // Another user's view: the vnet is not theirs to see.
  expectErrorBody(await call(service, "GET", `/api/v1/vnet-type/${secret}`, { as: "outsider" }), 404, "resource_not_found");
}, 120_000);

test("the API's Etherscan door takes the access key as apikey, as hardhat-verify sends it; a bad or missing key is a 401", async () => {
  const address = await deploy();
  const secret = admin.split("/").pop()!;
  const door = `${service.baseUrl}/api/v1/account/acme/project/demo/etherscan/verify/testnet/${secret}`;
  const before = await fetch(`${door}?apikey=${service.keys.alice}&module=contract&action=getsourcecode&address=${address}`);
  expect(before.status).toBe(200);
  expect(((await before.json()) as { result: { SourceCode: string }[] }).result[0].SourceCode).toBe("");
  const verified = await form(door, { ...submission(address), apikey: service.keys.alice });
  expect(verified.body).toMatchObject({ status: "1" });
  expect(await sourceShown(address)).toContain("contract Store");
  // `me` resolves for a key given this way too.
  const mine = await fetch(
    `${door.replace("/account/acme/", "/account/me/")}?apikey=${service.keys.alice}&module=contract&action=getabi&address=${address}`,
  );
  expect(mine.status).toBe(200);
  const bad = `cf_${"q".repeat(40)}`;
  for (const url of [`${door}?apikey=${bad}&module=contract&action=getabi&address=${address}`, `${door}?module=contract&action=getabi`]) {
    const refused = await fetch(url);
    const text = await refused.text();
    expect(refused.status).toBe(401);
    expect(JSON.parse(text).error.slug).toBe("unauthorized");
    expect(text).not.toContain(secret);
    expect(text).not.toContain(bad);
  }
  // Another user's key sees no vnet of acme/demo; a header that is wrong is refused even with a good apikey.
  const outsider = await fetch(`${door}?apikey=${service.keys.outsider}&module=contract&action=getabi&address=${address}`);
  expect(outsider.status).toBe(404);
  expect(await outsider.text()).not.toContain(secret);
  const wrongHeader = await fetch(`${door}?apikey=${service.keys.alice}&module=contract&action=getabi&address=${address}`, {
    headers: { "x-access-key": bad },
  });
  expect(wrongHeader.status).toBe(401);
  // A read-only member's key reads, and may not submit.
  const bobReads = await fetch(`${door}?apikey=${service.keys.bob}&module=contract&action=getabi&address=${address}`);
  expect(bobReads.status).toBe(200);
  const bobSubmits = await form(door, { ...submission(await deploy()), apikey: service.keys.bob });
  expect(bobSubmits.status).toBe(403);
}, 120_000);

test("a verifier URL of no vnet is a 404 that quotes no path; a source that differs is refused with the reason", async () => {
  const secret = `cf_${"x1".repeat(20)}`;
  const unknown = await form(`${service.baseUrl}/rpc/admin/${secret}/verify/etherscan`, {
    module: "contract",
    action: "checkverifystatus",
    guid: "x",
  });
  expect(unknown.status).toBe(404);
  expect(unknown.text).not.toContain(secret);
  const address = await deploy();
  const wrong = submission(address);
  wrong.sourceCode = JSON.stringify({ ...INPUT, sources: { "src/Store.sol": { content: SOURCE.replace("value = v", "value = v + 1") } } });
  const refused = await form(`${admin}/verify/etherscan`, wrong);
  expect(refused.status).toBe(400);
  expect(refused.body.result).toMatch(/differs from the code deployed/);
}, 120_000);

/** A JSON POST to the service under a Host header, with alice's key unless told otherwise. */
function postAs(host: string, path: string, body: unknown, key = service.keys.alice): Promise<{ status: number; text: string }> {
  const text = JSON.stringify(body);
  return postUnderHost(service, host, path, text, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-access-key": key,
  });
}

test("the older fork verifier on rpc.tenderly.co verifies on the vnet its key names; elsewhere and unknown keys are 404s quoting no path", async () => {
  const address = await deploy();
  const secret = admin.split("/").pop()!;
  const version = solc.version().split("+")[0];
  const body = {
    config: { compiler_version: version, optimizations_used: false, optimizations_count: 200 },
    contracts: [{ contractName: "Store", source: SOURCE, sourcePath: "src/Store.sol", networks: { "73599": { address } } }],
  };
  const path = `/account/acme/project/demo/fork/${secret}/verify`;
  // Only under its host: at the local base URL the path is no route.
  const local = await postAs(new URL(service.baseUrl).host, path, body);
  expect(local.status).toBe(404);
  expect(local.text).not.toContain(secret);
  const verified = await postAs("rpc.tenderly.co", path, body);
  expect(verified.status).toBe(200);
  expect(JSON.parse(verified.text)).toMatchObject({ contracts: [{ address }], bytecode_mismatch_errors: null });
  expect(await sourceShown(address)).toContain("contract Store");
  const unknown = `cf_${"z".repeat(40)}`;
  for (const [answer, status] of [
    [await postAs("rpc.tenderly.co", path.replace(secret, unknown), body), 404],
    [await postAs("rpc.tenderly.co", path, body, service.keys.outsider), 404],
    [await postAs("rpc.tenderly.co:443", `/${unknown}`, body), 404],
    [await postAs("rpc.tenderly.co", path, body, unknown), 401],
  ] as const) {
    expect(answer.status).toBe(status);
    expect(answer.text).not.toContain(unknown);
    expect(answer.text).not.toContain(secret);
  }
}, 120_000);

test("hostile bodies on the hosted registry, simulation and verification doors: a 4xx naming the problem, never a 5xx", async () => {
  const paths = [
    "/api/v1/account/acme/project/demo/address",
    "/api/v1/account/acme/project/demo/wallet",
    "/api/v1/account/acme/project/demo/tag",
    "/api/v2/account/acme/project/demo/simulations/simulate",
    "/api/v2/account/acme/project/demo/simulations/simulate/bundle",
    "/api/v1/account/acme/project/demo/contracts/encode-states",
    "/api/v1/accounts/acme/projects/demo/contracts/verify",
    `/api/v1/account/acme/project/demo/testnet/${"a".repeat(8)}/contract/0x${"1".repeat(40)}/abi`,
  ];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue(), async (path, body) => {
      const result = await call(service, "POST", path, { as: "alice", body: JSON.stringify(body) });
      expect(result.status).toBeGreaterThanOrEqual(400);
      expect(result.status).toBeLessThan(500);
      expect(typeof result.body.error.message).toBe("string");
    }),
    { numRuns: 60 },
  );
}, 180_000);
