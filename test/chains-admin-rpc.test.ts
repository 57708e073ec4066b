/**
 * The real service's Admin RPC methods (docs/admin-rpc.md) through a local service's Admin RPC URL, called by two
 * clients we did not write: viem, and Foundry's `cast` (from @foundry-rs/cast). ERC-20 balances are set on
 * contracts/ChainformToken.sol, whose balance mapping is at storage slot 5, not 0.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { createPublicClient, createWalletClient, http, parseEther, type Hex } from "./helpers/viem";
import type { Environment } from "../lib/api";
import { artifact } from "./chains-host";
import { startTestService, type TestService } from "./helpers/service";

/**
 * The platform package's binary: the `cast` wrapper script of @foundry-rs/cast 1.7.1 exits 0 whatever cast
 * returns, so a failing call would look like a success through it.
 */
const CAST = join(
  require.resolve(
    `@foundry-rs/cast-${process.platform === "win32" ? "win32" : process.platform}-${process.arch === "x64" ? "amd64" : process.arch}/package.json`,
  ),
  "..",
  "bin",
  "cast",
);
const DEPLOYER = "0x00000000000000000000000000000000c0ffee01";
const ALICE = "0x00000000000000000000000000000000000a11ce";
const BOB = "0x0000000000000000000000000000000000000b0b";
const CAROL = "0x00000000000000000000000000000000000ca201";
const MAX_UINT256 = (1n << 256n) - 1n;
const tokenArtifact = artifact("ChainformToken");

let service: TestService;
let environment: Environment;
let adminUrl: string;
let token: Hex;

const client = () => createPublicClient({ transport: http(adminUrl) });
/** One Admin RPC call; resolves to its result or rejects with the JSON-RPC error. */
const admin = (method: string, params: unknown[]) =>
  client().request({ method: method as "eth_chainId", params: params as never }) as Promise<unknown>;
/** The JSON-RPC error of a call that must fail. */
async function rpcError(method: string, params: unknown[]): Promise<{ code: number; message: string }> {
  const response = await fetch(adminUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { error?: { code: number; message: string } };
  if (!body.error) throw new Error(`${method} succeeded: ${JSON.stringify(body)}`);
  return body.error;
}
const balanceOf = (holder: string) =>
  client().readContract({ address: token, abi: tokenArtifact.abi, functionName: "balanceOf", args: [holder] }) as Promise<bigint>;
const cast = async (...args: string[]) => (await promisify(execFile)(CAST, args, { timeout: 60_000 })).stdout.trim();
const latest = () => client().getBlock({ blockTag: "latest" });

beforeAll(async () => {
  service = await startTestService();
  const response = await fetch(`${service.baseUrl}/public/v1/account/${service.accountSlug}/project/${service.projectSlug}/environments`, {
    method: "POST",
    headers: { ...service.headersOf("alice"), "content-type": "application/json" },
    body: JSON.stringify({
      display_name: "admin rpc",
      network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: "73572" } }],
    }),
  });
  environment = (await response.json()) as Environment;
  adminUrl = environment.active_instance.vnets[0].rpcs.find((r) => r.name === "Admin RPC")!.url;
  // eth_sendTransaction from an address nobody holds the key of: the Admin RPC impersonates any sender.
  await admin("tenderly_setBalance", [DEPLOYER, "0x56bc75e2d63100000"]);
  const wallet = createWalletClient({ account: DEPLOYER, transport: http(adminUrl) });
  const hash = await wallet.deployContract({
    abi: tokenArtifact.abi,
    bytecode: tokenArtifact.bytecode,
    args: ["Chainform Token", "CFT", 18, 1000n],
    chain: null,
  });
  const receipt = await client().waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  token = receipt.contractAddress!;
});
afterAll(async () => {
  await service?.close();
});

