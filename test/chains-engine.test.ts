/**
 * The anvil engine through its ChainEngine interface, on a real test host: lazy start, chain id, prefunded
 * balances, fork point, RPC access rules and records, transactions, idle stop with state kept, deletion, and no
 * orphan anvil when the service process is SIGKILLed.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { encodeFunctionData } from "./helpers/viem";
import { createAnvilBackend, BackendChainEngine, ChainRequestError, createAnvilEngine, type JsonRpcResponse } from "../lib/service/chains";
import { ETHER, TestChainHost, artifact, hex, processAlive, temporaryDataDir, waitFor } from "./chains-host";

const ALICE = "0x00000000000000000000000000000000000a11ce";
const BOB = "0x0000000000000000000000000000000000000b0b";

function result(answer: JsonRpcResponse | JsonRpcResponse[]): unknown {
  const single = answer as JsonRpcResponse;
  if ("error" in single) throw new Error(`${single.error.code} ${single.error.message}`);
  return single.result;
}

describe("anvil engine", () => {
  const dataDir = temporaryDataDir();
  const host = new TestChainHost(dataDir);
  let starts = 0;
  // What the chains report (a state not saved, a chain killed at stop): a failing assertion on a state file shows it.
  const chainLog: string[] = [];
  const record = (fields: Record<string, unknown>, message: string) => void chainLog.push(`${message} ${JSON.stringify(fields)}`);
  const backend = createAnvilBackend({ log: { error: record, warn: record, info: () => undefined } });
  const counting = { ...backend, start: (o: Parameters<typeof backend.start>[0]) => ((starts += 1), backend.start(o)) };
  const engine = new BackendChainEngine(host, counting, { idleTimeoutMs: 0 });
  const [vnet] = host.createEnvironment([
    { networkId: "1", chainId: 73571, forkBlockNumber: "0x1234", accounts: [{ address: ALICE, balance: hex(100n * ETHER) }] },
  ]);
  const rpc = (method: string, params: unknown[] = [], access: "admin" | "public" = "admin") =>
    engine.rpc(vnet.vnetId, { jsonrpc: "2.0", id: 1, method, params }, access);

  afterAll(async () => {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("starts one chain on concurrent first calls, with the chain id, balances and fork point of the spec", async () => {
    expect(engine.runningNode(vnet.vnetId)).toBeNull();
    const answers = await Promise.all([
      rpc("eth_chainId"),
      rpc("eth_getBalance", [ALICE, "latest"]),
      rpc("eth_blockNumber"),
      rpc("eth_chainId", [], "public"),
    ]);
    expect(starts).toBe(1);
    expect(answers.map(result)).toEqual([hex(73571), hex(100n * ETHER), "0x1234", hex(73571)]);
    const node = engine.runningNode(vnet.vnetId)!;
    expect(node.pids.every(processAlive)).toBe(true);
  });

  test("the Public RPC refuses cheatcodes with -32601 and unlocked sends; the Admin RPC runs them", async () => {
    const refused = (await rpc("anvil_setBalance", [BOB, "0x1"], "public")) as JsonRpcResponse;
    expect(refused).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32601 } });
    const tenderly = (await rpc("tenderly_setBalance", [BOB, "0x1"], "public")) as JsonRpcResponse;
    expect(tenderly).toMatchObject({ error: { code: -32601 } });
    const send = (await rpc("eth_sendTransaction", [{ from: ALICE, to: BOB, value: "0x1" }], "public")) as JsonRpcResponse;
    expect(send).toMatchObject({ error: { code: -32000 } });
    expect(result(await rpc("eth_getBalance", [BOB, "latest"], "public"))).toBe("0x0");

    expect(result(await rpc("tenderly_setBalance", [BOB, hex(5n * ETHER)]))).toBeNull();
    expect(result(await rpc("eth_getBalance", [BOB, "latest"], "public"))).toBe(hex(5n * ETHER));
    const carol = "0x00000000000000000000000000000000000ca201";
    expect(result(await rpc("tenderly_setBalance", [[carol, BOB], hex(7n)]))).toBeNull();
    expect(result(await rpc("eth_getBalance", [carol, "latest"]))).toBe("0x7");

    const cheatcodes = host.transactions(vnet.vnetId).filter((t) => t.kind === "cheatcode");
    expect(cheatcodes.map((t) => [t.to, Buffer.from(t.input.slice(2), "hex").toString()])).toEqual([
      [BOB, JSON.stringify({ method: "tenderly_setBalance", params: [BOB, hex(5n * ETHER)] })],
      [carol, JSON.stringify({ method: "tenderly_setBalance", params: [[carol, BOB], "0x7"] })],
    ]);
    expect(new Set(cheatcodes.map((t) => t.tx_hash)).size).toBe(2);
  });

  test("batches keep order and ids, refusing per entry", async () => {
    const answers = (await engine.rpc(
      vnet.vnetId,
      [
        { jsonrpc: "2.0", id: "a", method: "eth_chainId" },
        { jsonrpc: "2.0", id: 7, method: "evm_snapshot" },
        { jsonrpc: "2.0", id: "c", method: "net_version" },
      ],
      "public",
    )) as JsonRpcResponse[];
    expect(answers.map((a) => a.id)).toEqual(["a", 7, "c"]);
    expect(answers[0]).toMatchObject({ result: hex(73571) });
    expect(answers[1]).toMatchObject({ error: { code: -32601 } });
    expect(answers[2]).toMatchObject({ result: "73571" });
  });

  test("transactions sent through the RPC and the API are mined and recorded", async () => {
    const hash = result(await rpc("eth_sendTransaction", [{ from: ALICE, to: BOB, value: hex(ETHER) }])) as string;
    const viaRpc = host.transactions(vnet.vnetId).find((t) => t.tx_hash === hash)!;
    expect(viaRpc).toMatchObject({
      from: ALICE,
      to: BOB,
      value: hex(ETHER),
      status: "success",
      category: "write",
      kind: "blockchain",
      origin: "rpc",
      rpc_method: "eth_sendTransaction",
      reverted: false,
      error_reason: null,
      gas_used: "0x5208",
    });
    expect(viaRpc.block_number).toBe("0x1235");

    const token = artifact("ProbeToken");
    const deployed = await engine.sendTransaction(vnet.vnetId, { from: ALICE, data: token.bytecode });
    expect(deployed).toMatchObject({ kind: "blockchain", origin: "api", to: null, status: "success", category: "write" });
    expect(deployed.contract_address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(result(await rpc("eth_getCode", [deployed.contract_address, "latest"], "public"))).toBe(token.deployedBytecode);

    // mint(BOB, 5): selector + args
    const mint = await engine.sendTransaction(vnet.vnetId, {
      from: ALICE,
      to: deployed.contract_address!,
      data: encodeFunctionData({ abi: token.abi, functionName: "mint", args: [BOB, 5n] }),
    });
    expect(mint.logs).toEqual([
      {
        anonymous: false,
        name: "Transfer",
        inputs: [
          { name: "from", type: "address", value: "0x0000000000000000000000000000000000000000" },
          { name: "to", type: "address", value: BOB },
          { name: "value", type: "uint256", value: "5" },
        ],
        raw: expect.objectContaining({ address: deployed.contract_address }),
      },
    ]);

    const failed = await engine.sendTransaction(vnet.vnetId, {
      from: ALICE,
      to: deployed.contract_address!,
      data: encodeFunctionData({ abi: token.abi, functionName: "transfer", args: [BOB, 1n] }),
    });
    expect(failed.status).toBe("failed");
    expect(host.transactions(vnet.vnetId).map((t) => t.tx_hash)).toContain(failed.tx_hash);
  });

  // anvil prints each call's method on its stdout, read by the service only to drop it: a write for anvil and a
  // wake-up for the service per call. The backend turns that log off; anvil's write count shows it (Linux's /proc).
  (existsSync("/proc/self/io") ? test : test.skip)("anvil writes only its answers: no log line per call", async () => {
    await rpc("eth_chainId");
    const io = `/proc/${engine.runningNode(vnet.vnetId)!.pids[1]}/io`;
    const writes = () => Number(/^syscw: (\d+)$/m.exec(readFileSync(io, "utf8"))![1]);
    const calls = 200;
    const before = writes();
    for (let i = 0; i < calls; i += 1) expect(result(await rpc("eth_blockNumber"))).toMatch(/^0x/);
    // One write per answer; a log line per call would make it two.
    expect(writes() - before).toBeLessThan(calls * 1.5);
  });

  test("an unknown vnet is a 404", async () => {
    await expect(
      engine.rpc("0b6a1c2e-0000-4000-8000-000000000000", { jsonrpc: "2.0", id: 1, method: "eth_chainId" }, "admin"),
    ).rejects.toMatchObject({
      status: 404,
    });
    await expect(engine.simulateOnVnet("0b6a1c2e-0000-4000-8000-000000000000", {})).rejects.toBeInstanceOf(ChainRequestError);
  });

  test("destroying a vnet kills its processes and deletes its state", async () => {
    const [other] = host.createEnvironment([{ networkId: "10" }]);
    await engine.rpc(other.vnetId, { jsonrpc: "2.0", id: 1, method: "eth_chainId" }, "admin");
    const pids = engine.runningNode(other.vnetId)!.pids;
    await engine.close();
    expect(pids.some(processAlive)).toBe(false);
    expect({ saved: existsSync(join(dataDir, "chains", `${other.vnetId}.json`)), chainLog }).toEqual({ saved: true, chainLog: [] });
    const again = createAnvilEngine(host, { idleTimeoutMs: 0 });
    try {
      await again.rpc(other.vnetId, { jsonrpc: "2.0", id: 1, method: "eth_chainId" }, "admin");
      const restarted = again.runningNode(other.vnetId)!.pids;
      host.deleteVnets([other.vnetId]);
      await again.destroyVnets([other.vnetId]);
      expect(restarted.some(processAlive)).toBe(false);
      expect(existsSync(join(dataDir, "chains", `${other.vnetId}.json`))).toBe(false);
      await expect(again.rpc(other.vnetId, { jsonrpc: "2.0", id: 1, method: "eth_chainId" }, "admin")).rejects.toMatchObject({
        status: 404,
      });
    } finally {
      await again.close();
    }
  });
});

describe("anvil engine lifecycle", () => {
  test("an idle chain stops with its state kept, and starts again on the next call", async () => {
    const dataDir = temporaryDataDir();
    const host = new TestChainHost(dataDir);
    const engine = createAnvilEngine(host, { idleTimeoutMs: 150 });
    const [vnet] = host.createEnvironment([{ networkId: "1", chainId: 901 }]);
    try {
      const call = (method: string, params: unknown[] = []) => engine.rpc(vnet.vnetId, { jsonrpc: "2.0", id: 1, method, params }, "admin");
      await call("anvil_setBalance", [BOB, "0x2a"]);
      await call("evm_mine");
      const pids = engine.runningNode(vnet.vnetId)!.pids;
      // No deadline of ours: the idle stop happens whenever the (re-armed) timer finds the chain idle; only jest's own
      // timeout bounds the wait, so a loaded machine makes the test slower, never wrong.
      await waitFor(() => engine.runningNode(vnet.vnetId) === null, 55_000, "the idle stop");
      await waitFor(() => !pids.some(processAlive), 55_000, "the processes to exit");
      expect(result(await call("eth_getBalance", [BOB, "latest"]))).toBe("0x2a");
      expect(result(await call("eth_blockNumber"))).toBe("0x1");
      expect(engine.runningNode(vnet.vnetId)!.pids[0]).not.toBe(pids[0]);
    } finally {
      await engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("an in-memory host's chains live in a temporary directory removed on close", async () => {
    const host = new TestChainHost(null);
    const engine = createAnvilEngine(host);
    const [vnet] = host.createEnvironment([{ networkId: "1" }]);
    await engine.rpc(vnet.vnetId, { jsonrpc: "2.0", id: 1, method: "eth_chainId" }, "admin");
    const dir = (engine as unknown as { chainsDir: string }).chainsDir;
    expect(existsSync(dir)).toBe(true);
    await engine.close();
    expect(existsSync(dir)).toBe(false);
  });

  test("no anvil outlives a SIGKILLed service process", async () => {
    const dataDir = temporaryDataDir();
    const child = spawn(process.execPath, ["--import", "tsx", join(__dirname, "chains-sigkill-child.ts"), dataDir], {
      stdio: ["ignore", "pipe", "inherit"],
      cwd: join(__dirname, ".."),
    });
    const pids = await new Promise<number[]>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const line = out.split("\n").find((l) => l.startsWith("{"));
        if (line) resolve(JSON.parse(line).pids as number[]);
      });
      child.once("exit", (code) => reject(new Error(`child exited early (${code})`)));
    });
    expect(pids).toHaveLength(4); // two chains, supervisor + anvil each
    expect(pids.every(processAlive)).toBe(true);
    child.kill("SIGKILL");
    await waitFor(() => !pids.some(processAlive), 50_000, "every anvil and supervisor to exit"); // a bound for a hang, not a timing check
    rmSync(dataDir, { recursive: true, force: true });
  });
});
