/**
 * The pass-through path's sockets to a chain (lib/service/chains/wire/chain-sockets.ts), against small servers of our
 * own that answer the way anvil's IPC socket and HTTP endpoint do, in pieces where it matters: answers are whole and
 * byte for byte, sockets are reused, and anything unexpected fails the call instead of mixing answers up.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChainSocketPool, CoalescingIpc } from "../lib/service/chains/wire/chain-sockets";

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

describe("CoalescingIpc: single calls of many callers on one IPC socket", () => {
  /** Calls made through `ipc`, each resolving with its answer's text (or null). */
  const callThrough = (ipc: CoalescingIpc, text: string): { taken: boolean; answer: Promise<string | null> } => {
    let taken = false;
    const answer = new Promise<string | null>((resolve) => {
      taken = ipc.call(JSON.parse(text), text, (bytes) => resolve(bytes === null ? null : bytes.toString()));
    });
    return { taken, answer };
  };

  /** A server that answers as anvil does (compact, `jsonrpc` then `id`), the calls of each read in reverse order. */
  async function anvilLike(
    path: string,
    writes: string[],
    line = (call: any) => `{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},"result":${JSON.stringify(call.params)}}`,
  ) {
    return serverOn(
      (s) => s.listen(path),
      (socket) => {
        let buffered = "";
        socket.on("data", (data) => {
          writes.push(data.toString());
          buffered += data.toString();
          const lines = buffered.split("\n");
          buffered = lines.pop()!;
          socket.write(
            lines
              .map((text) => `${line(JSON.parse(text))}\n`)
              .reverse()
              .join(""),
          );
        });
      },
    );
  }

  test("calls of one turn go in one write with ids of ours; each answer comes back to its caller with its own id", async () => {
    const path = join(dir, "e.ipc");
    const writes: string[] = [];
    const { server, connections } = await anvilLike(path, writes);
    const ipc = new CoalescingIpc(path);
    try {
      const texts = [
        '{"jsonrpc":"2.0","id":7,"method":"eth_getBalance","params":["0xabc","latest"]}',
        '{"method":"eth_blockNumber","params":[],"id":"call é x","jsonrpc":"2.0"}',
        '{ "jsonrpc" : "2.0", "method": "eth_chainId", "params": [ 1, {"a": "b"} ], "id":0 }',
      ];
      const calls = texts.map((text) => callThrough(ipc, text));
      expect(calls.map((c) => c.taken)).toEqual([true, true, true]);
      const answers = await Promise.all(calls.map((c) => c.answer));
      expect(answers.map((a) => JSON.parse(a!))).toEqual(
        texts.map((text) => ({ jsonrpc: "2.0", id: JSON.parse(text).id, result: JSON.parse(text).params })),
      );
      expect(writes).toHaveLength(1);
      const sent = writes[0].split("\n").filter(Boolean);
      // The callers' texts as they were, but for the id.
      expect(sent.map((line) => ({ ...JSON.parse(line), id: "-" }))).toEqual(texts.map((text) => ({ ...JSON.parse(text), id: "-" })));
      expect(sent[2]).toMatch(/^\{ "jsonrpc" : "2\.0", "method": "eth_chainId", "params": \[ 1, \{"a": "b"\} \], "id":\d+ \}$/);
      expect(new Set(sent.map((line) => JSON.parse(line).id)).size).toBe(3);
      // A later turn: another write on the same socket.
      expect(await callThrough(ipc, texts[0]).answer).toBe('{"jsonrpc":"2.0","id":7,"result":["0xabc","latest"]}');
      expect(writes).toHaveLength(2);
      expect(connections()).toBe(1);
    } finally {
      ipc.close();
      await closeServer(server);
    }
  });

  test("a call whose id cannot be swapped in its text is not taken (the caller sends it another way)", async () => {
    const ipc = new CoalescingIpc(join(dir, "never.ipc"));
    try {
      for (const text of [
        '{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"id":1,"to":"0x1"}]}', // a second "id": member
        '{"jsonrpc":"2.0","id": 1,"method":"eth_chainId","params":[]}', // a space before the id
        '{"jsonrpc":"2.0","id":"\\u0041","method":"eth_chainId","params":[]}', // written otherwise by JSON.stringify
        '{"jsonrpc":"2.0","id":1.0,"method":"eth_chainId","params":[]}',
        '{"jsonrpc":"2.0","\\u0069d":5,"method":"eth_call","params":[{"id":1}]}', // the call's id escaped, another plain
        '{"jsonrpc":"2.0","id":1,"method":"eth_call","params":["id"]}', // "id" elsewhere
        '{"jsonrpc":"2.0","id":1,"method":"eth_call","params":["\\n"]}', // a backslash anywhere
        '{"jsonrpc":"2.0","id":-0,"method":"eth_chainId","params":[]}', // JSON.stringify writes 0
        '{"jsonrpc":"2.0","id":1e0,"method":"eth_chainId","params":[]}',
        '{"jsonrpc":"2.0","id":12345678901234567890,"method":"eth_chainId","params":[]}', // not a safe integer
        '{"jsonrpc":"2.0","id":null,"method":"eth_chainId","params":[]}', // neither a string nor a number
        '{"jsonrpc":"2.0","id":true,"method":"eth_chainId","params":[]}',
      ]) {
        expect([text, callThrough(ipc, text).taken]).toEqual([text, false]);
      }
    } finally {
      ipc.close();
    }
  });

  test("ids of ours are reused once answered: calls one after another all go with one id, calls in flight each with its own", async () => {
    const path = join(dir, "h.ipc");
    const writes: string[] = [];
    const { server } = await anvilLike(path, writes);
    const ipc = new CoalescingIpc(path);
    const sentIds = () =>
      writes.flatMap((write) =>
        write
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line).id as number),
      );
    try {
      for (let i = 0; i < 50; i += 1) {
        const id = 1_000_000 + i; // a new id of the caller's every call
        expect(await callThrough(ipc, `{"jsonrpc":"2.0","id":${id},"method":"m","params":[${i}]}`).answer).toBe(
          `{"jsonrpc":"2.0","id":${id},"result":[${i}]}`,
        );
      }
      expect(new Set(sentIds())).toEqual(new Set([1]));
      writes.length = 0;
      const together = [-3, 5, "five"].map((id) =>
        callThrough(ipc, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"m","params":[]}`),
      );
      expect((await Promise.all(together.map((c) => c.answer))).map((a) => JSON.parse(a!).id)).toEqual([-3, 5, "five"]);
      expect(new Set(sentIds()).size).toBe(3);
    } finally {
      ipc.close();
      await closeServer(server);
    }
  });

  test("an answer it cannot read fails every call in flight; the next call opens a new socket", async () => {
    const path = join(dir, "f.ipc");
    const writes: string[] = [];
    let readable = false;
    // Until `readable`, answers with members in another order: not anvil's.
    const { server, connections } = await anvilLike(path, writes, (call) =>
      readable
        ? `{"jsonrpc":"2.0","id":${call.id},"result":"${call.method}"}`
        : `{"id":${call.id},"jsonrpc":"2.0","result":"${call.method}"}`,
    );
    const ipc = new CoalescingIpc(path);
    try {
      const failed = ["a", "b"].map((m) => callThrough(ipc, `{"jsonrpc":"2.0","id":1,"method":"${m}","params":[]}`));
      expect(await Promise.all(failed.map((c) => c.answer))).toEqual([null, null]);
      readable = true;
      const next = callThrough(ipc, '{"jsonrpc":"2.0","id":2,"method":"c","params":[]}');
      expect(await next.answer).toBe('{"jsonrpc":"2.0","id":2,"result":"c"}');
      expect(connections()).toBe(2);
    } finally {
      ipc.close();
      await closeServer(server);
    }
  });

  test("a node that closes the socket fails the calls in flight; close() fails them too and takes no more", async () => {
    const path = join(dir, "g.ipc");
    const held: Socket[] = [];
    const { server } = await serverOn(
      (s) => s.listen(path),
      (socket) => socket.on("data", () => held.push(socket)),
    );
    const ipc = new CoalescingIpc(path);
    try {
      const first = callThrough(ipc, '{"jsonrpc":"2.0","id":1,"method":"a","params":[]}');
      while (held.length < 1) await new Promise((resolve) => setImmediate(resolve));
      held[0].destroy();
      expect(await first.answer).toBeNull();
      const second = callThrough(ipc, '{"jsonrpc":"2.0","id":2,"method":"b","params":[]}');
      while (held.length < 2) await new Promise((resolve) => setImmediate(resolve));
      ipc.close();
      expect(await second.answer).toBeNull();
      expect(callThrough(ipc, '{"jsonrpc":"2.0","id":3,"method":"c","params":[]}').taken).toBe(false);
    } finally {
      ipc.close();
      for (const socket of held) socket.destroy();
      await closeServer(server);
    }
  });
});
