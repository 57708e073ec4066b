/**
 * The Etherscan-compatible verifiers on the RPC side (docs/hosted-clients.md "Verification"): an RPC URL with
 * `/verify/etherscan` or `/verify` after it (the vnet GitHub Action's Foundry verifier URL is `<Admin RPC
 * URL>/verify/etherscan`; hardhat-integration's is `<environment RPC URL>/verify`). The URL names the vnet and is its
 * credential, as the RPC URL is; the call is the explorer's Etherscan API on that vnet (contract-verifier.ts), as it
 * answers whether or not the vnet's explorer is enabled. Local RPC URLs (`/rpc/{admin|public}/{key}`) and hosted vnet
 * RPC hosts (`/{key}` or `/{account}/{project}/{environment-slug}`) alike. An answer never quotes the path.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { parseHostedHost } from "../../domain/hosted-names";
import { MAX_VERIFICATION_BODY_BYTES, type ContractVerifier } from "../contract-verifier";
import { vnetByHostedRpc } from "../hosted-urls";
import type { Store } from "../store";

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** The suffixes a verifier URL adds to an RPC URL. */
const SUFFIXES: readonly (readonly string[])[] = [["verify", "etherscan"], ["verify"]];

/**
 * The vnet a verifier URL names, or null when the request is no verifier URL (everything else goes on as before).
 *
 * @example
 * verifierVnetOf(store, "127.0.0.1:8787", `/rpc/admin/${secret}/verify/etherscan`) // the vnet's id
 */
export function verifierVnetOf(store: Store, host: string | undefined, target: string): string | null | undefined {
  // Every RPC call passes here: a path with neither "verify" nor an escape in it names no verifier, and is let by
  // without splitting it (3 to 5 µs a call in a fork suite's profile).
  if (!target.includes("verify") && !target.includes("%")) return null;
  const segments = segmentsOf(target);
  if (!segments) return null;
  const suffix = SUFFIXES.find((words) => words.every((word, i) => segments[segments.length - words.length + i] === word));
  if (!suffix) return null;
  const rpc = segments.slice(0, segments.length - suffix.length);
  const hosted = parseHostedHost(host);
  if (hosted?.kind === "vnet") return vnetByHostedRpc(store, hosted.network, rpc)?.vnet.id;
  if (hosted !== null || rpc.length !== 3 || rpc[0] !== "rpc") return null;
  // Undefined (not null): a verifier URL whose key names no vnet, answered 404 here and not by the API.
  if (rpc[1] === "admin") return store.environments.vnetBySecret(rpc[2])?.id;
  return rpc[1] === "public" ? store.environments.vnet(rpc[2].toLowerCase())?.id : null;
}

/**
 * Answers verifier URLs on `server` ahead of its other request listeners (the RPC URLs', the API's).
 *
 * @example
 * serveVerifyDoors(app.server, app.service.store, () => app.service.verifier);
 */
export function serveVerifyDoors(server: Server, store: Store, verifier: () => ContractVerifier | undefined): void {
  const listeners = server.listeners("request") as Listener[];
  server.removeAllListeners("request");
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const method = request.method;
    const vnetId = method === "GET" || method === "POST" ? verifierVnetOf(store, request.headers.host, request.url ?? "") : null;
    if (vnetId === null) {
      for (const listener of listeners) listener.call(server, request, response);
      return;
    }
    const found = verifier();
    if (!vnetId) return send(response, 404, "no Virtual TestNet has this RPC URL");
    if (!found) return send(response, 503, "contract verification is not available: this service runs without its web part");
    readParameters(request, (parameters) => {
      if (!parameters) return send(response, 413, `request body larger than ${MAX_VERIFICATION_BODY_BYTES} bytes`);
      found.etherscan(vnetId, parameters).then(
        (answer) => sendJson(response, answer.httpStatus, answer.body),
        () => send(response, 500, "internal error: the service log has the details"),
      );
    });
  });
}

/** Query and form (or JSON) body parameters together, the body's winning; null when the body is too large. */
function readParameters(request: IncomingMessage, done: (parameters: Record<string, string> | null) => void): void {
  const parameters: Record<string, string> = Object.fromEntries(new URL(request.url ?? "/", "http://local").searchParams);
  const chunks: Buffer[] = [];
  let size = 0;
  request.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_VERIFICATION_BODY_BYTES) {
      request.removeAllListeners("data");
      request.pause();
      done(null);
    } else chunks.push(chunk);
  });
  request.on("end", () => {
    if (size > MAX_VERIFICATION_BODY_BYTES) return;
    const text = Buffer.concat(chunks).toString("utf8");
    if (/^\s*\{/.test(text)) {
      try {
        for (const [key, value] of Object.entries(JSON.parse(text) as Record<string, unknown>))
          if (typeof value === "string") parameters[key] = value;
      } catch {
        // Not JSON after all: no body parameters; the API says which parameter is missing.
      }
    } else for (const [key, value] of new URLSearchParams(text)) parameters[key] = value;
    done(parameters);
  });
  request.on("error", () => request.destroy());
}

function segmentsOf(target: string): string[] | null {
  const path = target.split(/[?#]/, 1)[0];
  try {
    return path
      .split("/")
      .filter((segment) => segment !== "")
      .map(decodeURIComponent);
  } catch {
    return null;
  }
}

function send(response: ServerResponse, status: number, result: string): void {
  sendJson(response, status, { status: "0", message: "NOTOK", result });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  response.end(text);
}
