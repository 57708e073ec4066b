/**
 * The explorer's Etherscan-compatible API against hostile submissions, over HTTP against the local service with an
 * anvil chain: JSON nested beyond a depth inside `settings` or a source entry is a 400 (not a 500); settings that only
 * cost compile time (`modelChecker`, `stopAfter`) are refused; the compiler version must be exact and bounded; NUL in
 * a contract name or a source name is refused; every answer is JSON with nosniff and never quotes the refused input.
 */
import { loadArtifact } from "../lib/service/chains/evm/artifacts";
import { call } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";

jest.setTimeout(180_000);

const DEPLOYER = "0x00000000000000000000000000000000000a11ce";
const MARK = "<script>x</script>";
const VERSION = "v0.8.37+commit.f401782d";
const SOURCE = "pragma solidity ^0.8.0;\ncontract C { function one() external pure returns (uint) { return 1; } }";

let service: TestService;
let apiUrl: string;
let contract: string;

beforeAll(async () => {
  service = await startTestService();
  const created = await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
    as: "alice",
    body: {
      display_name: "Verify",
      network_configs: [
        { network_id: "1", accounts: [{ address: DEPLOYER, balance: "0x56bc75e2d63100000" }], explorer_config: { enabled: true } },
      ],
    },
  });
  expect(created.status).toBe(200);
  const vnet = created.body.active_instance.vnets[0] as { explorer_url: string; rpcs: { name: string; url: string }[] };
  apiUrl = `${vnet.explorer_url}/api`;
  const admin = vnet.rpcs.find((r) => r.name === "Admin RPC")!.url;
  const rpc = async <T>(method: string, params: unknown[]): Promise<T> => {
    const answer = (await (
      await fetch(admin, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      })
    ).json()) as { result: T };
    return answer.result;
  };
  const hash = await rpc<string>("eth_sendTransaction", [
    { from: DEPLOYER, data: (await loadArtifact("ProbeToken")).bytecode, gas: "0x1e8480" },
  ]);
  let receipt: { contractAddress: string } | null = null;
  while (!receipt) receipt = await rpc<{ contractAddress: string } | null>("eth_getTransactionReceipt", [hash]);
  contract = receipt.contractAddress;
});

afterAll(() => service?.close());

