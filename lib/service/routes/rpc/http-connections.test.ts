import fc from "fast-check";
import { countText, encodeRpcReply, MAX_HEAD_BYTES, readRepeatedHead, readRpcCallHead, type RpcCallHead } from "./http-connections";
import type { RpcReply } from "./http";

const KEY = "0b5a4c2e-4a43-4d5e-9d7f-1b2c3d4e5f60";
const BODY = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';

/** A request's bytes: the request line, the header lines as given, the blank line, the body. */
function request(lines: readonly string[], body = ""): Buffer {
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n${body}`, "latin1");
}

/** A plain call's head lines on `target`, with `extra` header lines after Host and Content-Length. */
function call(target = `/rpc/public/${KEY}`, extra: readonly string[] = [], body = BODY): Buffer {
  return request([`POST ${target} HTTP/1.1`, "Host: 127.0.0.1:8787", `Content-Length: ${Buffer.byteLength(body)}`, ...extra], body);
}

function head(data: Buffer): RpcCallHead {
  const result = readRpcCallHead(data);
  if (result === null || result === "other") throw new Error(`expected a call head, got ${String(result)}`);
  return result;
}

describe("readRpcCallHead", () => {
  test("reads a plain call: path, access, key, length, where the body starts; no origin, no close", () => {
    const data = call();
    expect(readRpcCallHead(data)).toEqual({
      path: `/rpc/public/${KEY}`,
      access: "public",
      key: KEY,
      origin: undefined,
      contentLength: Buffer.byteLength(BODY),
      close: false,
      bodyStart: data.length - Buffer.byteLength(BODY),
      lengthStart: data.indexOf("Content-Length: ") + 16,
      lengthEnd: data.indexOf("Content-Length: ") + 16 + String(Buffer.byteLength(BODY)).length,
    });
    expect(data.subarray(head(data).bodyStart).toString()).toBe(BODY);
  });

  test("reads an Admin RPC call; the body need not have arrived (the caller waits for it)", () => {
    const secret = "A".repeat(43);
    const data = call(`/rpc/admin/${secret}`);
    const withoutBody = data.subarray(0, data.length - 5);
    expect(head(withoutBody)).toMatchObject({
      access: "admin",
      key: secret,
      path: `/rpc/admin/${secret}`,
      contentLength: Buffer.byteLength(BODY),
    });
  });

  test("an incomplete head is null, at every length short of its end", () => {
    const data = call();
    const headEnd = data.indexOf("\r\n\r\n") + 4;
    for (let length = 0; length < headEnd; length += 1) expect([length, readRpcCallHead(data.subarray(0, length))]).toEqual([length, null]);
    expect(head(data.subarray(0, headEnd)).bodyStart).toBe(headEnd);
  });

  test("the query is not part of the path", () => {
    expect(head(call(`/rpc/public/${KEY}?x=1&y=/2`))).toMatchObject({ path: `/rpc/public/${KEY}`, key: KEY });
    expect(head(call(`/rpc/public/${KEY}?`))).toMatchObject({ path: `/rpc/public/${KEY}`, key: KEY });
  });

  test("header names in any case; whitespace around values is not part of them", () => {
    const data = request(
      [
        "POST /rpc/public/k HTTP/1.1",
        "hOsT:x",
        "CONTENT-LENGTH: \t 2 \t",
        "oRiGiN:\t https://app.example \t",
        "CoNnEcTiOn:   Keep-Alive, CLOSE  ",
      ],
      "{}",
    );
    expect(head(data)).toMatchObject({ contentLength: 2, origin: "https://app.example", close: true });
  });

  test("Origin is captured as sent, an empty one too", () => {
    expect(head(call(undefined, ["Origin: http://localhost:3000"])).origin).toBe("http://localhost:3000");
    expect(head(call(undefined, ["Origin:"])).origin).toBe("");
  });

  test("Connection: close (alone, or among other options) asks to close; keep-alive does not", () => {
    expect(head(call(undefined, ["Connection: close"])).close).toBe(true);
    expect(head(call(undefined, ["Connection: keep-alive"])).close).toBe(false);
    expect(head(call(undefined, ["Connection: keep-alive,close"])).close).toBe(true);
    // Two Connection lines: Node's server combines them; handed to it.
    expect(readRpcCallHead(call(undefined, ["Connection: keep-alive", "Connection: close"]))).toBe("other");
    expect(head(call(undefined, ["Connection: closed"])).close).toBe(false);
  });

  test("other headers are passed over", () => {
    expect(
      head(call(undefined, ["Content-Type: application/json", "User-Agent: viem/2", "Accept-Encoding: gzip", "X-Empty:"])),
    ).toMatchObject({
      contentLength: Buffer.byteLength(BODY),
    });
  });

  test("a body of zero bytes is a call (the answer says the body is not JSON)", () => {
    expect(head(call(undefined, [], "")).contentLength).toBe(0);
  });

  describe("hands over to Node's server", () => {
    const cases: [string, Buffer][] = [
      ["a GET", request(["GET /rpc/public/k HTTP/1.1", "Host: x"])],
      ["another POST path", request(["POST /v1/account/acme/projects HTTP/1.1", "Host: x", "Content-Length: 2"], "{}")],
      ["another path under /rpc/", request(["POST /rpc/private/k HTTP/1.1", "Host: x", "Content-Length: 2"], "{}")],
      ["a key with a slash", call("/rpc/public/a/b")],
      ["a percent-encoded key", call("/rpc/public/a%20b")],
      ["an empty key", call("/rpc/public/")],
      ["a key over 500 characters", call(`/rpc/public/${"k".repeat(501)}`)],
      ["an absolute-form target", call(`http://127.0.0.1/rpc/public/${KEY}`)],
      ["a lower-case method", Buffer.from(call().toString("latin1").replace("POST", "post"), "latin1")],
      ["HTTP/1.0", Buffer.from(call().toString("latin1").replace("HTTP/1.1", "HTTP/1.0"), "latin1")],
      ["HTTP/2.0 in the request line", Buffer.from(call().toString("latin1").replace("HTTP/1.1", "HTTP/2.0"), "latin1")],
      ["two spaces in the request line", Buffer.from(call().toString("latin1").replace("POST /rpc", "POST  /rpc"), "latin1")],
      [
        "a chunked body",
        request(
          [`POST /rpc/public/${KEY} HTTP/1.1`, "Host: x", "Transfer-Encoding: chunked"],
          `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`,
        ),
      ],
      ["chunked and a length", call(undefined, ["Transfer-Encoding: chunked"])],
      ["Expect: 100-continue", call(undefined, ["Expect: 100-continue"])],
      ["an Upgrade", call(undefined, ["Upgrade: websocket", "Connection: Upgrade"])],
      ["Connection: upgrade alone", call(undefined, ["Connection: keep-alive, Upgrade"])],
      ["no Content-Length", request([`POST /rpc/public/${KEY} HTTP/1.1`, "Host: x"])],
      ["two Content-Lengths, even equal ones", call(undefined, [`Content-Length: ${BODY.length}`])],
      ["a Content-Length that is not a number", request([`POST /rpc/public/${KEY} HTTP/1.1`, "Host: x", "Content-Length: 2x"], "{}")],
      ["a signed Content-Length", request([`POST /rpc/public/${KEY} HTTP/1.1`, "Host: x", "Content-Length: +2"], "{}")],
      ["a Content-Length list", request([`POST /rpc/public/${KEY} HTTP/1.1`, "Host: x", "Content-Length: 2, 2"], "{}")],
      ["a Content-Length of ten digits", request([`POST /rpc/public/${KEY} HTTP/1.1`, "Host: x", "Content-Length: 1000000000"], "{}")],
      ["an empty Content-Length", request([`POST /rpc/public/${KEY} HTTP/1.1`, "Host: x", "Content-Length:"], "{}")],
      ["no Host", request([`POST /rpc/public/${KEY} HTTP/1.1`, `Content-Length: ${BODY.length}`], BODY)],
      ["two Hosts", call(undefined, ["Host: other"])],
      ["two Origins", call(undefined, ["Origin: https://a.example", "Origin: https://b.example"])],
      ["a header line without a colon", call(undefined, ["X-Broken"])],
      ["a header line starting with a colon", call(undefined, [": value"])],
      ["a space before the colon", call(undefined, ["X-Name : value"])],
      ["a folded header line", call(undefined, ["X-Folded: a", " b"])],
      ["a header name with a non-token character", call(undefined, ["X(Bad): 1"])],
      ["a bare LF in a value", call(undefined, ["X-Value: a\nb"])],
      ["a NUL in a value", call(undefined, ["X-Value: a\0b"])],
      ["a head over 16 KB", call(undefined, [`X-Pad: ${"p".repeat(MAX_HEAD_BYTES)}`])],
      ["leading blank lines", Buffer.concat([Buffer.from("\r\n"), call()])],
    ];
    test.each(cases)("%s", (_name, data) => {
      expect(readRpcCallHead(data)).toBe("other");
    });

    // Node's parser refuses these with 400 (control characters, DEL, bytes over 0x7f in the target): read here, a
    // call would be answered that Node's server refuses, and an Origin would be echoed with them.
    test.each([
      ["a control character in a header value", call(undefined, ["X-Value: a\x01b"])],
      ["DEL in a header value", call(undefined, ["X-Value: a\x7fb"])],
      ["a control character in the Origin", call(undefined, ["Origin: http://a\x1bb.example"])],
      ["a control character in the target", call(`/rpc/public/a\x01b`)],
      ["a byte over 0x7f in the target", call(`/rpc/public/caf\xe9`)],
      ["a tab in the target", call(`/rpc/public/a\tb`)],
    ])("%s, as Node's parser does (400)", (_name, data) => {
      expect(readRpcCallHead(data)).toBe("other");
    });

    test("as soon as the first bytes cannot start a call", () => {
      expect(readRpcCallHead(Buffer.from("G"))).toBe("other");
      expect(readRpcCallHead(Buffer.from("POST /v"))).toBe("other");
      expect(readRpcCallHead(Buffer.from("POST /rpc"))).toBeNull();
    });

    test("a head still not ended after 16 KB, without waiting for its end", () => {
      const start = Buffer.from(`POST /rpc/public/${KEY} HTTP/1.1\r\nHost: x\r\nX-Pad: `, "latin1");
      const long = Buffer.concat([start, Buffer.alloc(MAX_HEAD_BYTES + 1 - start.length, "p")]);
      expect(readRpcCallHead(long.subarray(0, MAX_HEAD_BYTES))).toBeNull();
      expect(readRpcCallHead(long)).toBe("other");
    });
  });
});