describe("viem", () => {
  test("tenderly_setErc20Balance sets a balance held at slot 5 for one wallet or a list, without touching others", async () => {
    expect(await balanceOf(DEPLOYER)).toBe(1000n);
    expect(await admin("tenderly_setErc20Balance", [token, ALICE, "0xde0b6b3a7640000"])).toBeNull();
    expect(await balanceOf(ALICE)).toBe(parseEther("1"));
    await admin("tenderly_setErc20Balance", [token, [BOB, CAROL], "0x2a"]);
    expect([await balanceOf(BOB), await balanceOf(CAROL), await balanceOf(DEPLOYER)]).toEqual([42n, 42n, 1000n]);
    // The slot the balance sits in: keccak256(holder . 5), as solc lays out `balanceOf` after five other variables.
    const slot = await client().getStorageAt({ address: token, slot: mappingSlot(ALICE, 5n) });
    expect(BigInt(slot!)).toBe(parseEther("1"));
  });

  test("tenderly_addErc20Balance adds and tenderly_setMaxErc20Balance sets 2^256 - 1", async () => {
    await admin("tenderly_addErc20Balance", [token, [BOB, CAROL], "0x8"]);
    expect([await balanceOf(BOB), await balanceOf(CAROL)]).toEqual([50n, 50n]);
    await admin("tenderly_setMaxErc20Balance", [token, CAROL]);
    expect(await balanceOf(CAROL)).toBe(MAX_UINT256);
    expect((await rpcError("tenderly_addErc20Balance", [token, CAROL, "0x1"])).message).toMatch(/exceed 2\^256 - 1/);
  });

  test("a non-token address fails with -32602 saying it is not an ERC-20 token", async () => {
    expect(await rpcError("tenderly_setErc20Balance", [ALICE, BOB, "0x1"])).toEqual({
      code: -32602,
      message: `${ALICE} is not an ERC-20 token: it has no code (an account, or nothing deployed there yet)`,
    });
    await admin("tenderly_setCode", [CAROL, "0x6001600055"]); // code without balanceOf: stores 1 and stops
    expect(await rpcError("tenderly_setErc20Balance", [CAROL, BOB, "0x1"])).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/is not an ERC-20 token: balanceOf\(address\) returned 0x/),
    });
    expect(await rpcError("tenderly_setErc20Balance", [token, BOB])).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/expected 3 params/),
    });
    expect(await rpcError("tenderly_setErc20Balance", [token, "0x12", "0x1"])).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/params\[1\] must be an address/),
    });
  });

  test("native balances for one address or a list; storage, code and nonce", async () => {
    const dave = "0x000000000000000000000000000000000000da7e";
    await admin("tenderly_setBalance", [[ALICE, dave], "0x64"]);
    await admin("tenderly_addBalance", [[ALICE, dave], "0x1"]);
    expect([await client().getBalance({ address: ALICE }), await client().getBalance({ address: dave })]).toEqual([101n, 101n]);
    await admin("tenderly_setStorageAt", [dave, "0x7", "0x2a"]);
    expect(await client().getStorageAt({ address: dave, slot: "0x7" })).toBe(`0x${"2a".padStart(64, "0")}`);
    await admin("tenderly_setCode", [dave, "0x00"]);
    expect(await client().getCode({ address: dave })).toBe("0x00");
    await admin("tenderly_setNonce", [dave, "0x9"]);
    expect(await client().getTransactionCount({ address: dave })).toBe(9);
  });

  test("evm_increaseBlocks mines that many blocks; evm_increaseTime and evm_setNextBlockTimestamp mine one", async () => {
    const before = await latest();
    const hash = await admin("evm_increaseBlocks", ["0x20"]);
    const after = await latest();
    expect(after.number).toBe(before.number + 32n);
    expect(hash).toBe(after.hash);

    const increased = await admin("evm_increaseTime", ["0x15180"]);
    const day = await latest();
    expect(increased).toBe(day.hash);
    expect(day.number).toBe(after.number + 1n);
    expect(day.timestamp).toBeGreaterThanOrEqual(after.timestamp + 86_400n);

    const target = Number(day.timestamp) + 1_000_000;
    expect(await admin("evm_setNextBlockTimestamp", [String(target)])).toBe(target);
    expect(await latest()).toMatchObject({ number: day.number + 1n, timestamp: BigInt(target) });
  });

  test("tenderly_setNextBlockTimestamp mines nothing; the next block has that time", async () => {
    const before = await latest();
    await admin("tenderly_setBalance", [ALICE, "0xde0b6b3a7640000"]);
    const target = Number(before.timestamp) + 500;
    expect(await admin("tenderly_setNextBlockTimestamp", [`0x${target.toString(16)}`])).toBe(target);
    expect((await latest()).number).toBe(before.number);
    const wallet = createWalletClient({ account: ALICE, transport: http(adminUrl) });
    const hash = await wallet.sendTransaction({ to: BOB, value: 1n, chain: null });
    const receipt = await client().waitForTransactionReceipt({ hash });
    expect((await client().getBlock({ blockNumber: receipt.blockNumber })).timestamp).toBe(BigInt(target));
  });

  test("evm_mine takes nothing, a timestamp, or { blocks }", async () => {
    const start = (await latest()).number;
    await admin("evm_mine", []);
    await admin("evm_mine", [{ blocks: 3 }]);
    expect((await latest()).number).toBe(start + 4n);
    expect((await rpcError("evm_mine", ["later"])).code).toBe(-32602);
  });

  test("evm_snapshot and evm_revert restore token balances and the block number", async () => {
    const id = (await admin("evm_snapshot", [])) as string;
    const height = (await latest()).number;
    await admin("tenderly_setErc20Balance", [token, ALICE, "0x1"]);
    await admin("evm_increaseBlocks", ["0x3"]);
    expect(await balanceOf(ALICE)).toBe(1n);
    expect(await admin("evm_revert", [id])).toBe(true);
    expect(await balanceOf(ALICE)).toBe(parseEther("1"));
    expect((await latest()).number).toBe(height);
    // The same id again, as a test suite reverting before each test does.
    await admin("tenderly_setErc20Balance", [token, ALICE, "0x2"]);
    expect(await admin("evm_revert", [id])).toBe(true);
    expect(await balanceOf(ALICE)).toBe(parseEther("1"));
  });
});

