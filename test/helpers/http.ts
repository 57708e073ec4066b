/**
 * A small HTTP caller for service tests: JSON in, status, headers and parsed JSON out.
 *
 * @example
 * const { status, body } = await call(service, "GET", "/v1/account/acme/projects", { as: "alice" });
 */
import { request } from "node:http";
import type { TestService } from "./service";

/** What a call returns. `body` is the parsed JSON, or the raw text when it is not JSON ("" for none). */
export interface CallResult {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
  readonly text: string;
}

/** Options of a call. */
export interface CallOptions {
  /** Seeded user whose access key is sent as `X-Access-Key`. */
  readonly as?: string;
  /** JSON body (sent with `Content-Type: application/json`), or a raw string sent as is. */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** Calls the service and reads the whole answer. */
export async function call(
  service: Pick<TestService, "baseUrl" | "keys">,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = {};
  if (options.as) headers["x-access-key"] = service.keys[options.as];
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  const response = await fetch(`${service.baseUrl}${path}`, { method, headers: { ...headers, ...options.headers }, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === "" ? "" : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** One JSON-RPC call to a chain URL (a vnet's Admin or public RPC); throws on an error answer, naming the method. */
export async function rpc<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: T; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result as T;
}

/** The Admin RPC URL of vnet `index` of an environment as the API answers it. */
export function adminRpc(
  environment: { readonly active_instance: { readonly vnets: readonly { readonly rpcs: readonly { name: string; url: string }[] }[] } },
  index = 0,
): string {
  return environment.active_instance.vnets[index].rpcs.find((r) => r.name === "Admin RPC")!.url;
}

/** Asserts the spec's error body (`error.id`, `error.slug`, `error.message`) with a slug. */
export function expectErrorBody(result: CallResult, status: number, slug: string): void {
  expect({ status: result.status, slug: result.body?.error?.slug }).toEqual({ status, slug });
  expect(typeof result.body.error.id).toBe("string");
  expect(result.body.error.id.length).toBeGreaterThan(0);
  expect(typeof result.body.error.message).toBe("string");
}

/**
 * A POST to the service under another Host header (fetch may not set one), as a client redirected by `chainform exec`
 * or a hosts file sends it. `body` is sent as is; the answer's `body` is parsed JSON, or the text when it is not JSON.
 */
export function postUnderHost(
  service: Pick<TestService, "baseUrl">,
  host: string,
  path: string,
  body: string,
  headers: Record<string, string | number>,
): Promise<{ status: number; body: any; text: string }> {
  const url = new URL(service.baseUrl);
  return new Promise((resolve, reject) => {
    const sent = request({ host: url.hostname, port: url.port, path, method: "POST", headers: { host, ...headers } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: response.statusCode ?? 0, body: parsed, text });
      });
    });
    sent.on("error", reject);
    sent.end(body);
  });
}
