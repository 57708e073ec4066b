/**
 * Helpers of the fixture tests (test/fixtures-*.test.ts): an environment with a contract deployed, written to and
 * verified through the service's own API and explorer; what its chains and records say, to compare two
 * environments; and the export, import and clone calls over HTTP.
 */
import { adminRpc, call, rpc } from "./http";
import type { TestService } from "./service";

/** The environments path of the default project. */
export const ENVIRONMENTS = "/public/v1/account/acme/project/demo/environments";

/** An account funded in every environment the tests create. */
export const DEPLOYER = "0x00000000000000000000000000000000000a11ce";

/** A contract with storage to compare: `value` (slot 0) starts at 42, `set` changes it and counts calls in slot 1. */
export const STORE_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Store {
  uint256 public value = 42;
  uint256 public calls;
  function set(uint256 v) external { value = v; calls += 1; }
}`;

let compiled: { bytecode: string; version: string } | undefined;

/** The Store contract compiled by the solc-js chainform verifies with (so that it verifies). */
export function storeContract(): { bytecode: string; version: string } {
  if (!compiled) {
    const solc = require("solc") as { compile(input: string): string; version(): string };
    const output = JSON.parse(solc.compile(JSON.stringify(storeInput()))) as {
      contracts: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
    };
    compiled = {
      bytecode: `0x${output.contracts["store.sol"].Store.evm.bytecode.object}`,
      version: `v${solc.version().replace(".Emscripten.clang", "")}`,
    };
  }
  return compiled;
}

/** The standard JSON input of the Store contract. */
export function storeInput(): Record<string, unknown> {
  return {
    language: "Solidity",
    sources: { "store.sol": { content: STORE_SOURCE } },
    settings: { optimizer: { enabled: false, runs: 200 }, outputSelection: { "*": { "*": ["evm.bytecode.object"] } } },
  };
}

/** A created environment as the API answers it (the fields the tests read). */
export interface CreatedEnvironment {
  readonly id: string;
  readonly slug: string;
  readonly display_name: string;
  readonly active_instance: {
    readonly id: string;
    readonly vnets: readonly {
      readonly id: string;
      readonly explorer_url?: string;
      readonly rpcs: readonly { name: string; url: string }[];
    }[];
  };
}

/** Sends a transaction through the Admin RPC URL (auto-impersonated) and waits for its receipt. */
export async function send(url: string, tx: Record<string, string>): Promise<{ contractAddress: string | null; status: string }> {
  const hash = await rpc<string>(url, "eth_sendTransaction", [{ from: DEPLOYER, gas: "0x1e8480", ...tx }]);
  for (;;) {
    const receipt = await rpc<{ contractAddress: string | null; status: string } | null>(url, "eth_getTransactionReceipt", [hash]);
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Calldata of `set(v)`. */
export function setCall(v: number): string {
  // keccak256("set(uint256)")[0..4] = 0x60fe47b1
  return `0x60fe47b1${v.toString(16).padStart(64, "0")}`;
}

/** Creates an environment on `networks` with the deployer funded and the explorer on. */
export async function createEnvironment(
  service: TestService,
  displayName: string,
  networks: readonly { network_id: string; chain_id?: string }[],
): Promise<CreatedEnvironment> {
  const created = await call(service, "POST", ENVIRONMENTS, {
    as: "alice",
    body: {
      display_name: displayName,
      network_configs: networks.map((n) => ({
        network_id: n.network_id,
        ...(n.chain_id && { chain_config_overrides: { chain_id: n.chain_id } }),
        accounts: [{ address: DEPLOYER, balance: "0x56bc75e2d63100000" }],
        explorer_config: { enabled: true, verification_visibility: "source" },
      })),
    },
  });
  if (created.status !== 200) throw new Error(`create: ${created.status} ${created.text}`);
  return created.body as CreatedEnvironment;
}

/**
 * Deploys Store on a vnet through the API's transactions endpoint (a record), calls `set(v)` through the Admin RPC
 * (a record too), and returns its address.
 */
export async function deployStore(service: TestService, environment: CreatedEnvironment, index: number, v: number): Promise<string> {
  const vnet = environment.active_instance.vnets[index];
  const sent = await call(
    service,
    "POST",
    `${ENVIRONMENTS}/${environment.id}/instance/${environment.active_instance.id}/vnet/${vnet.id}/transactions`,
    {
      as: "alice",
      body: { callArgs: { from: DEPLOYER, data: storeContract().bytecode } },
    },
  );
  if (sent.status !== 200) throw new Error(`deploy: ${sent.status} ${sent.text}`);
  const address = (sent.body as { contract_address: string }).contract_address;
  await send(adminRpc(environment, index), { to: address, data: setCall(v) });
  return address;
}

/** Verifies Store at an address through a vnet's explorer API, waiting for the verdict. */
export async function verifyStore(environment: CreatedEnvironment, index: number, address: string): Promise<void> {
  const api = `${environment.active_instance.vnets[index].explorer_url}/api`;
  const submitted = (await (
    await fetch(api, {
      method: "POST",
      body: new URLSearchParams({
        module: "contract",
        action: "verifysourcecode",
        contractaddress: address,
        codeformat: "solidity-standard-json-input",
        contractname: "store.sol:Store",
        compilerversion: storeContract().version,
        sourceCode: JSON.stringify(storeInput()),
      }),
    })
  ).json()) as { status: string; result: string };
  if (submitted.status !== "1") throw new Error(`verify: ${submitted.result}`);
  for (;;) {
    const status = (await (await fetch(`${api}?module=contract&action=checkverifystatus&guid=${submitted.result}`)).json()) as {
      result: string;
    };
    if (status.result.startsWith("Pass")) return;
    if (!/pending/i.test(status.result)) throw new Error(`verify: ${status.result}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What a vnet's chain says about the deployer and some contracts: the things an import must keep. */
