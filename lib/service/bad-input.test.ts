/**
 * The bad-input suite: hundreds of generated malformed requests (wrong types, missing and unknown fields, huge
 * strings, invalid JSON, wrong content types, bad pages, unknown enum values, 1 MB bodies, broken paths and
 * credentials). Every one must get a 4xx with the spec's error body, none a 5xx, and the database must be
 * exactly as before.
 */
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { startTestService, type TestService } from "../../test/helpers/service";
import { call, type CallOptions } from "../../test/helpers/http";
import {
  BatchDeleteEnvironmentsRequest,
  CreateEnvironmentRequest,
  ERROR_SLUGS,
  ProjectSimulationRequest,
  SendTransactionRequest,
  VnetSimulationRequest,
} from "../api";
import { connect } from "node:net";
import { NoChainEngine } from "./no-chain-engine";
import "./validation"; // registers the uuid/date-time formats the schema checks below need

interface BadRequest {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly options: CallOptions;
}

const ADDRESS = `0x${"ab".repeat(20)}`;
const UUID = "00000000-0000-4000-8000-000000000001";
const REPLACEMENTS: unknown[] = [123, -1, 1.5, true, null, [], {}, "x", `0x${"z".repeat(3)}`, "x".repeat(300_000)];

/** Every value reachable in a JSON value, with its JSON pointer path. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(value)) return here.concat(...value.map((v, i) => paths(v, [...at, i])));
  if (typeof value === "object" && value !== null) return here.concat(...Object.entries(value).map(([k, v]) => paths(v, [...at, k])));
  return here;
}

function withValue(root: unknown, path: (string | number)[], replace: (parent: any, key: string | number) => void): unknown {
  const copy = structuredClone(root);
  let parent: any = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  replace(parent, path[path.length - 1]);
  return copy;
}

/** Mutants of a valid body that its schema rejects: each value replaced by wrong types, each key removed, unknown keys. */
function mutants(valid: unknown, schema: TSchema): { name: string; body: unknown }[] {
  const check = TypeCompiler.Compile(schema);
  const out: { name: string; body: unknown }[] = [];
  for (const path of paths(valid)) {
    const where = `/${path.join("/")}`;
    if (path.length === 0) {
      for (const replacement of [null, [], "x", 1, true]) out.push({ name: `body ${JSON.stringify(replacement)}`, body: replacement });
      continue;
    }
    REPLACEMENTS.forEach((replacement, i) =>
      out.push({ name: `${where} = replacement ${i}`, body: withValue(valid, path, (p, k) => (p[k] = structuredClone(replacement))) }),
    );
    if (typeof path[path.length - 1] === "string") {
      out.push({ name: `${where} removed`, body: withValue(valid, path, (p, k) => delete p[k]) });
    }
    out.push({
      name: `${where} gets an unknown field`,
      body: withValue(
        valid,
        path,
        (p, k) => (p[k] = typeof p[k] === "object" && p[k] !== null && !Array.isArray(p[k]) ? { ...p[k], surprise: 1 } : p[k]),
      ),
    });
  }
  return out.filter((m) => !check.Check(m.body));
}

let service: TestService;
let environment: { id: string; active_instance: { id: string; vnets: { id: string }[] } };
const base = "/public/v1/account/acme/project/demo/environments";

function dump(): string {
  const db = service.app.service.store.db;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
  return JSON.stringify(tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()]));
}

beforeAll(async () => {
  service = await startTestService({ createChainEngine: () => new NoChainEngine() });
  environment = (
    await call(service, "POST", base, { as: "alice", body: { display_name: "existing", network_configs: [{ network_id: "1" }] } })
  ).body;
});
afterAll(() => service.close());

