import { isLoopbackHost } from "../../domain/loopback";
import { ClientConfigError, InsecureUrlError } from "../errors/transport";

/** A checked base URL: the origin the pool connects to and the path prefix every request path is joined to. */
export interface BaseUrl {
  /** `scheme://host:port`. */
  origin: string;
  /** Path prefix without a trailing slash ("" for none). */
  prefix: string;
}

/**
 * Parses and checks a base URL: `https://` anywhere, `http://` only for loopback hosts (refused with
 * {@link InsecureUrlError} otherwise, before anything is sent). Credentials in the URL are refused: they would
 * end up in logs.
 */
export function parseBaseUrl(baseUrl: string): BaseUrl {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ClientConfigError("The base URL is not a valid URL.", "Expected e.g. https://api.example.com or http://127.0.0.1:8787.");
  }
  if (url.username || url.password) {
    throw new ClientConfigError("The base URL must not carry credentials.", "Pass the key as `accessKey` instead.");
  }
  if (url.protocol === "http:") {
    if (!isLoopbackHost(url.hostname)) throw new InsecureUrlError({ host: url.hostname });
  } else if (url.protocol !== "https:") {
    throw new ClientConfigError(`Unsupported base URL scheme ${url.protocol}`, "Use https:// (or http:// for loopback hosts).");
  }
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, "") };
}

/** Query values the client sends; undefined values are left out. */
export type QueryValues = Record<string, string | number | boolean | undefined>;

/** Joins the base path prefix, a request path and its query. Path segments must already be encoded. */
export function buildPath(prefix: string, path: string, query?: QueryValues): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, String(value));
  const qs = search.toString();
  return `${prefix}${path}${qs ? `?${qs}` : ""}`;
}

/** Encodes one path segment; refuses an empty one (it would silently address a different endpoint). */
export function segment(name: string, value: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new ClientConfigError(`\`${name}\` must be a non-empty string.`);
  }
  return encodeURIComponent(value);
}
