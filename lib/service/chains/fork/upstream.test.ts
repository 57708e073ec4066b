import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Upstream, UpstreamError } from "./upstream";

/** What the stand-in upstream does with each request. */
let handler: (request: IncomingMessage, body: any, response: ServerResponse) => void;
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    handler(request, JSON.parse(Buffer.concat(chunks).toString("utf8")), response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const json = (response: ServerResponse, value: unknown, status = 200) =>
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));

test("an answer declared or sent over the cap is refused naming the network and the cap", async () => {
  const upstream = new Upstream("1", `${base}/v2/k3y-12345678`, 5_000, 1_000);
  handler = (_request, body, response) => json(response, { jsonrpc: "2.0", id: body.id, result: `0x${"ab".repeat(1_000)}` });
  await expect(upstream.request("eth_getCode", ["0xaa", "0x1"])).rejects.toMatchObject({
    failure: "too-large",
    message: "the upstream of network 1 answered more than 1000 bytes, the cap on one upstream answer; nothing was recorded",
  });
  handler = (_request, _body, response) => {
    response.writeHead(200, { "content-type": "application/json" }); // no length: streamed
    for (let i = 0; i < 10; i++) response.write(" ".repeat(200));
    response.end("{}");
  };
  await expect(upstream.request("eth_chainId")).rejects.toMatchObject({ failure: "too-large" });
});

test("a redirect or an HTTP 4xx is the URL's fault (misconfigured); a 429 or 5xx is not", async () => {
  const upstream = new Upstream("1", `${base}/v2/k3y-12345678`, 5_000);
  const failureOf = async (status: number, headers: Record<string, string> = {}) => {
    handler = (_request, _body, response) => response.writeHead(status, headers).end();
    const error = (await upstream.request("eth_chainId").catch((e: unknown) => e)) as UpstreamError;
    expect(error).toBeInstanceOf(UpstreamError);
    return [error.failure, error.misconfigured, error.message];
  };
  expect(await failureOf(307, { location: "http://127.0.0.1:9/" })).toEqual([
    "refused",
    true,
    "the upstream of network 1 answered a redirect (HTTP 307), which chainform does not follow: give --fork 1= the URL it redirects to",
  ]);
  expect(await failureOf(401)).toEqual(["refused", true, "the upstream of network 1 answered HTTP 401"]);
  expect(await failureOf(429)).toEqual(["bad-answer", false, "the upstream of network 1 answered HTTP 429"]);
  expect(await failureOf(503)).toEqual(["bad-answer", false, "the upstream of network 1 answered HTTP 503"]);
});

test("errors are scrubbed of the URL and its key parts, hex results pass unchanged, batches answer in order", async () => {
  const url = `${base}/v2/0123456789abcdef0123?apikey=q9w8e7r6`;
  const upstream = new Upstream("1", url, 5_000);
  handler = (_request, body, response) =>
    json(response, {
      jsonrpc: "2.0",
      id: body.id,
      error: { code: -32000, message: `bad call to ${url}`, data: { key: "0123456789ABCDEF0123" } },
    });
  await expect(upstream.request("eth_call", [])).rejects.toMatchObject({
    message: "bad call to [upstream of network 1]",
    data: { key: "[redacted]" },
  });
  handler = (_request, body, response) => json(response, { jsonrpc: "2.0", id: body.id, result: "0xff0123456789abcdef0123ff" });
  expect(await upstream.request("eth_getCode", [])).toBe("0xff0123456789abcdef0123ff");
  handler = (_request, body: { id: number; method: string }[], response) =>
    json(
      response,
      [...body]
        .reverse()
        .map((call) =>
          call.method === "bad"
            ? { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: "no" } }
            : { jsonrpc: "2.0", id: call.id, result: call.method },
        ),
    );
  const answers = await upstream.batch([
    { method: "a", params: [] },
    { method: "bad", params: [] },
    { method: "c", params: [] },
  ]);
  expect(answers.map((a) => ("result" in a ? a.result : a.error.code))).toEqual(["a", -32601, "c"]);
  handler = (_request, _body, response) => json(response, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "no batches" } });
  await expect(upstream.batch([{ method: "a", params: [] }])).rejects.toMatchObject({ failure: "bad-answer" });
});

test("checkFirst: no call reaches the upstream before the check passed; a failed check is each call's error and runs again", async () => {
  const upstream = new Upstream("1", `${base}/v2/k3y-12345678`, 5_000);
  const methods: string[] = [];
  handler = (_request, body, response) => {
    methods.push(body.method);
    json(response, { jsonrpc: "2.0", id: body.id, result: "0x1" });
  };
  let checks = 0;
  let pass = false;
  upstream.checkFirst(async () => {
    checks += 1;
    if (!pass) throw new UpstreamError("refused", "the upstream of network 1 is not checked yet");
  });
  await expect(
    Promise.all([upstream.request("eth_getBalance", ["0xaa", "0x1"]), upstream.request("eth_getCode", ["0xaa", "0x1"])]),
  ).rejects.toThrow("the upstream of network 1 is not checked yet");
  expect(methods).toEqual([]);
  // Calls waiting together share one run of the check.
  expect(checks).toBe(1);
  pass = true;
  await expect(upstream.request("eth_getBalance", ["0xaa", "0x1"])).resolves.toBe("0x1");
  await expect(upstream.request("eth_getCode", ["0xaa", "0x1"])).resolves.toBe("0x1");
  // Passed once, it is not run again.
  expect(checks).toBe(2);
  expect(methods).toEqual(["eth_getBalance", "eth_getCode"]);
});