function badRequests(): BadRequest[] {
  const instance = `${base}/${environment.id}/instance/${environment.active_instance.id}`;
  const vnet = environment.active_instance.vnets[0].id;
  const bodies: [string, string, unknown, TSchema][] = [
    [
      "POST",
      base,
      {
        display_name: "valid",
        slug: "valid",
        network_configs: [
          {
            network_id: "1",
            block_number: "0x10",
            chain_config_overrides: { chain_id: "7" },
            explorer_config: { enabled: true, verification_visibility: "abi" },
            accounts: [{ address: ADDRESS, balance: "0x1" }],
          },
        ],
        bridge_config: { enabled: true, relay_mode: "delayedRelay", delay_seconds: 3 },
      },
      CreateEnvironmentRequest,
    ],
    ["DELETE", base, { environment_ids: [UUID] }, BatchDeleteEnvironmentsRequest],
    [
      "POST",
      `${instance}/vnet/${vnet}/transactions`,
      { callArgs: { from: ADDRESS, to: ADDRESS, gas: "0x1", gasPrice: "0x1", value: "0x1", data: "0x00" } },
      SendTransactionRequest,
    ],
    [
      "POST",
      `${instance}/vnet/${vnet}/transactions/simulate`,
      {
        callArgs: { from: ADDRESS },
        blockNumber: "0x1",
        blockOverrides: { number: "0x1", timestamp: "0x2" },
        stateOverrides: { [ADDRESS]: { balance: "0x1" } },
      },
      VnetSimulationRequest,
    ],
    [
      "POST",
      `/v1/account/acme/project/demo/vnets/${vnet}/transactions/simulate`,
      { callArgs: { from: ADDRESS }, blockNumber: "0x1" },
      VnetSimulationRequest,
    ],
    [
      "POST",
      "/v1/account/acme/project/demo/simulate",
      {
        network_id: "1",
        block_number: null,
        transaction_index: 0,
        from: ADDRESS,
        input: "0x",
        to: ADDRESS,
        gas: 21000,
        gas_price: "0",
        value: "0",
        access_list: [{ address: ADDRESS, storage_keys: [`0x${"0".repeat(64)}`] }],
        generate_access_list: false,
        save: true,
        block_header: { number: "0x1" },
      },
      ProjectSimulationRequest,
    ],
  ];
  const requests: BadRequest[] = [];
  for (const [method, path, valid, schema] of bodies) {
    for (const mutant of mutants(valid, schema))
      requests.push({ name: `${method} ${path} ${mutant.name}`, method, path, options: { as: "alice", body: mutant.body } });
    const raw = (name: string, body: string, contentType: string) =>
      requests.push({
        name: `${method} ${path} ${name}`,
        method,
        path,
        options: { as: "alice", body, headers: { "content-type": contentType } },
      });
    for (const text of [
      "{",
      "[",
      "nul",
      '{"a":}',
      "{'a':1}",
      '{"a":1}}',
      "\u0000",
      '{"__proto__":{"x":1}}',
      `${"[".repeat(50_000)}${"]".repeat(50_000)}`,
    ])
      raw(`invalid JSON ${text.slice(0, 10)}`, text, "application/json");
    raw("text/plain", JSON.stringify(valid), "text/plain");
    raw("form", "a=1&b=2", "application/x-www-form-urlencoded");
    raw("octet-stream", JSON.stringify(valid), "application/octet-stream");
    raw("1 MB body", JSON.stringify({ ...(valid as object), display_name: "x".repeat(1024 * 1024) }), "application/json");
    raw("2 MB body", "x".repeat(2 * 1024 * 1024), "application/json");
    raw("empty body", "", "application/json");
    raw("nested display_name", `{"display_name":${"[".repeat(20_000)}${"]".repeat(20_000)}}`, "application/json");
  }
  // Semantic rules of environments.
  for (const body of [
    { display_name: "e", network_configs: [{ network_id: "424242" }] },
    { display_name: "e", network_configs: [{ network_id: "324" }] },
    { display_name: "e", network_configs: [{ network_id: "1" }, { network_id: "1" }] },
    { display_name: "e", network_configs: [{ network_id: "1" }], bridge_config: { delay_seconds: 1 } },
    // Issue 11's defects: chain ids past their range, block numbers past 2^64-1 (each a 400 naming the field).
    { display_name: "e", network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: "99999999999999999999" } }] },
    { display_name: "e", network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: "9223372036854775772" } }] },
    { display_name: "e", network_configs: [{ network_id: "1", block_number: "0xfffffffffffffffff" }] },
    { display_name: "e", network_configs: [{ network_id: "1", block_number: `0x1${"0".repeat(16)}` }] },
    {
      display_name: "e",
      network_configs: [
        { network_id: "1", chain_config_overrides: { chain_id: "9007199254740993" } },
        { network_id: "10", chain_config_overrides: { chain_id: "9007199254740993" } },
      ],
    },
    { display_name: "e", slug: "existing", network_configs: [{ network_id: "10" }] },
  ])
    requests.push({ name: `semantic ${JSON.stringify(body)}`, method: "POST", path: base, options: { as: "alice", body } });
  // Pagination and filters.
  for (const list of [base, "/v1/account/acme/project/demo/simulations", `${instance}/transactions`]) {
    for (const query of [
      "page=0",
      "page=-1",
      "page=1.5",
      "page=abc",
      "page=",
      "page=1e3",
      "page=99999999999999999999",
      "perPage=0",
      "perPage=101",
      "perPage=-1",
      "perPage=x",
      "perPage=1.5",
      "page=1&page=2",
      "unknown=1",
      "page[]=1",
    ]) {
      requests.push({ name: `GET ${list}?${query}`, method: "GET", path: `${list}?${query}`, options: { as: "alice" } });
    }
  }
  for (const query of ["status=ok", "category=other", "kind=x", "from=0x1", "to=nothex", "from=" + "a".repeat(10_000)]) {
    requests.push({ name: `transactions ?${query}`, method: "GET", path: `${instance}/transactions?${query}`, options: { as: "alice" } });
  }
  // Paths.
  for (const path of [
    `${base}/not-a-uuid`,
    `${base}/${"1".repeat(5000)}`,
    `${base}/%ZZ`,
    `${base}/%00`,
    `${base}/${UUID}`,
    `/v1/account/${"a".repeat(300)}/projects`,
    "/v1/account/%E0%A4%A/projects",
    "/v1/account/acme/projects/extra",
    "/",
    "/v2/account/acme/projects",
    `${instance}/transactions/0x123`,
    `${instance}/transactions/${"0x" + "g".repeat(64)}`,
    `${base}/${environment.id}/instance/nope/transactions`,
    "/v1/account/acme/project/demo/actions/action/%20/stop",
    "/v1/account/acme/project/nope/simulations",
  ]) {
    requests.push({ name: `GET ${path.slice(0, 80)}`, method: "GET", path, options: { as: "alice" } });
    requests.push({ name: `DELETE ${path.slice(0, 80)}`, method: "DELETE", path, options: { as: "alice" } });
  }
  for (const method of ["PUT", "PATCH"])
    requests.push({ name: `${method} environments`, method, path: base, options: { as: "alice", body: {} } });
  // Credentials.
  const credentials: Record<string, string>[] = [
    { "x-access-key": "nope" },
    { authorization: "Bearer " },
    { authorization: "Bearer a.b.c" },
    { authorization: "Basic !!!" },
    { authorization: "Digest x" },
    { authorization: "x".repeat(8000) },
    { "x-access-key": "k".repeat(8000) },
  ];
  for (const headers of credentials) {
    requests.push({
      name: `credentials ${JSON.stringify(headers).slice(0, 40)}`,
      method: "POST",
      path: base,
      options: { headers, body: { display_name: "x", network_configs: [{ network_id: "1" }] } },
    });
  }
  requests.push({
    name: "read-only create",
    method: "POST",
    path: base,
    options: { as: "bob", body: { display_name: "x", network_configs: [{ network_id: "1" }] } },
  });
  requests.push({
    name: "read-only batch delete",
    method: "DELETE",
    path: base,
    options: { as: "bob", body: { environment_ids: [environment.id] } },
  });
  return requests;
}