describe("cast", () => {
  test("sets and reads an ERC-20 balance, mines blocks, and sends from an impersonated address", async () => {
    const erin = "0x00000000000000000000000000000000000e4140";
    expect(await cast("rpc", "--rpc-url", adminUrl, "tenderly_setErc20Balance", token, erin, "0x3e8")).toBe("null");
    expect(await cast("call", token, "balanceOf(address)(uint256)", erin, "--rpc-url", adminUrl)).toBe("1000");

    const before = Number(await cast("block-number", "--rpc-url", adminUrl));
    await cast("rpc", "--rpc-url", adminUrl, "evm_increaseBlocks", "0x5");
    expect(Number(await cast("block-number", "--rpc-url", adminUrl))).toBe(before + 5);

    await cast("rpc", "--rpc-url", adminUrl, "tenderly_setBalance", erin, "0xde0b6b3a7640000");
    // erin holds no key: --unlocked sends eth_sendTransaction, which the Admin RPC accepts from any address.
    await cast("send", token, "transfer(address,uint256)", BOB, "400", "--from", erin, "--unlocked", "--rpc-url", adminUrl);
    expect(await cast("call", token, "balanceOf(address)(uint256)", erin, "--rpc-url", adminUrl)).toBe("600");

    const id = await cast("rpc", "--rpc-url", adminUrl, "evm_snapshot");
    await cast("rpc", "--rpc-url", adminUrl, "tenderly_setMaxErc20Balance", token, erin);
    expect(BigInt((await cast("call", token, "balanceOf(address)(uint256)", erin, "--rpc-url", adminUrl)).split(" ")[0])).toBe(MAX_UINT256);
    expect(await cast("rpc", "--rpc-url", adminUrl, "evm_revert", JSON.parse(id))).toBe("true");
    expect(await cast("call", token, "balanceOf(address)(uint256)", erin, "--rpc-url", adminUrl)).toBe("600");

    const error = await cast("rpc", "--rpc-url", adminUrl, "tenderly_setErc20Balance", erin, BOB, "0x1").then(
      (stdout) => `succeeded: ${stdout}`,
      (e: { stdout: string; stderr: string }) => `${e.stdout}${e.stderr}`,
    );
    expect(error).toMatch(/is not an ERC-20 token/);
  });
});

function mappingSlot(holder: string, index: bigint): Hex {
  const { keccak256 } = require("viem") as { keccak256: (hex: Hex) => Hex };
  return keccak256(`0x${holder.slice(2).padStart(64, "0")}${index.toString(16).padStart(64, "0")}`);
}
