/**
 * Closing the service while callers are connected to the RPC URLs over HTTP (./http.ts): idle, half-open and
 * kept-alive connections, a call in flight, a call half arrived.
 * Every wait is on an event (an answer, an end, a close), never on a timer; the sockets and requests are
 * test/helpers/raw-http.ts's.
 */
import type { TestService } from "../../../test/helpers/service";
import { RawConnection, post, request, gatedService, nextServerSide, seen, noEngine } from "../../../test/helpers/raw-http";

const opened: RawConnection[] = [];
async function open(options: { allowHalfOpen?: boolean } | undefined, service: Pick<TestService, "baseUrl">): Promise<RawConnection> {
  const connection = await RawConnection.open(service, options);
  opened.push(connection);
  return connection;
}

afterEach(() => {
  opened.splice(0).forEach((connection) => connection.destroy());
});

describe("closing the service", () => {
  test("close() finishes while an idle kept-alive RPC connection is open, and ends that connection", async () => {
    const { service, publicPath } = await gatedService();
    const connection = await open(undefined, service);
    expect((await connection.send(post(publicPath, request(1)))).json).toEqual(noEngine(1));
    await Promise.all([service.close(), connection.closed]);
  });

  test("close() finishes while an idle connection whose caller keeps its side open (allowHalfOpen) is connected", async () => {
    const { service, publicPath } = await gatedService();
    const connection = await open({ allowHalfOpen: true }, service);
    expect((await connection.send(post(publicPath, request(1)))).json).toEqual(noEngine(1));
    await service.close();
    await connection.ended;
  });

  test("after Connection: close, the service lets go of the connection even if the caller keeps its side open", async () => {
    const { service, publicPath } = await gatedService();
    const connection = await open({ allowHalfOpen: true }, service);
    expect((await connection.send(post(publicPath, request(1), ["Connection: close"]))).headers.connection).toBe("close");
    await connection.ended;
    await service.close();
  });

  test("a call in flight during close gets its answer (connection: close), then close() finishes", async () => {
    const { service, engine, publicPath, adminPath } = await gatedService();
    const idle = await open(undefined, service);
    expect((await idle.send(post(publicPath, request(1)))).json).toEqual(noEngine(1));
    const busy = await open(undefined, service);
    await busy.write(post(adminPath, request("held", "test_wait")));
    await engine.inFlight();
    const closing = service.close();
    await idle.ended; // the service has begun closing: idle connections are ended
    engine.release();
    const answer = await busy.next();
    expect(answer.json).toEqual({ jsonrpc: "2.0", id: "held", result: "released" });
    expect(answer.headers.connection).toBe("close");
    await Promise.all([closing, busy.closed, idle.closed]);
  });

  test("a call half-arrived during close is answered once whole, then the connection closes", async () => {
    const { service, publicPath } = await gatedService();
    const idle = await open(undefined, service);
    expect((await idle.send(post(publicPath, request(1)))).json).toEqual(noEngine(1));
    const serverSide = nextServerSide(service);
    const arriving = await open(undefined, service);
    const read = seen(await serverSide, "data");
    const bytes = post(publicPath, request(2));
    await arriving.write(bytes.slice(0, 40));
    await read; // the service holds the first bytes
    const closing = service.close();
    await idle.ended;
    const answer = await arriving.send(bytes.slice(40));
    expect(answer.json).toEqual(noEngine(2));
    expect(answer.headers.connection).toBe("close");
    await Promise.all([closing, arriving.closed]);
  });
});
