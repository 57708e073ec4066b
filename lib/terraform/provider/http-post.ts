/**
 * The provider's requests that are not API calls: JSON-RPC to a Virtual Environment's RPC URL and form posts to the
 * explorer's verification API. They go through a `Pool` per origin (in the provider bundle, node-http-pool.ts stands
 * in for undici's), trusting the provider's `ca_file` like the API client does.
 */
import { Pool } from "undici";
import { trustedCertificates } from "../../client/transport/trusted-certificates";

const pools = new Map<string, Pool>();

/** A request's answer: status and body text. */
export interface PostAnswer {
  readonly statusCode: number;
  readonly text: string;
}

/**
 * POSTs `body` to `url` and reads the whole answer.
 * @param caFile the provider's `ca_file` (CHAINFORM_CA_FILE), trusted besides the system's roots
 * @example
 * const { statusCode, text } = await post(rpcUrl, { "content-type": "application/json" }, body, { timeoutMs: 120_000 });
 */
export async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { readonly timeoutMs: number; readonly caFile?: string | undefined },
): Promise<PostAnswer> {
  const target = new URL(url);
  const key = `${target.origin} ${options.caFile ?? ""}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Pool(target.origin, options.caFile ? { connect: { ca: trustedCertificates(options.caFile) } } : {});
    pools.set(key, pool);
  }
  const response = await pool.request({
    path: `${target.pathname}${target.search}`,
    method: "POST",
    headers,
    body,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  return { statusCode: response.statusCode, text: await response.body.text() };
}