async function submit(
  fields: Record<string, string>,
): Promise<{ status: number; headers: Headers; body: { status: string; result: string }; text: string }> {
  const response = await fetch(apiUrl, {
    method: "POST",
    body: new URLSearchParams({
      module: "contract",
      action: "verifysourcecode",
      contractaddress: contract,
      codeformat: "solidity-standard-json-input",
      contractname: "c.sol:C",
      compilerversion: VERSION,
      sourceCode: JSON.stringify({ language: "Solidity", sources: { "c.sol": { content: SOURCE } } }),
      ...fields,
    }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

const NESTED = "@nested@";
/** A placeholder for JSON nested `depth` levels deep (written as text: JSON.stringify itself overflows the stack). */
const nested = (depth: number) => `${NESTED}${depth}`;
const input = (extra: { settings?: unknown; sources?: unknown }) =>
  JSON.stringify({
    language: "Solidity",
    sources: extra.sources ?? { "c.sol": { content: SOURCE } },
    ...(extra.settings ? { settings: extra.settings } : {}),
  }).replace(new RegExp(`"${NESTED}(\\d+)"`, "g"), (_, depth: string) => `${"[".repeat(Number(depth))}${"]".repeat(Number(depth))}`);

test("JSON nested beyond a depth inside settings or a source entry is a 400 that says so", async () => {
  for (const [sourceCode, message] of [
    [input({ settings: { optimizer: { details: nested(100_000) } } }), "sourceCode.settings is nested deeper than 32 levels"],
    [input({ settings: { metadata: nested(40) } }), "sourceCode.settings is nested deeper than 32 levels"],
    [input({ sources: { "c.sol": { content: SOURCE, urls: nested(100_000) } } }), "a source entry is nested deeper than 32 levels"],
  ] as const) {
    const answer = await submit({ sourceCode });
    expect([answer.status, answer.body.status]).toEqual([400, "0"]);
    expect(answer.body.result).toContain(message);
  }
});

test("settings that only cost compile time are refused; the allowed ones still compile", async () => {
  for (const settings of [
    { modelChecker: { engine: "all", timeout: 0 } },
    { stopAfter: "parsing" },
    { optimizer: { enabled: false }, modelChecker: {} },
  ]) {
    const answer = await submit({ sourceCode: input({ settings }) });
    expect([answer.status, answer.body.result]).toEqual([
      400,
      expect.stringContaining("sourceCode.settings may hold only remappings, optimizer"),
    ]);
  }
  // Allowed settings reach the compiler: the source compiles and is compared (it is not the deployed contract).
  const compared = await submit({ sourceCode: input({ settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun" } }) });
  expect([compared.status, compared.body.result]).toEqual([400, expect.stringContaining("differs from the code deployed")]);
});

test("the compiler version must be exact and short; NUL is refused in names", async () => {
  for (const compilerversion of [`${VERSION}${"x".repeat(20_000)}`, `${VERSION}.Linux.g++`, "v0.8.37", `${VERSION}\u0000`]) {
    const answer = await submit({ compilerversion });
    expect([answer.status, answer.body.result]).toEqual([400, expect.stringMatching(/longer than 512 characters|exact solc version/)]);
    expect(answer.text).not.toContain("xxxxxxxxxx");
  }
  // A release nobody installed: the answer says the exact command that installs it.
  const missing = await submit({ compilerversion: "v0.4.26+commit.4563c3fc" });
  expect([missing.status, missing.body.result]).toEqual([400, expect.stringContaining("npm install -D solc-0.4.26@npm:solc@0.4.26")]);
  // The release installed, another commit: the answer names the one installed.
  const otherCommit = await submit({ compilerversion: `${VERSION.split("+")[0]}+commit.00000000` });
  expect([otherCommit.status, otherCommit.body.result]).toEqual([400, expect.stringContaining(`compilerversion=${VERSION}`)]);
  const bare = await submit({ compilerversion: VERSION.slice(1) }); // without the v: the same exact version
  expect(bare.body.result).toContain("differs from the code deployed");

  const nulName = await submit({ contractname: "c.sol:C\u0000" });
  expect([nulName.status, nulName.body.result]).toEqual([400, expect.stringContaining("control characters (NUL included)")]);
  const nulSource = await submit({ contractname: "c\u0000.sol:C", sourceCode: input({ sources: { "c\u0000.sol": { content: SOURCE } } }) });
  expect([nulSource.status, nulSource.body.result]).toEqual([400, expect.stringContaining("control character (NUL included)")]);
});

test("every answer is JSON with nosniff and quotes none of the refused input", async () => {
  const answers = [
    await submit({ module: MARK }),
    await submit({ action: MARK }),
    await submit({ codeformat: MARK }),
    await submit({ contractaddress: MARK }),
    await submit({ contractname: `${MARK}:C` }),
    await submit({ contractname: `c.sol:${MARK}` }),
    await submit({ compilerversion: MARK }),
    await submit({ sourceCode: `{${MARK}` }),
    await submit({ action: "checkverifystatus", guid: MARK }),
    await submit({ action: "getabi", address: contract }),
  ];
  for (const answer of answers) {
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.text).not.toContain("<script>");
    expect(answer.text).not.toContain("\\u003cscript");
  }
  expect(answers.slice(0, -1).map((a) => a.status)).toEqual(Array(9).fill(400));
  const get = await call(service, "GET", `/explorer/nothing/api?module=${encodeURIComponent(MARK)}`);
  expect(get.headers.get("x-content-type-options")).toBe("nosniff");
});