test("at least 200 malformed requests: each a 4xx with the spec's error body, none a 5xx, the database unchanged", async () => {
  const before = dump();
  const requests = badRequests();
  expect(requests.length).toBeGreaterThanOrEqual(200);
  const failures: string[] = [];
  for (const request of requests) {
    const result = await call(service, request.method, request.path, request.options);
    const error = result.body?.error;
    const ok =
      result.status >= 400 &&
      result.status < 500 &&
      typeof error?.id === "string" &&
      typeof error.message === "string" &&
      error.slug === ERROR_SLUGS[result.status as keyof typeof ERROR_SLUGS];
    if (!ok) failures.push(`${request.name}: ${result.status} ${result.text.slice(0, 200)}`);
  }
  expect(failures).toEqual([]);
  expect(dump()).toBe(before);
}, 60_000);

/** Sends raw bytes on a fresh connection and reads the whole answer (the service closes it after a parser error). */
function rawRequest(bytes: string): Promise<{ status: number; headers: Record<string, string>; body: any; text: string }> {
  const { port, hostname } = new URL(service.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname });
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      data += chunk;
      const head = data.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: (\d+)/i.exec(data.slice(0, head))?.[1];
      if (head >= 0 && length !== undefined && data.length >= head + 4 + Number(length)) socket.destroy();
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const head = data.indexOf("\r\n\r\n");
      const [statusLine, ...lines] = data.slice(0, head).split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      const text = data.slice(head + 4);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      resolve({ status: Number(statusLine?.split(" ")[1]), headers, body, text });
    });
    socket.write(bytes, "latin1");
  });
}

