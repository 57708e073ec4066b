/**
 * A small client of the OCI distribution API over undici: blobs, manifests and tags, with the registry's own auth
 * handshake (an anonymous try, then Basic or a Bearer token from the realm the 401 names). It is ours because the
 * well-kept OCI clients on npm either shell out to a program (oras, docker) or pull a container runtime's worth of
 * dependencies; this needs six requests. docs/oci-store.md says what it speaks; test/oci-store.test.ts runs it against
 * the CNCF distribution registry.
 *
 * Every request has a deadline, every body read a size bound, and every blob and manifest read is checked against
 * its digest. Credentials travel only to the registry's own host and to the token realm it names; no message holds
 * one.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import { Agent, request, type Dispatcher } from "undici";
import { isLoopbackHost } from "../domain/loopback";
import { credentialsFor, type RegistryCredentials } from "./credentials";
import { OciError } from "./errors";
import { formatOciReference, type OciReference } from "./reference";

/** What a client needs besides the registry's name. */
export interface RegistryClientOptions {
  /** @default credentialsFor(registry) */
  readonly credentials?: RegistryCredentials | null;
  /** A PEM file of certificates to trust besides the system's (CHAINFORM_CA_FILE). */
  readonly caFile?: string;
  /** Deadline of each request, connection to last byte. @default 60 s */
  readonly timeoutMs?: number;
}

/** A blob or manifest as the registry returned it, checked against its digest. */
export interface FetchedContent {
  readonly bytes: Buffer;
  readonly digest: string;
  readonly mediaType: string;
}

/** OCI's image manifest media type: what chainform writes and reads. */
export const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const MAX_REDIRECTS = 3;

/** sha256 digest of bytes, as the registry writes it. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/**
 * A client of one registry.
 * @example
 * const registry = new RegistryClient("127.0.0.1:5000", { caFile: process.env.CHAINFORM_CA_FILE });
 * const digest = await registry.pushBlob("acme/fixtures", bytes);
 */
export class RegistryClient {
  readonly registry: string;
  private readonly credentials: RegistryCredentials | undefined;
  private readonly dispatcher: Agent;
  private readonly tokens = new Map<string, string>();
  private origin: string | undefined;

  constructor(registry: string, options: RegistryClientOptions = {}) {
    this.registry = registry;
    this.credentials = options.credentials === null ? undefined : (options.credentials ?? credentialsFor(registry));
    const timeout = options.timeoutMs ?? 60_000;
    const ca = options.caFile ? [...rootCertificates, readCa(options.caFile)] : undefined;
    this.dispatcher = new Agent({ connect: { ca, timeout }, headersTimeout: timeout, bodyTimeout: timeout });
  }

  /** Releases the client's connections. */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /** Uploads a blob unless the repository has it already; answers its digest. */
  async pushBlob(repository: string, bytes: Buffer): Promise<string> {
    const digest = digestOf(bytes);
    const scope = `repository:${repository}:pull,push`;
    const head = await this.send("HEAD", `/v2/${repository}/blobs/${digest}`, { scope });
    if (head.status === 200) return digest;
    const start = await this.send("POST", `/v2/${repository}/blobs/uploads/`, { scope, body: Buffer.alloc(0) });
    this.expect(start, 202, `start an upload to ${repository}`);
    const location = header(start.headers, "location");
    if (!location) throw new OciError(`${this.registry} started an upload to ${repository} but named no location for it`);
    const target = new URL(location, this.base());
    target.searchParams.set("digest", digest);
    const put = await this.send("PUT", target.toString(), {
      scope,
      body: bytes,
      headers: { "content-type": "application/octet-stream" },
    });
    this.expect(put, 201, `store a blob in ${repository}`);
    return digest;
  }

  /** Stores a manifest under a tag (or its digest); answers the manifest's digest. */
  async pushManifest(repository: string, reference: string, manifest: Buffer, mediaType = OCI_MANIFEST): Promise<string> {
    const put = await this.send("PUT", `/v2/${repository}/manifests/${reference}`, {
      scope: `repository:${repository}:pull,push`,
      body: manifest,
      headers: { "content-type": mediaType },
    });
    this.expect(put, 201, `store the manifest ${repository}:${reference}`);
    return digestOf(manifest);
  }

