/**
 * The RPC URLs' HTTP transport (./http.ts) on Node's HTTP server, over real TCP sockets that write raw HTTP bytes:
 * kept-alive and pipelined calls, calls arriving byte by byte, half-closes, and what Node's parser refuses. The hand-over
 * to the API, the answer's head, the rate limit, closing, TLS and a real chain have files of their own beside this one
 * (./http-*.test.ts).
 * Every wait is on an event (an answer, an end, a close), never on a timer; the sockets and requests are
 * test/helpers/raw-http.ts's.
 */
import { expectErrorBody } from "../../../test/helpers/http";
import {
  HOST,
  post,
  chunkedPost,
  request,
  gatedService,
  gatedServiceForFile,
  type GatedService,
  nextServerSide,
  seen,
  noEngine,
} from "../../../test/helpers/raw-http";

const file = gatedServiceForFile();
const open = file.open;
let main: GatedService;
beforeAll(() => {
  main = file.current();
});

describe("kept-alive calls", () => {
  test("plain calls are answered, several on one kept-alive connection", async () => {
    const connection = await open();
    for (const [path, id] of [
      [main.publicPath, 1],
      [main.adminPath, "two"],
      [main.publicPath, 3],
    ] as const) {
      const answer = await connection.send(post(path, request(id)));
      expect({ status: answer.status, json: answer.json }).toEqual({ status: 200, json: noEngine(id) });
      expect(answer.headers.connection).toBe("keep-alive");
      expect(answer.headers["keep-alive"]).toMatch(/^timeout=\d+$/);
      expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    }
  });

  test("pipelined calls written at once are answered in order, the first held in the engine while the second waits", async () => {
    const connection = await open();
    await connection.write(post(main.publicPath, request("first", "test_wait")) + post(main.publicPath, request("second")));
    await main.engine.inFlight();
    main.engine.release();
    const [first, second] = [await connection.next(), await connection.next()];
    expect(first.json).toEqual({ jsonrpc: "2.0", id: "first", result: "released" });
    expect(second.json).toEqual(noEngine("second"));
  });

  test("a call arriving while the one before is in the engine waits for it: answers in order", async () => {
    const serverSide = nextServerSide(main.service);
    const connection = await open();
    const server = await serverSide;
    await connection.write(post(main.publicPath, request("first", "test_wait")));
    await main.engine.inFlight();
    const read = seen(server, "data");
    await connection.write(post(main.adminPath, request("second")));
    await read; // the service has the second call while the first is held
    main.engine.release();
    expect((await connection.next()).json).toEqual({ jsonrpc: "2.0", id: "first", result: "released" });
    expect((await connection.next()).json).toEqual(noEngine("second"));
  });

  test("many pipelined calls in one write: every answer, in order", async () => {
    const connection = await open();
    const ids = Array.from({ length: 50 }, (_, i) => i);
    await connection.write(ids.map((id) => post(id % 2 ? main.adminPath : main.publicPath, request(id))).join(""));
    for (const id of ids) expect((await connection.next()).json).toEqual(noEngine(id));
  });

  test("thousands of pipelined calls answered at once (unknown URLs: 404) in one write: every answer, in order", async () => {
    // A 404 is answered inside the call to the RPC answer, not on a later turn: the connection goes on in a loop.
    const connection = await open();
    const count = 3_000;
    const unknown = (i: number) => `/rpc/public/00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    await connection.write(Array.from({ length: count }, (_, i) => post(i % 3 === 0 ? main.publicPath : unknown(i), request(i))).join(""));
    for (let i = 0; i < count; i += 1) {
      const answer = await connection.next();
      if (i % 3 === 0) expect([i, answer.json]).toEqual([i, noEngine(i)]);
      else expect([i, answer.status]).toEqual([i, 404]);
    }
  });

  test("a call whose head arrives byte by byte and its body in pieces is answered once whole", async () => {
    const connection = await open();
    const bytes = post(main.publicPath, request(77), ["Origin: http://localhost:5173"]);
    const bodyStart = bytes.indexOf("\r\n\r\n") + 4;
    await connection.trickle(bytes.slice(0, bodyStart));
    const body = bytes.slice(bodyStart);
    await connection.write(body.slice(0, 5));
    await connection.write(body.slice(5, 20));
    const answer = await connection.send(body.slice(20));
    expect(answer.json).toEqual(noEngine(77));
    expect(answer.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    // And the connection still serves the next call.
    expect((await connection.send(post(main.publicPath, request(78)))).json).toEqual(noEngine(78));
  });

  test("a call and the start of the next in one write: the first is answered, the second once it is whole", async () => {
    const connection = await open();
    const second = post(main.adminPath, request(2));
    await connection.write(post(main.publicPath, request(1)) + second.slice(0, 30));
    expect((await connection.next()).json).toEqual(noEngine(1));
    expect((await connection.send(second.slice(30))).json).toEqual(noEngine(2));
  });

  test("query strings and header case do not change the answer", async () => {
    const connection = await open();
    const text = JSON.stringify(request(5));
    const answer = await connection.send(
      `POST ${main.publicPath}?a=1 HTTP/1.1\r\nhost: x\r\ncontent-length:   ${text.length}  \r\n\r\n${text}`,
    );
    expect(answer.json).toEqual(noEngine(5));
  });

  test("an unknown URL is the spec's 404 and the connection stays usable", async () => {
    const connection = await open();
    const unknown = await connection.send(post("/rpc/public/00000000-0000-4000-8000-000000000000", request(1)));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ slug: "resource_not_found", data: { rid: "rid:vnet" } });
    expect(unknown.headers.connection).toBe("keep-alive");
    expect((await connection.send(post(main.publicPath, request(2)))).json).toEqual(noEngine(2));
  });

  test("Connection: close gets its answer with connection: close, then the service closes the connection", async () => {
    const connection = await open();
    const answer = await connection.send(post(main.publicPath, request(9), ["Connection: close"]));
    expect(answer.json).toEqual(noEngine(9));
    expect(answer.headers.connection).toBe("close");
    expect(answer.headers["keep-alive"]).toBeUndefined();
    await connection.closed;
  });

  test("a call pipelined after a Connection: close call is not answered", async () => {
    const connection = await open();
    await connection.write(post(main.publicPath, request(1), ["Connection: close"]) + post(main.publicPath, request(2)));
    expect((await connection.next()).json).toEqual(noEngine(1));
    await connection.closed;
    await expect(connection.next()).rejects.toThrow("connection closed");
  });

  test("a caller that half-closes after its call gets the answer, then the service closes its side too", async () => {
    // Node's server ends a connection whose caller has ended its side; one held open waits for the keep-alive timeout.
    const connection = await open();
    await connection.write(post(main.publicPath, request(1)));
    connection.socket.end();
    expect((await connection.next()).json).toEqual(noEngine(1));
    await connection.ended;
    await connection.closed;
  });
});

describe("Node's parser reads every request", () => {
  test("a request whose lines end in a bare LF is refused 400 with the spec's body, and the connection closes", async () => {
    for (const path of [main.publicPath, "/v1/supported-networks"]) {
      const connection = await open();
      const text = JSON.stringify(request(1));
      const answer = await connection.send(`POST ${path} HTTP/1.1\nHost: ${HOST}\nContent-Length: ${text.length}\n\n${text}`);
      expectErrorBody({ status: answer.status, body: answer.json } as Parameters<typeof expectErrorBody>[0], 400, "bad_request");
      expect(answer.headers.connection).toBe("close");
      await connection.closed;
    }
  });

  test("pipelined calls followed by a half-close: every call is answered, in order, then the connection ends", async () => {
    const connection = await open({ allowHalfOpen: true });
    const ids = [1, 2, 3, 4, 5];
    await connection.write(ids.map((id) => post(id % 2 ? main.publicPath : main.adminPath, request(id))).join(""));
    connection.socket.end();
    const answers = [];
    for (const _ of ids) answers.push((await connection.next()).json);
    expect(answers).toEqual(ids.map(noEngine));
    await connection.ended;
  });
});

describe("as Node's server does (a chunked call: the connection handed over), which the tests above expect", () => {
  test("a caller that half-closes after its call gets the answer, then the service closes its side too", async () => {
    const connection = await open();
    await connection.write(chunkedPost(main.publicPath, request(1)));
    connection.socket.end();
    expect((await connection.next()).json).toEqual(noEngine(1));
    await connection.ended;
    await connection.closed;
  });

  test("close() finishes while an idle connection whose caller keeps its side open is connected", async () => {
    const { service, publicPath } = await gatedService();
    const connection = await open({ allowHalfOpen: true }, service);
    expect((await connection.send(chunkedPost(publicPath, request(1)))).json).toEqual(noEngine(1));
    await service.close();
    await connection.ended;
  });

  test("after Connection: close, the service lets go of the connection even if the caller keeps its side open", async () => {
    const { service, publicPath } = await gatedService();
    const connection = await open({ allowHalfOpen: true }, service);
    expect((await connection.send(chunkedPost(publicPath, request(1), ["Connection: close"]))).headers.connection?.toLowerCase()).toBe(
      "close",
    );
    await connection.ended;
    await service.close();
  });
});