describe("readRepeatedHead", () => {
  /** A call's head with `length` as its Content-Length value (as written, spaces and all) and `extra` lines after it. */
  const withLength = (length: string, extra: readonly string[] = [], target = `/rpc/public/${KEY}`) =>
    request([`POST ${target} HTTP/1.1`, "Host: 127.0.0.1:8787", `Content-Length:${length}`, ...extra], "x".repeat(2000));
  const repeated = (data: Buffer, previous: Buffer) =>
    readRepeatedHead(data, head(previous), previous.subarray(0, head(previous).bodyStart));

  test("a head that differs from the last only in its Content-Length digits is read without a full read, the same", () => {
    const previous = withLength(" 47", ["Origin: https://app.example", "Connection: keep-alive"]);
    for (const length of ["1", "9", "10", "47", "999", "1048576", "000000012", "123456789"]) {
      const data = withLength(` ${length}`, ["Origin: https://app.example", "Connection: keep-alive"]);
      const read = repeated(data, previous);
      expect([length, read]).toEqual([length, readRpcCallHead(data)]);
      expect(read!.contentLength).toBe(Number(length));
    }
  });

  test("the path, key and origin strings are the last head's (so maps find their hashes made)", () => {
    const previous = withLength(" 47");
    const first = head(previous);
    const read = readRepeatedHead(withLength(" 1234"), first, previous.subarray(0, first.bodyStart))!;
    expect(read.path).toBe(first.path);
    expect(read.key).toBe(first.key);
  });

  test("anything else differing is null (a full read then), whatever it is", () => {
    const previous = withLength(" 47", ["Origin: https://app.example"]);
    for (const data of [
      withLength(" 47", ["Origin: https://app.exampl"]),
      withLength(" 47", ["Origin: https://app.example", "Connection: close"]),
      withLength(" 47", ["origin: https://app.example"]),
      withLength("47", ["Origin: https://app.example"]),
      withLength(" 47 ", ["Origin: https://app.example"]),
      withLength(" 1234567890", ["Origin: https://app.example"]),
      withLength(" ", ["Origin: https://app.example"]),
      withLength(" 4x", ["Origin: https://app.example"]),
      withLength(" 47", ["Origin: https://app.example"], `/rpc/admin/${KEY}`),
      withLength(" 47", ["Origin: https://app.example"], `/rpc/public/${KEY}?x`),
    ]) {
      expect([data.toString("latin1", 0, data.indexOf("\r\n\r\n")), repeated(data, previous)]).toEqual([
        data.toString("latin1", 0, data.indexOf("\r\n\r\n")),
        null,
      ]);
    }
  });

  test("a head not yet whole is null, at every length short of its end", () => {
    const previous = withLength(" 47");
    const data = withLength(" 123");
    const headEnd = data.indexOf("\r\n\r\n") + 4;
    for (let length = 0; length < headEnd; length += 1)
      expect([length, repeated(data.subarray(0, length), previous)]).toEqual([length, null]);
    expect(repeated(data.subarray(0, headEnd), previous)).toEqual(readRpcCallHead(data.subarray(0, headEnd)));
  });

  test("longer digits that take the head past 16 KB are null: the full read hands it over", () => {
    const pad = (size: number) => [`X-Pad: ${"p".repeat(size)}`];
    const probe = withLength(" 1", pad(0));
    const room = MAX_HEAD_BYTES - (probe.indexOf("\r\n\r\n") - 0); // the head's length may reach MAX_HEAD_BYTES
    const previous = withLength(" 1", pad(room));
    expect(previous.indexOf("\r\n\r\n")).toBe(MAX_HEAD_BYTES);
    expect(head(previous).contentLength).toBe(1);
    const longer = withLength(" 12", pad(room));
    expect(readRpcCallHead(longer)).toBe("other");
    expect(repeated(longer, previous)).toBeNull();
  });
});

