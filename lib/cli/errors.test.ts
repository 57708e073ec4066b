import { parseArgs } from "node:util";
import { ApiError, CertificateError, ClientConfigError, ConnectionError, RateLimitError } from "../client";
import { UsageError } from "./command";
import { CliError, explainError, redactorFor } from "./errors";

const env = {
  CHAINFORM_BASE_URL: "http://127.0.0.1:9",
  CHAINFORM_ACCESS_KEY: "cf_secret-key-123",
  CHAINFORM_ACCOUNT: "acme",
  CHAINFORM_PROJECT: "demo",
};
const api = (status: number, slug: string, rid?: string) =>
  new ApiError({ status, slug, errorId: "err_1", serviceMessage: "nope", rid, method: "GET", path: "/x" });

describe("explainError", () => {
  it("gives one line and an exit code per kind of failure", () => {
    expect(explainError(new CliError("fix it"), env)).toEqual({ line: "fix it", details: "", exitCode: 1 });
    expect(explainError(new UsageError("bad flag"), env).exitCode).toBe(2);
    expect(
      explainError(
        new ConnectionError({ method: "GET", path: "/x", code: "ECONNREFUSED", sent: false, attempts: 3, details: "refused" }),
        env,
      ).line,
    ).toBe(
      "cannot reach the chainform service at http://127.0.0.1:9: start one with `npx --no-install chainform serve`, or set CHAINFORM_BASE_URL to the address of a running service",
    );
    expect(explainError(api(401, "unauthorized"), env).line).toMatch(
      /^the service rejected the credentials \(401 unauthorized, error id err_1\): set CHAINFORM_ACCESS_KEY/,
    );
    expect(explainError(api(401, "unauthorized"), { ...env, CHAINFORM_ACCESS_KEY: "" }).line).toMatch(/^no credentials \(401/);
    expect(explainError(api(403, "insufficient_permissions"), env).line).toMatch(/^the key may not do this/);
    expect(explainError(api(404, "resource_not_found", "rid:project"), env).line).toMatch(
      /^project acme\/demo was not found or this key cannot see it/,
    );
    expect(explainError(api(409, "conflict"), env).line).toBe("the service answered 409 conflict, error id err_1: nope");
    const limited = new RateLimitError({
      status: 429,
      slug: "too_many_requests",
      errorId: "",
      serviceMessage: "",
      method: "GET",
      path: "/x",
      retryAfterMs: 41_200,
      attempts: 1,
    });
    expect(explainError(limited, env).line).toMatch(/^the service's rate limit for this key is used up: wait 42 s/);
  });

  it("says how long a request that ran out of retries tried", () => {
    const exhausted = new ApiError({
      status: 503,
      slug: "service_unavailable",
      errorId: "fault",
      serviceMessage: "busy",
      method: "DELETE",
      path: "/x",
      attempts: 9,
      elapsedMs: 14_260,
    });
    expect(explainError(exhausted, env).line).toBe(
      "the service answered 503 service_unavailable, error id fault (gave up after 9 attempts over 14 s): busy",
    );
    const broken = new ConnectionError({
      method: "GET",
      path: "/x",
      code: "UND_ERR_SOCKET",
      sent: true,
      attempts: 9,
      elapsedMs: 3_400,
      details: "closed",
    });
    expect(explainError(broken, env).line).toMatch(/broke before it answered \(9 attempts over 3\.4 s\)/);
  });

  it("names CHAINFORM_CA_FILE when the certificate is not trusted or the file is unusable", () => {
    const untrusted = new CertificateError({ method: "GET", path: "/x", code: "SELF_SIGNED_CERT_IN_CHAIN", details: "" });
    expect(explainError(untrusted, env).line).toMatch(/is not trusted \(SELF_SIGNED_CERT_IN_CHAIN\): set CHAINFORM_CA_FILE/);
    const misnamed = new CertificateError({ method: "GET", path: "/x", code: "ERR_TLS_CERT_ALTNAME_INVALID", details: "" });
    expect(explainError(misnamed, env).line).toMatch(/does not name that host: set CHAINFORM_BASE_URL to the baseUrl/);
    const unreadable = new ClientConfigError(
      "Cannot read the CA file /nope (ENOENT).",
      "Point caFile (CHAINFORM_CA_FILE) at a PEM certificate file.",
      { option: "caFile" },
    );
    expect(explainError(unreadable, env).line).toBe(
      "CHAINFORM_CA_FILE is unusable: Cannot read the CA file /nope (ENOENT). Point caFile (CHAINFORM_CA_FILE) at a PEM certificate file.",
    );
  });

  it("keeps the full message as the --verbose details", () => {
    expect(explainError(api(409, "conflict"), env).details).toMatch(/Request: GET \/x/);
  });
});

describe("option parsing errors", () => {
  const parse = (args: string[], allowPositionals = true) => {
    try {
      parseArgs({ args, strict: true, allowPositionals, options: { seed: { type: "string" }, keep: { type: "boolean" } } });
    } catch (error) {
      return explainError(error, env, "serve");
    }
    throw new Error(`${args.join(" ")} parsed`);
  };

  it("says which option needs a value", () => {
    expect(parse(["--seed"])).toEqual({
      line: "--seed needs a value: pass it as `--seed VALUE` or `--seed=VALUE`",
      details: "",
      exitCode: 2,
    });
  });

  it("names a mistyped option once, without the parser's advice and its stray quote", () => {
    const { line } = parse(["--sed", "x.json"]);
    expect(line).toBe("unknown option --sed: `chainform serve --help` lists the options");
    expect(line).not.toMatch(/'/);
  });

  it("explains a value given to a flag and an unexpected argument", () => {
    expect(parse(["--keep=yes"]).line).toBe("--keep takes no value: pass it alone");
    expect(parse(["extra"], false).line).toBe(
      'unexpected argument "extra": this command takes none; `chainform serve --help` lists the options',
    );
  });
});

describe("redactorFor", () => {
  it("removes the configured key and every Admin RPC secret", () => {
    const redact = redactorFor(env);
    expect(redact("key cf_secret-key-123 at http://h/rpc/admin/abc123 and http://h/rpc/public/1")).toBe(
      "key [redacted] at http://h/rpc/admin/[redacted] and http://h/rpc/public/1",
    );
  });
});
