/**
 * The RPC URLs' answers over HTTP (./http.ts): the head of an answer (the X-Svc-* and CORS headers, keep-alive,
 * chunked or not), the preflight, an unknown URL's 404, and the RPC rate limit's 429.
 * Every wait is on an event (an answer, an end, a close), never on a timer; the sockets and requests are
 * test/helpers/raw-http.ts's.
 */
import {
  HOST,
  post,
  chunkedPost,
  request,
  gatedService,
  gatedServiceForFile,
  type GatedService,
  noEngine,
} from "../../../test/helpers/raw-http";

const file = gatedServiceForFile();
const open = file.open;
let main: GatedService;
beforeAll(() => {
  main = file.current();
});

describe("the answer's head", () => {
  const ORIGIN = "https://dapp.example";

  test("a call with an Origin: the X-Svc-* headers, content-type, CORS headers, keep-alive, chunked or not", async () => {
    const connection = await open();
    const text = JSON.stringify(request(21));
    const plain = await connection.send(post(main.publicPath, text, [`Origin: ${ORIGIN}`]));
    const chunked = await connection.send(chunkedPost(main.publicPath, request(21), [`Origin: ${ORIGIN}`]));
    for (const answer of [plain, chunked]) {
      expect(answer.json).toEqual(noEngine(21));
      expect(answer.headers).toMatchObject({
        "content-type": "application/json; charset=utf-8",
        "access-control-allow-origin": ORIGIN,
        "access-control-allow-credentials": "true",
        "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
        "access-control-expose-headers": "X-Svc-Limit, X-Svc-Remaining, X-Svc-Reset-Timestamp",
        "access-control-max-age": "86400",
        vary: "Origin",
        connection: "keep-alive",
      });
      expect(Number(answer.headers["x-svc-limit"])).toBeGreaterThan(0);
      expect(Number(answer.headers["x-svc-reset-timestamp"])).toBeGreaterThan(Date.now() / 1000 - 1);
    }
  });

  test("a preflight is 204 with the CORS and rate headers, and is not counted", async () => {
    const connection = await open();
    const preflight = (id: number) =>
      `OPTIONS ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nOrigin: ${ORIGIN}\r\nAccess-Control-Request-Headers: content-type\r\nX-Id: ${id}\r\n\r\n`;
    const first = await connection.send(preflight(1));
    const second = await connection.send(preflight(2));
    expect(first.status).toBe(204);
    expect(first.headers).toMatchObject({ "access-control-allow-origin": ORIGIN, "access-control-allow-headers": "content-type" });
    expect(second.headers["x-svc-remaining"]).toBe(first.headers["x-svc-remaining"]);
  });

  test("an unknown URL's 404: the spec's body, the rate and CORS headers", async () => {
    const connection = await open();
    const unknown = await connection.send(post("/rpc/admin/" + "Z".repeat(43), request(22), [`Origin: ${ORIGIN}`]));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ slug: "resource_not_found", data: { rid: "rid:vnet" } });
    expect(unknown.body.toString()).not.toContain("Z".repeat(43));
    expect(unknown.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(unknown.headers["x-svc-limit"]).toBeDefined();
  });
});

describe("the rate limit", () => {
  test("a low RPC limit answers 429 with the spec's body, and the connection stays usable", async () => {
    const limited = await gatedService({ rateLimits: { rpcLimit: 2 } });
    try {
      const connection = await open(undefined, limited.service);
      const answers = [];
      for (const id of [1, 2, 3, 4]) answers.push(await connection.send(post(limited.publicPath, request(id))));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429, 429]);
      expect(answers.map((a) => a.headers["x-svc-remaining"])).toEqual(["1", "0", "0", "0"]);
      expect(answers[2].headers.connection).toBe("keep-alive");
      expect(answers[2].headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(answers[2].json.error).toMatchObject({
        slug: "too_many_requests",
        message: "too many requests: back off until X-Svc-Reset-Timestamp",
      });
      // The other URL has its own count.
      expect((await connection.send(post(limited.adminPath, request(5)))).status).toBe(200);
    } finally {
      await limited.service.close();
    }
  });
});
