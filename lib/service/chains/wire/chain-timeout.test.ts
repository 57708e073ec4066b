/**
 * The deadline of a call to a chain, on each way a call goes (./chain-timeout.ts): the shared IPC socket, the
 * pass-through sockets (IPC and HTTP, a wait for a free socket included) and the undici pool, against servers of our
 * own that take a call and never answer, as a stopped anvil does. Each fails with `ChainTimeoutError` naming the
 * setting, tells `onTimeout`, and the next call still works once the server answers.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChainSocketPool, CoalescingIpc } from "./chain-sockets";
import { ChainTimeoutError, timeoutMessage } from "./chain-timeout";
import { JsonRpcClient } from "./json-rpc";

const TIMEOUT_MS = 200;
const dir = mkdtempSync(join(tmpdir(), "chainform-deadline-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An IPC server that answers a call only while `answering` is true (anvil's framing: one line per answer). */
async function ipcServer(path: string, state: { answering: boolean }): Promise<Server> {
  const server = createServer((socket: Socket) =>
    socket.on("data", (data) => {
      if (!state.answering) return;
      for (const line of data.toString().split("\n").filter(Boolean)) {
        socket.write(`{"jsonrpc":"2.0","id":${JSON.parse(line).id},"result":"0x1"}\n`);
      }
    }),
  );
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return server;
}
const close = (server: Server | HttpServer) => new Promise((resolve) => server.close(resolve));

test("the message names the deadline and the setting that changes it", () => {
  expect(timeoutMessage(30_000)).toBe("it took longer than the service's RPC timeout of 30 s (chainform serve --rpc-timeout SECONDS)");
  expect(timeoutMessage(1_500)).toMatch(/of 1\.5 s/);
  expect(timeoutMessage(200)).toMatch(/of 200 ms/);
});

test("CoalescingIpc: a call not answered fails at its deadline; a later call on a new socket is answered", async () => {
  const path = join(dir, "coalescing.ipc");
  const state = { answering: false };
  const server = await ipcServer(path, state);
  const ipc = new CoalescingIpc(path, TIMEOUT_MS);
  try {
    const started = Date.now();
    const answer = await new Promise((resolve) => ipc.call({ id: 7 }, '{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}', resolve));
    expect(answer).toBeInstanceOf(ChainTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    state.answering = true;
    const next = await new Promise<unknown>((resolve) => ipc.call({ id: 8 }, '{"jsonrpc":"2.0","id":8,"method":"eth_chainId"}', resolve));
    expect(String(next)).toBe('{"jsonrpc":"2.0","id":8,"result":"0x1"}');
  } finally {
    ipc.close();
    await close(server);
  }
});

test("ChainSocketPool: a call not answered fails at its deadline, and so does a wait for a socket", async () => {
  const path = join(dir, "pool.ipc");
  const state = { answering: false };
  const server = await ipcServer(path, state);
  const pool = new ChainSocketPool({ ipc: path }, 1, TIMEOUT_MS);
  try {
    const first = pool.post('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}');
    const queued = pool.post('{"jsonrpc":"2.0","id":2,"method":"eth_chainId"}'); // waits for the one socket
    await expect(first).rejects.toBeInstanceOf(ChainTimeoutError);
    await expect(queued).rejects.toBeInstanceOf(ChainTimeoutError);
    state.answering = true;
    const answer = await pool.post('{"jsonrpc":"2.0","id":3,"method":"eth_chainId"}');
    expect(answer.body.toString()).toBe('{"jsonrpc":"2.0","id":3,"result":"0x1"}');
    const now = await new Promise((resolve) => pool.postNow(Buffer.from('{"jsonrpc":"2.0","id":4,"method":"eth_chainId"}'), resolve));
    expect(now).toMatchObject({ status: 200 });
  } finally {
    pool.close();
    await close(server);
  }
});

test("JsonRpcClient: a parsed call (undici) fails at its deadline and tells onTimeout; a shorter deadline of its own is kept", async () => {
  let answering = false;
  const server = createHttpServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      if (!answering) return;
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(body).id, result: "0x1" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const client = new JsonRpcClient(`http://127.0.0.1:${port}`, undefined, TIMEOUT_MS);
  let told = 0;
  client.onTimeout = () => (told += 1);
  try {
    const error = await client.request("eth_chainId").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainTimeoutError);
    expect((error as Error).message).toMatch(/RPC timeout of 200 ms.*--rpc-timeout/);
    expect(told).toBe(1);
    // A probe's own deadline: fails, but is not a missed deadline of a caller's call (nothing told).
    await expect(client.request("eth_chainId", [], 50)).rejects.toBeInstanceOf(ChainTimeoutError);
    expect(told).toBe(1);
    answering = true;
    await expect(client.request("eth_chainId")).resolves.toBe("0x1");
  } finally {
    await client.close();
    server.closeAllConnections();
    await close(server);
  }
});
