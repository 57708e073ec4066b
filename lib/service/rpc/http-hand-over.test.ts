/**
 * The RPC URLs' HTTP transport (./http.ts) hands a connection over to Node's server (the API) and back: API requests
 * between and behind calls, chunked bodies, `Expect`, HTTP/1.0, oversized bodies and heads, malformed requests after a
 * call, and upgrades to WebSocket.
 * Every wait is on an event (an answer, an end, a close), never on a timer; the sockets and requests are
 * test/helpers/raw-http.ts's.
 */
import WebSocket from "ws";
import { expectErrorBody } from "../../../test/helpers/http";
import {
  HOST,
  post,
  get,
  request,
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

describe("the hand-over to Node's server", () => {
  test("RPC call, then an API request, then RPC calls on the same connection: all answered", async () => {
    const connection = await open();
    expect((await connection.send(post(main.publicPath, request(1)))).json).toEqual(noEngine(1));
    const networks = await connection.send(get("/v1/supported-networks"));
    expect(networks.status).toBe(200);
    expect(Array.isArray(networks.json) || typeof networks.json === "object").toBe(true);
    expect(JSON.stringify(networks.json)).toContain('"1"');
    const after = await connection.send(post(main.publicPath, request(2)));
    expect({ status: after.status, json: after.json }).toEqual({ status: 200, json: noEngine(2) });
    expect(after.headers.connection?.toLowerCase()).toBe("keep-alive");
    const admin = await connection.send(post(main.adminPath, request(3)));
    expect(admin.json).toEqual(noEngine(3));
  });

  test("an API request pipelined between two calls in one write: three answers in order", async () => {
    const connection = await open();
    await connection.write(post(main.publicPath, request(1)) + get("/v1/supported-networks") + post(main.adminPath, request(3)));
    expect((await connection.next()).json).toEqual(noEngine(1));
    expect((await connection.next()).status).toBe(200);
    expect((await connection.next()).json).toEqual(noEngine(3));
  });

  test("an API request pipelined behind a call held in the engine waits for it, then is answered", async () => {
    const connection = await open();
    await connection.write(post(main.publicPath, request("held", "test_wait")) + get("/v1/supported-networks"));
    await main.engine.inFlight();
    main.engine.release();
    expect((await connection.next()).json).toEqual({ jsonrpc: "2.0", id: "held", result: "released" });
    expect((await connection.next()).status).toBe(200);
  });

  test("an API request arriving byte by byte after a call is answered", async () => {
    const connection = await open();
    expect((await connection.send(post(main.publicPath, request(1)))).json).toEqual(noEngine(1));
    await connection.trickle(get("/v1/supported-networks"));
    expect((await connection.next()).status).toBe(200);
  });

  test("a caller that half-closes while a call is in the engine and an API request waits behind it: the connection ends, no hang", async () => {
    const serverSide = nextServerSide(main.service);
    const connection = await open();
    const ended = seen(await serverSide, "end");
    await connection.write(post(main.publicPath, request("held", "test_wait")) + get("/v1/supported-networks"));
    await main.engine.inFlight();
    connection.socket.end();
    await ended; // the service has read the caller's end while the call is in the engine
    main.engine.release();
    // Node's server ends a connection at the caller's end, answering nothing more; the answers may or may not come.
    await connection.closed;
  });

  test("a header value with a control character (in the Origin, which would be echoed) is Node's 400", async () => {
    const connection = await open();
    const answer = await connection.send(post(main.publicPath, request(1), ["Origin: http://a\x1bb.example"]));
    expect(answer.status).toBe(400);
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
  });

  test("a chunked body is answered (by Node's server), on a connection that served a plain call", async () => {
    const connection = await open();
    expect((await connection.send(post(main.publicPath, request(1)))).json).toEqual(noEngine(1));
    const text = JSON.stringify(request(2));
    const chunked = `POST ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nTransfer-Encoding: chunked\r\n\r\n${(5).toString(16)}\r\n${text.slice(0, 5)}\r\n${(text.length - 5).toString(16)}\r\n${text.slice(5)}\r\n0\r\n\r\n`;
    const answer = await connection.send(chunked);
    expect({ status: answer.status, json: answer.json }).toEqual({ status: 200, json: noEngine(2) });
    expect((await connection.send(post(main.publicPath, request(3)))).json).toEqual(noEngine(3));
  });

  test("Expect: 100-continue gets 100 Continue, then the answer", async () => {
    const connection = await open();
    const text = JSON.stringify(request(4));
    await connection.write(
      `POST ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: ${text.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await new Promise<void>((resolve) => {
      const check = () => (connection.interim.length > 0 ? resolve() : connection.socket.once("data", () => setImmediate(check)));
      check();
    });
    expect(connection.interim[0]).toMatch(/^HTTP\/1\.1 100 Continue$/);
    const answer = await connection.send(text);
    expect({ status: answer.status, json: answer.json }).toEqual({ status: 200, json: noEngine(4) });
  });

  test("HTTP/1.0 is answered by Node's server and closed", async () => {
    const connection = await open();
    const text = JSON.stringify(request(6));
    const answer = await connection.send(
      `POST ${main.publicPath} HTTP/1.0\r\nHost: ${HOST}\r\nContent-Length: ${text.length}\r\n\r\n${text}`,
    );
    expect(answer.json).toEqual(noEngine(6));
    await connection.closed;
  });

  test("a body over 1 MB is read away and answered the spec's 400; the kept-alive connection goes on", async () => {
    const connection = await open();
    expect((await connection.send(post(main.publicPath, request(1)))).json).toEqual(noEngine(1));
    const length = 1024 * 1024 + 1;
    const answer = await connection.send(
      `POST ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: ${length}\r\n\r\n${"[".repeat(length)}`,
    );
    expectErrorBody({ status: answer.status, headers: new Headers(), body: answer.json, text: answer.body.toString() }, 400, "bad_request");
    expect(answer.json.error.message).toBe("request body larger than 1048576 bytes");
    expect(answer.headers.connection?.toLowerCase()).toBe("keep-alive");
    expect(answer.headers["x-svc-limit"]).toBeDefined();
    expect((await connection.send(post(main.publicPath, request(2)))).json).toEqual(noEngine(2));
  });

  test("a body declared larger than the service reads away (16 MB) is answered at once, and the connection closes", async () => {
    const connection = await open();
    const answer = await connection.send(
      `POST ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n${"[".repeat(1000)}`,
    );
    expect(answer.json.error.message).toBe("request body larger than 1048576 bytes");
    expect(answer.headers.connection?.toLowerCase()).toBe("close");
    await connection.closed;
  });

  test("a body of exactly 1 MB is read and answered", async () => {
    const connection = await open();
    const id = "x".repeat(1024 * 1024 - JSON.stringify(request("")).length);
    const text = JSON.stringify(request(id));
    expect(Buffer.byteLength(text)).toBe(1024 * 1024);
    const answer = await connection.send(post(main.publicPath, text));
    expect(answer.status).toBe(200);
    expect(answer.json.id).toBe(id);
  });

  test("a header line without a colon is Node's 400 (the spec's body), not a hang", async () => {
    const connection = await open();
    const text = JSON.stringify(request(1));
    const answer = await connection.send(
      `POST ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nBroken\r\nContent-Length: ${text.length}\r\n\r\n${text}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.json.error.slug).toBe("bad_request");
    await connection.closed;
  });

  test("a malformed request after a call on the same connection is Node's 400", async () => {
    const connection = await open();
    expect((await connection.send(post(main.publicPath, request(1)))).json).toEqual(noEngine(1));
    const answer = await connection.send(
      `POST ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    );
    expect(answer.status).toBe(400);
    await connection.closed;
  });

  test("a head over 16 KB is Node's 431 or 400, not a hang", async () => {
    const connection = await open();
    const answer = await connection.send(post(main.publicPath, request(1), [`X-Pad: ${"p".repeat(17 * 1024)}`]));
    expect([400, 431]).toContain(answer.status);
  });

  test("a WebSocket on an RPC URL still works, with the ws client", async () => {
    const socket = new WebSocket(`ws://${new URL(main.service.baseUrl).host}${main.publicPath}`);
    const answer = await new Promise<any>((resolve, reject) => {
      socket.on("open", () => socket.send(JSON.stringify(request(11))));
      socket.on("message", (data) => resolve(JSON.parse(data.toString())));
      socket.on("error", reject);
    });
    socket.close();
    expect(answer).toEqual(noEngine(11));
  });

  test("a WebSocket upgrade on a connection that served an RPC call switches protocols", async () => {
    const connection = await open();
    expect((await connection.send(post(main.publicPath, request(1)))).json).toEqual(noEngine(1));
    const upgraded = await connection.send(
      get(main.publicPath, [
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
      ]),
    );
    expect(upgraded.status).toBe(101);
    expect(upgraded.headers["sec-websocket-accept"]).toBe("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  });
});