  /** The manifest a tag or digest names, checked against its digest; `mediaType` is what the registry says it is. */
  async fetchManifest(reference: OciReference): Promise<FetchedContent> {
    const name = formatOciReference(reference);
    const got = await this.send("GET", `/v2/${reference.repository}/manifests/${reference.reference}`, {
      scope: `repository:${reference.repository}:pull`,
      headers: { accept: [OCI_MANIFEST, "application/vnd.docker.distribution.manifest.v2+json"].join(", ") },
    });
    if (got.status === 404) {
      await got.body.dump();
      throw new OciError(`${name} does not exist: push it first (chainform export ENV --output ${name})`, { status: 404 });
    }
    this.expect(got, 200, `read ${name}`);
    const bytes = await readBounded(got.body, MAX_MANIFEST_BYTES, `the manifest of ${name}`);
    const digest = digestOf(bytes);
    const claimed = reference.reference.startsWith("sha256:") ? reference.reference : header(got.headers, "docker-content-digest");
    if (claimed && claimed !== digest)
      throw new OciError(`${name}: the manifest does not match its digest (${claimed}): it was altered or truncated`);
    return { bytes, digest, mediaType: (header(got.headers, "content-type") ?? "").split(";")[0].trim() };
  }

  /** A blob of the repository, at most `maxBytes`, checked against its digest. */
  async fetchBlob(repository: string, digest: string, maxBytes: number): Promise<Buffer> {
    const what = `blob ${digest.slice(0, 19)}… of ${this.registry}/${repository}`;
    let url = `/v2/${repository}/blobs/${digest}`;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const got = await this.send("GET", url, { scope: `repository:${repository}:pull` });
      if ([301, 302, 303, 307, 308].includes(got.status)) {
        await got.body.dump();
        url = new URL(header(got.headers, "location") ?? "", this.base()).toString();
        continue;
      }
      this.expect(got, 200, `read the ${what}`);
      const bytes = await readBounded(got.body, maxBytes, `the ${what}`);
      if (digestOf(bytes) !== digest) throw new OciError(`the ${what} does not match its digest: it was altered or truncated`);
      return bytes;
    }
    throw new OciError(`the ${what}: more than ${MAX_REDIRECTS} redirects`);
  }

  /** Every tag of a repository (none when the repository does not exist yet). */
  async listTags(repository: string): Promise<string[]> {
    const tags: string[] = [];
    let url: string | undefined = `/v2/${repository}/tags/list?n=1000`;
    while (url) {
      const got = await this.send("GET", url, { scope: `repository:${repository}:pull` });
      if (got.status === 404) {
        await got.body.dump();
        return tags;
      }
      this.expect(got, 200, `list the tags of ${repository}`);
      const page = JSON.parse((await readBounded(got.body, MAX_MANIFEST_BYTES, "a tag list")).toString("utf8")) as { tags?: unknown };
      if (Array.isArray(page.tags)) tags.push(...page.tags.filter((tag): tag is string => typeof tag === "string"));
      const next = /<([^>]+)>;\s*rel="?next"?/.exec(header(got.headers, "link") ?? "");
      url = next ? new URL(next[1], this.base()).toString() : undefined;
    }
    return tags;
  }

  /** One request, with the auth handshake when the registry asks for it. */
  private async send(method: Dispatcher.HttpMethod, path: string, options: SendOptions): Promise<Answer> {
    const url = path.startsWith("/") ? `${await this.ensureOrigin()}${path}` : path;
    const first = await this.raw(method, url, options, this.authorization(options.scope, url));
    if (first.status !== 401) return first;
    const challenge = header(first.headers, "www-authenticate") ?? "";
    await first.body.dump();
    const authorization = await this.answerChallenge(challenge, options.scope);
    const second = await this.raw(method, url, options, authorization);
    if (second.status === 401 || second.status === 403) {
      await second.body.dump();
      const who = this.credentials ? `the credentials from ${this.credentials.source}` : "an anonymous caller";
      throw new OciError(`${this.registry} refused ${who} for ${options.scope.split(":").slice(1).join(" ")}: check the token or log in`, {
        status: second.status,
        unavailable: true,
      });
    }
    return second;
  }

  private async raw(method: Dispatcher.HttpMethod, url: string, options: SendOptions, authorization: string | undefined): Promise<Answer> {
    // Credentials go only to the registry's own origin; a redirect to storage elsewhere is asked without them.
    const own = new URL(url).host === this.registry;
    const headers: Record<string, string> = { ...options.headers };
    if (authorization && own) headers.authorization = authorization;
    try {
      const answer = await request(url, { method, headers, body: options.body, dispatcher: this.dispatcher });
      return Object.assign(answer, { status: answer.statusCode });
    } catch (error) {
      throw unreachable(this.registry, error);
    }
  }

  private authorization(scope: string, url: string): string | undefined {
    if (new URL(url).host !== this.registry) return undefined;
    return this.tokens.get(scope) ?? this.tokens.get("basic");
  }

  /** The Authorization a 401's challenge asks for: Basic with our credentials, or a Bearer token from its realm. */
  private async answerChallenge(challenge: string, scope: string): Promise<string> {
    const [scheme] = challenge.split(/\s+/, 1);
    const params = Object.fromEntries([...challenge.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]));
    if (scheme.toLowerCase() === "basic") {
      if (!this.credentials) {
        throw new OciError(
          `${this.registry} asks for credentials: set CHAINFORM_OCI_USERNAME and CHAINFORM_OCI_PASSWORD, or docker login`,
          {
            status: 401,
            unavailable: true,
          },
        );
      }
      const basic = basicAuthorization(this.credentials);
      this.tokens.set("basic", basic);
      return basic;
    }
    if (scheme.toLowerCase() !== "bearer" || !params.realm) {
      throw new OciError(`${this.registry} asks for an authentication chainform does not speak (${scheme || "none named"})`, {
        unavailable: true,
      });
    }
    const token = await this.fetchToken(params.realm, params.service, scope);
    this.tokens.set(scope, `Bearer ${token}`);
    return `Bearer ${token}`;
  }

  private async fetchToken(realm: string, service: string | undefined, scope: string): Promise<string> {
    const url = new URL(realm);
    if (url.protocol !== "https:" && !isLoopbackHost(url.hostname)) {
      throw new OciError(`${this.registry} names a token service over plain HTTP (${url.host}): refused, it would see the credentials`);
    }
    if (service) url.searchParams.set("service", service);
    url.searchParams.set("scope", scope);
    const headers: Record<string, string> = {};
    let method: Dispatcher.HttpMethod = "GET";
    let body: string | undefined;
    if (this.credentials?.username === "<token>") {
      // An identity token (docker login with OAuth2) is exchanged as a refresh token.
      method = "POST";
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: this.credentials.password,
        service: service ?? "",
        scope,
        client_id: "chainform",
      }).toString();
    } else if (this.credentials) {
      headers.authorization = basicAuthorization(this.credentials);
    }
    let answer: Dispatcher.ResponseData;
    try {
      answer = await request(url, { method, headers, body, dispatcher: this.dispatcher });
    } catch (error) {
      throw unreachable(url.host, error);
    }
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      const who = this.credentials ? `the credentials from ${this.credentials.source}` : "an anonymous caller";
      throw new OciError(`the token service of ${this.registry} refused ${who} (HTTP ${answer.statusCode})`, {
        status: answer.statusCode,
        unavailable: true,
      });
    }
    const parsed = JSON.parse((await readBounded(answer.body, 1024 * 1024, "a token")).toString("utf8")) as {
      token?: unknown;
      access_token?: unknown;
    };
    const token = typeof parsed.token === "string" ? parsed.token : parsed.access_token;
    if (typeof token !== "string" || token === "")
      throw new OciError(`the token service of ${this.registry} answered no token`, { unavailable: true });
    return token;
  }

  /** https, except that a loopback registry which speaks plain HTTP is asked over HTTP, as Docker does. */
  private async ensureOrigin(): Promise<string> {
    if (this.origin) return this.origin;
    const secure = `https://${this.registry}`;
    if (!isLoopbackHost(new URL(secure).hostname)) return (this.origin = secure);
    try {
      const probe = await request(`${secure}/v2/`, { method: "GET", dispatcher: this.dispatcher });
      await probe.body.dump();
      return (this.origin = secure);
    } catch (error) {
      if (!isPlainHttpAnswer(error)) throw unreachable(this.registry, error);
      return (this.origin = `http://${this.registry}`);
    }
  }

  private base(): string {
    return this.origin ?? `https://${this.registry}`;
  }

  private expect(answer: Answer, status: number, what: string): void {
    if (answer.status === status) return;
    void answer.body.dump();
    throw new OciError(`${this.registry} would not ${what}: HTTP ${answer.status}`, {
      status: answer.status,
      unavailable: answer.status >= 500,
    });
  }
}

interface SendOptions {
  readonly scope: string;
  readonly body?: Buffer;
  readonly headers?: Record<string, string>;
}

type Answer = Dispatcher.ResponseData & { readonly status: number };

function basicAuthorization(credentials: RegistryCredentials): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
}

function header(headers: Dispatcher.ResponseData["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads a body, refusing one longer than `max` as soon as it is. */
async function readBounded(body: Dispatcher.ResponseData["body"], max: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += (chunk as Buffer).length;
    if (length > max) {
      body.destroy();
      throw new OciError(`${what} is larger than ${max} bytes: refused`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function readCa(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new OciError(`CHAINFORM_CA_FILE ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

function isPlainHttpAnswer(error: unknown): boolean {
  const text = `${(error as { code?: string }).code ?? ""} ${(error as Error).message ?? ""} ${String((error as { cause?: unknown }).cause ?? "")}`;
  return /EPROTO|WRONG_VERSION_NUMBER|wrong version number|packet length too long/i.test(text);
}

function unreachable(host: string, error: unknown): OciError {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return new OciError(`the registry ${host} cannot be reached (${code ?? (error as Error).message})`, { unavailable: true, cause: error });
}