export async function chainFacts(url: string, contracts: readonly string[]): Promise<Record<string, unknown>> {
  const facts: Record<string, unknown> = {
    chainId: await rpc(url, "eth_chainId"),
    blockNumber: await rpc(url, "eth_blockNumber"),
    balance: await rpc(url, "eth_getBalance", [DEPLOYER, "latest"]),
    nonce: await rpc(url, "eth_getTransactionCount", [DEPLOYER, "latest"]),
  };
  for (const address of contracts) {
    facts[address] = {
      code: await rpc(url, "eth_getCode", [address, "latest"]),
      slot0: await rpc(url, "eth_getStorageAt", [address, "0x0", "latest"]),
      slot1: await rpc(url, "eth_getStorageAt", [address, "0x1", "latest"]),
    };
  }
  return facts;
}

/** An environment's transaction records, without what an import renews (record ids, vnet ids, dashboard URLs). */
export async function recordsOf(service: TestService, environment: CreatedEnvironment): Promise<unknown[]> {
  const listed = await call(
    service,
    "GET",
    `${ENVIRONMENTS}/${environment.id}/instance/${environment.active_instance.id}/transactions?perPage=100`,
    {
      as: "alice",
    },
  );
  if (listed.status !== 200) throw new Error(`transactions: ${listed.status} ${listed.text}`);
  const ids = environment.active_instance.vnets.map((v) => v.id);
  return (listed.body as Record<string, unknown>[]).map((r) => {
    const { id: _id, dashboard_url: _url, vnet_id, ...rest } = r;
    return { ...rest, vnet: ids.indexOf(vnet_id as string) };
  });
}

/** The source the explorer's API gives for a verified contract. */
export async function verifiedSource(environment: CreatedEnvironment, index: number, address: string): Promise<unknown> {
  const api = `${environment.active_instance.vnets[index].explorer_url}/api`;
  return ((await (await fetch(`${api}?module=contract&action=getsourcecode&address=${address}`)).json()) as { result: unknown }).result;
}

/** `GET .../export`: the fixture's bytes. */
export async function exportFixture(service: TestService, environmentId: string): Promise<Buffer> {
  const response = await fetch(`${service.baseUrl}${ENVIRONMENTS}/${environmentId}/export`, { headers: service.headersOf("alice") });
  if (response.status !== 200) throw new Error(`export: ${response.status} ${await response.text()}`);
  return Buffer.from(await response.arrayBuffer());
}

/** `POST .../import` with a file: the status and the parsed answer. */
export async function importFixture(
  service: TestService,
  bytes: Buffer | Uint8Array,
  query: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const search = new URLSearchParams(query).toString();
  const response = await fetch(`${service.baseUrl}${ENVIRONMENTS}/import${search ? `?${search}` : ""}`, {
    method: "POST",
    headers: { ...service.headersOf("alice"), "content-type": "application/octet-stream" },
    body: bytes,
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? "" : JSON.parse(text) };
}
