/**
 * The pass-through path's sockets to a chain (lib/service/chains/chain-sockets.ts), against small servers of our
 * own that answer the way anvil's IPC socket and HTTP endpoint do, in pieces where it matters: answers are whole and
 * byte for byte, sockets are reused, and anything unexpected fails the call instead of mixing answers up.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChainSocketPool } from "../lib/service/chains/chain-sockets";

const dir = mkdtempSync(join(tmpdir(), "chainform-sockets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A server that hands every connection to `serve`; returns it listening and the connections it saw. */
async function serverOn(
  listen: (server: Server) => void,
  serve: (socket: Socket) => void,
): Promise<{ server: Server; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    serve(socket);
  });
  await new Promise<void>((resolve) => {
    server.once("listening", resolve);
    listen(server);
  });
  return { server, connections: () => connections };
}
const closeServer = (server: Server) => new Promise((resolve) => server.close(resolve));

test("IPC: each answer is one line, read whole when it comes in pieces; sockets are reused", async () => {
  const path = join(dir, "a.ipc");
  const { server, connections } = await serverOn(
    (s) => s.listen(path),
    (socket) =>
      socket.on("data", (data) => {
        const answer = `{"jsonrpc":"2.0","id":${JSON.parse(data.toString()).id},"result":"0x${"ab".repeat(40)}"}\n`;
        socket.write(answer.slice(0, 10));
        setTimeout(() => socket.write(answer.slice(10)), 5);
      }),
  );
  const pool = new ChainSocketPool({ ipc: path }, 4);
  try {
    for (let i = 0; i < 5; i += 1) {
      const answer = await pool.post(Buffer.from(`{"jsonrpc":"2.0","id":${i},"method":"eth_blockNumber"}`));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body.toString())).toEqual({ jsonrpc: "2.0", id: i, result: `0x${"ab".repeat(40)}` });
    }
    expect(connections()).toBe(1);
    const concurrent = await Promise.all([1, 2, 3, 4, 5, 6].map((id) => pool.post(`{"jsonrpc":"2.0","id":${id},"method":"eth_chainId"}`)));
    expect(concurrent.map((a) => JSON.parse(a.body.toString()).id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(connections()).toBeLessThanOrEqual(4);
  } finally {
    pool.close();
    await closeServer(server);
  }
});

test("HTTP: the answer is read by its Content-Length, with its status; a chunked answer fails the call", async () => {
  let chunked = false;
  const { server } = await serverOn(
    (s) => s.listen(0, "127.0.0.1"),
    (socket) =>
      socket.on("data", (data) => {
        expect(data.toString()).toMatch(
          /^POST \/ HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\ncontent-type: application\/json\r\ncontent-length: 2\r\n\r\n\{\}$/,
        );
        if (chunked) return void socket.write("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
        const body = '{"jsonrpc":"2.0","id":1,"result":"0x1"}';
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
        setTimeout(() => socket.write(body.slice(5)), 5);
      }),
  );
  const port = (server.address() as { port: number }).port;
  const pool = new ChainSocketPool({ http: `http://127.0.0.1:${port}` }, 2);
  try {
    const answer = await pool.post("{}");
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('{"jsonrpc":"2.0","id":1,"result":"0x1"}');
    chunked = true;
    await expect(pool.post("{}")).rejects.toThrow(/without Content-Length/);
  } finally {
    pool.close();
    await closeServer(server);
  }
});

test("a chain that closes the socket or sends more than asked fails the call; the next call gets a new socket", async () => {
  const path = join(dir, "b.ipc");
  let mode: "close" | "extra" | "ok" = "close";
  const { server, connections } = await serverOn(
    (s) => s.listen(path),
    (socket) =>
      socket.on("data", () => {
        if (mode === "close") socket.destroy();
        else if (mode === "extra") socket.write('{"id":1}\n{"id":2}\n');
        else socket.write('{"id":3}\n');
      }),
  );
  const pool = new ChainSocketPool({ ipc: path }, 1);
  try {
    await expect(pool.post("{}")).rejects.toThrow(/closed/);
    mode = "extra";
    await expect(pool.post("{}")).rejects.toThrow(/more than asked/);
    mode = "ok";
    expect((await pool.post("{}")).body.toString()).toBe('{"id":3}');
    expect(connections()).toBe(3);
  } finally {
    pool.close();
    await closeServer(server);
  }
});

test("IPC: a large answer in many pieces is read whole, joined once", async () => {
  const path = join(dir, "c.ipc");
  const result = "cd".repeat(300_000);
  const { server } = await serverOn(
    (s) => s.listen(path),
    (socket) =>
      socket.on("data", () => {
        const answer = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":"${result}"}\n`);
        // Written in 100 pieces, each on its own turn of the event loop, so that they arrive apart.
        let at = 0;
        const step = Math.ceil(answer.length / 100);
        const writeNext = () => {
          socket.write(answer.subarray(at, at + step));
          at += step;
          if (at < answer.length) setImmediate(writeNext);
        };
        writeNext();
      }),
  );
  const pool = new ChainSocketPool({ ipc: path }, 1);
  try {
    const answer = await pool.post("{}");
    expect(JSON.parse(answer.body.toString())).toEqual({ jsonrpc: "2.0", id: 1, result });
  } finally {
    pool.close();
    await closeServer(server);
  }
});

test("postNow sends at once on a free socket and calls back with the answer; false, sending nothing, when every socket is busy", async () => {
  const path = join(dir, "d.ipc");
  const held: Socket[] = [];
  const received: string[] = [];
  const { server } = await serverOn(
    (s) => s.listen(path),
    (socket) =>
      socket.on("data", (data) => {
        received.push(data.toString());
        held.push(socket);
      }),
  );
  const pool = new ChainSocketPool({ ipc: path }, 2);
  try {
    const answers: string[] = [];
    const done = (answer: { body: Buffer } | Error) =>
      answers.push(answer instanceof Error ? `error: ${answer.message}` : answer.body.toString());
    expect(pool.postNow(Buffer.from('{"id":1}'), done)).toBe(true);
    expect(pool.postNow(Buffer.from('{"id":2}'), done)).toBe(true);
    expect(pool.postNow(Buffer.from('{"id":3}'), done)).toBe(false);
    while (held.length < 2) await new Promise((resolve) => setImmediate(resolve));
    expect(received.sort()).toEqual(['{"id":1}', '{"id":2}']);
    held[0].write('{"answer":"a"}\n');
    while (answers.length < 1) await new Promise((resolve) => setImmediate(resolve));
    // The socket that answered is free again.
    expect(pool.postNow(Buffer.from('{"id":4}'), done)).toBe(true);
    held[1].destroy();
    while (answers.length < 2) await new Promise((resolve) => setImmediate(resolve));
    expect(answers).toEqual(['{"answer":"a"}', "error: the chain closed the connection"]);
    pool.close();
    expect(pool.postNow(Buffer.from('{"id":5}'), done)).toBe(false);
  } finally {
    pool.close();
    for (const socket of held) socket.destroy();
    await closeServer(server);
  }
});