test("requests Node's HTTP parser or Fastify refuse below the routes get the spec's 400 body and the X-Svc-* headers", async () => {
  const host = `Host: ${new URL(service.baseUrl).host}`;
  const path = "/v1/supported-networks";
  const cases: [string, string][] = [
    ["bad Content-Length", `POST ${path} HTTP/1.1\r\n${host}\r\nContent-Length: abc\r\n\r\n`],
    ["two different Content-Lengths", `POST ${path} HTTP/1.1\r\n${host}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`],
    ["Content-Length with chunked", `POST ${path} HTTP/1.1\r\n${host}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    ["a negative Content-Length", `POST ${path} HTTP/1.1\r\n${host}\r\nContent-Length: -1\r\n\r\n`],
    ["an unknown method", `FROBNICATE ${path} HTTP/1.1\r\n${host}\r\n\r\n`],
    ["obs-fold", `GET ${path} HTTP/1.1\r\n${host}\r\nX-Folded: a\r\n  b\r\n\r\n`],
    ["bare LF", `GET ${path} HTTP/1.1\n${host}\nX-A: b\n\n`],
    ["oversized headers", `GET ${path} HTTP/1.1\r\n${host}\r\nX-Big: ${"a".repeat(70_000)}\r\n\r\n`],
    ["a space in a header name", `GET ${path} HTTP/1.1\r\n${host}\r\nBad Header: x\r\n\r\n`],
    ["a control character in a header value", `GET ${path} HTTP/1.1\r\n${host}\r\nX-A: a\u0001b\r\n\r\n`],
    ["an unknown HTTP version", `GET ${path} HTTP/9.9\r\n${host}\r\n\r\n`],
    ["a bad chunk size", `POST ${path} HTTP/1.1\r\n${host}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n`],
    ["a space before the colon", `GET ${path} HTTP/1.1\r\n${host}\r\nX-A : b\r\n\r\n`],
    ["a bad request line", `GET\r\n${host}\r\n\r\n`],
    ["a bad URL", `GET /v1/account/%E0%A4%A/projects HTTP/1.1\r\n${host}\r\n\r\n`],
    ["a method Node knows but the API does not", `PROPFIND ${path} HTTP/1.1\r\n${host}\r\n\r\n`],
  ];
  const failures: string[] = [];
  for (const [name, bytes] of cases) {
    const answer = await rawRequest(bytes);
    const error = answer.body?.error;
    const ok =
      answer.status >= 400 &&
      answer.status < 500 &&
      typeof error?.id === "string" &&
      typeof error.message === "string" &&
      error.slug === ERROR_SLUGS[answer.status as keyof typeof ERROR_SLUGS] &&
      ["x-svc-limit", "x-svc-remaining", "x-svc-reset-timestamp"].every((h) => /^\d+$/.test(answer.headers[h] ?? ""));
    if (!ok) failures.push(`${name}: ${answer.status} ${JSON.stringify(answer.headers)} ${answer.text.slice(0, 200)}`);
  }
  expect(failures).toEqual([]);
});