describe("countText", () => {
  test.each([0, 7, 999, 1000, 1001, 1_000_000, 10_000_007, 1_764_000_000, Number.MAX_SAFE_INTEGER])("%d is its decimal text", (count) => {
    expect(countText(count)).toBe(String(count));
  });

  test("any whole number up to 2^53 - 1 is its decimal text", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (count) => countText(count) === String(count)));
  });
});

describe("encodeRpcReply", () => {
  const DATE = "Tue, 24 Nov 2026 23:00:00 GMT";
  const reply = (status: RpcReply["status"], body: RpcReply["body"], headers: RpcReply["headers"] = {}): RpcReply => ({
    status,
    headers,
    body,
  });

  /** The head's lines and the body. */
  function split(bytes: Buffer): { lines: string[]; body: Buffer } {
    const end = bytes.indexOf("\r\n\r\n");
    return { lines: bytes.toString("latin1", 0, end).split("\r\n"), body: bytes.subarray(end + 4) };
  }

  test("a kept-alive answer: status line, the reply's headers, the length, the date, keep-alive with its timeout, the body", () => {
    const { lines, body } = split(
      encodeRpcReply(reply(200, "{}", { "content-type": "application/json; charset=utf-8", "x-svc-limit": 10 }), false, 72, DATE),
    );
    expect(lines).toEqual([
      "HTTP/1.1 200 OK",
      "content-type: application/json; charset=utf-8",
      "x-svc-limit: 10",
      "content-length: 2",
      `date: ${DATE}`,
      "connection: keep-alive",
      "keep-alive: timeout=72",
    ]);
    expect(body.toString()).toBe("{}");
  });

  test.each([0, 9, 10, 99, 100, 6_000, 9_999_999, 1_764_000_000, Number.MAX_SAFE_INTEGER])(
    "the count %d is written as its digits",
    (count) => {
      const { lines } = split(encodeRpcReply(reply(200, "{}", { "x-svc-remaining": count }), false, 5, DATE));
      expect(lines).toContain(`x-svc-remaining: ${count}`);
      expect(lines).toContain("content-length: 2");
    },
  );

  test("numbers that are not counts are written as JavaScript writes them, and text as Latin-1 bytes", () => {
    const headers = { "x-a": 1.5, "x-b": -3, "x-c": 2 ** 60, "x-d": "café" };
    const { lines, body } = split(encodeRpcReply(reply(200, "[1]", headers), false, 5, DATE));
    expect(lines.slice(1, 5)).toEqual(["x-a: 1.5", "x-b: -3", `x-c: ${2 ** 60}`, "x-d: café"]);
    expect(body.toString()).toBe("[1]");
  });

  test("the length and the keep-alive timeout of many digits, with a body as long", () => {
    const text = "x".repeat(123_456);
    const bytes = encodeRpcReply(reply(200, text), false, 86_400, DATE);
    const { lines, body } = split(bytes);
    expect(lines.slice(-4)).toEqual(["content-length: 123456", `date: ${DATE}`, "connection: keep-alive", "keep-alive: timeout=86400"]);
    expect(body.toString()).toBe(text);
  });

  test("a closing answer says connection: close and no keep-alive", () => {
    const { lines } = split(encodeRpcReply(reply(200, "{}"), true, 72, DATE));
    expect(lines.filter((line) => /^(connection|keep-alive):/i.test(line))).toEqual(["connection: close"]);
  });

  test.each([
    [200, "OK"],
    [400, "Bad Request"],
    [404, "Not Found"],
    [429, "Too Many Requests"],
    [500, "Internal Server Error"],
  ] as const)("status %d is %s", (status, text) => {
    expect(split(encodeRpcReply(reply(status, ""), false, 5, DATE)).lines[0]).toBe(`HTTP/1.1 ${status} ${text}`);
  });

  test("the length counts the bytes of a UTF-8 body, not its characters", () => {
    const text = '{"result":"é€😀"}';
    const bytes = encodeRpcReply(reply(200, text), false, 5, DATE);
    const { lines, body } = split(bytes);
    expect(lines).toContain(`content-length: ${Buffer.byteLength(text)}`);
    expect(Buffer.byteLength(text)).toBeGreaterThan(text.length);
    expect(body.toString("utf8")).toBe(text);
  });

  test("a body of bytes goes out as it is", () => {
    const raw = Buffer.from([0x7b, 0xc3, 0xa9, 0x7d, 0x00, 0xff]);
    const { lines, body } = split(encodeRpcReply(reply(200, raw), false, 5, DATE));
    expect(lines).toContain("content-length: 6");
    expect(body.equals(raw)).toBe(true);
  });

  test("an empty body has content-length 0", () => {
    const bytes = encodeRpcReply(reply(200, ""), false, 5, DATE);
    expect(split(bytes).lines).toContain("content-length: 0");
    expect(bytes.subarray(bytes.length - 4).toString()).toBe("\r\n\r\n");
  });

  test("a reply that must close (an oversized body's 400, whose headers say so) has one Connection header", () => {
    const oversized: RpcReply = {
      status: 400,
      headers: { "content-type": "application/json; charset=utf-8", connection: "close" },
      body: "{}",
      close: true,
    };
    const { lines } = split(encodeRpcReply(oversized, true, 5, DATE));
    expect(lines.filter((line) => /^connection:/i.test(line))).toEqual(["connection: close"]);
  });
});
