import {
  ApiError,
  BaseError,
  CertificateError,
  ClientConfigError,
  ConnectionError,
  InsecureUrlError,
  InvalidResponseError,
  RateLimitError,
  TimeoutError,
  describeAttempts,
} from ".";
import { version } from "../version";

/** The version line changes with every release; the rest of each message is pinned. */
const pinned = (message: string) => message.split(`chainform@${version}`).join("chainform@<version>");

describe("error messages", () => {
  it("BaseError: short message, details, docs, version", () => {
    const error = new BaseError("Something failed.", { details: "more", docsPath: "#x", metaMessages: ["Request: GET /a"] });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ChainformError");
    expect(pinned(error.message)).toMatchInlineSnapshot(`
"Something failed.

Request: GET /a

Docs: lib/client/README.md#x
Details: more
Version: chainform@<version>"
`);
  });

  it("ApiError carries the error body's fields and the request", () => {
    const error = new ApiError({
      status: 404,
      slug: "resource_not_found",
      errorId: "err_0d4f",
      serviceMessage: "environment 6f1c not found",
      rid: "rid:vnet",
      data: { rid: "rid:vnet" },
      method: "GET",
      path: "/public/v1/account/acme/project/demo/environments/6f1c",
    });
    expect(error).toBeInstanceOf(BaseError);
    expect(JSON.parse(pinned(JSON.stringify({ ...error, message: error.message })))).toMatchInlineSnapshot(`
{
  "attempts": 1,
  "data": {
    "rid": "rid:vnet",
  },
  "details": "environment 6f1c not found",
  "docsPath": "#apierror",
  "elapsedMs": 0,
  "errorId": "err_0d4f",
  "message": "environment 6f1c not found

Request: GET /public/v1/account/acme/project/demo/environments/6f1c
Status: 404 resource_not_found (rid:vnet)
Error ID: err_0d4f

Docs: lib/client/README.md#apierror
Version: chainform@<version>",
  "metaMessages": [
    "Request: GET /public/v1/account/acme/project/demo/environments/6f1c",
    "Status: 404 resource_not_found (rid:vnet)",
    "Error ID: err_0d4f",
  ],
  "method": "GET",
  "name": "ApiError",
  "path": "/public/v1/account/acme/project/demo/environments/6f1c",
  "rid": "rid:vnet",
  "serviceMessage": "environment 6f1c not found",
  "shortMessage": "environment 6f1c not found",
  "slug": "resource_not_found",
  "status": 404,
  "version": "chainform@<version>",
}
`);
  });

  it("ApiError without a body falls back to the status", () => {
    const error = new ApiError({ status: 503, slug: "", errorId: "", serviceMessage: "", method: "PUT", path: "/x" });
    expect(pinned(error.message)).toMatchInlineSnapshot(`
"The service answered 503.

Request: PUT /x
Status: 503

Docs: lib/client/README.md#apierror
Version: chainform@<version>"
`);
  });

  it("RateLimitError is an ApiError with the wait", () => {
    const error = new RateLimitError({
      status: 429,
      slug: "too_many_requests",
      errorId: "err_1",
      serviceMessage: "rate limit exceeded: 20 requests per minute",
      method: "POST",
      path: "/public/v1/account/acme/project/demo/environments",
      retryAfterMs: 42_000,
      attempts: 5,
    });
    expect(error).toBeInstanceOf(ApiError);
    expect([error.retryAfterMs, error.attempts]).toEqual([42_000, 5]);
    expect(pinned(error.message)).toMatchInlineSnapshot(`
"rate limit exceeded: 20 requests per minute

Request: POST /public/v1/account/acme/project/demo/environments
Status: 429 too_many_requests
Error ID: err_1
Attempts: 5
Retry after: 42 s

Docs: lib/client/README.md#ratelimiterror
Version: chainform@<version>"
`);
  });

  it("ApiError after retries says how many attempts over how long", () => {
    const error = new ApiError({
      status: 503,
      slug: "service_unavailable",
      errorId: "fault",
      serviceMessage: "injected",
      method: "DELETE",
      path: "/api/v1/account/acme/project/demo/environments/e1",
      attempts: 9,
      elapsedMs: 14_260,
    });
    expect(error.message.split("\n").slice(0, 6)).toEqual([
      "injected",
      "",
      "Request: DELETE /api/v1/account/acme/project/demo/environments/e1",
      "Status: 503 service_unavailable",
      "Error ID: fault",
      "Attempts: 9 over 14 s",
    ]);
    expect(describeAttempts(error)).toBe("9 attempts over 14 s");
    expect(describeAttempts({ attempts: 1, elapsedMs: 420 })).toBe("1 attempt over 0.4 s");
  });

  it("CertificateError says which setting makes the certificate trusted", () => {
    const error = new CertificateError({
      method: "GET",
      path: "/x",
      code: "DEPTH_ZERO_SELF_SIGNED_CERT",
      details: "self-signed certificate",
    });
    expect(pinned(error.message)).toMatchInlineSnapshot(`
"The service's TLS certificate is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT).

Request: GET /x

Docs: lib/client/README.md#certificateerror
Details: For a service started with \`chainform serve --tls\`, set caFile (CHAINFORM_CA_FILE, provider argument ca_file) to the certificate file its ready line names. self-signed certificate
Version: chainform@<version>"
`);
  });

  it("TimeoutError", () => {
    const error = new TimeoutError({ method: "GET", path: "/v1/supported-networks", timeoutMs: 5000, attempts: 3 });
    expect(pinned(error.message)).toMatchInlineSnapshot(`
"The request took longer than 5000 ms.

Request: GET /v1/supported-networks
Attempts: 3

Docs: lib/client/README.md#timeouterror
Details: The service did not answer in time. Raise \`timeoutMs\` or check that the service is healthy.
Version: chainform@<version>"
`);
  });

  it("ConnectionError says whether the request may have arrived", () => {
    const refused = new ConnectionError({
      method: "GET",
      path: "/v1/supported-networks",
      code: "ECONNREFUSED",
      sent: false,
      attempts: 5,
      details: "connect ECONNREFUSED 127.0.0.1:9",
    });
    const broken = new ConnectionError({
      method: "POST",
      path: "/x",
      code: "UND_ERR_SOCKET",
      sent: true,
      attempts: 1,
      details: "other side closed",
    });
    expect(pinned(refused.message)).toMatchInlineSnapshot(`
"Could not connect to the service.

Request: GET /v1/supported-networks
Attempts: 5

Docs: lib/client/README.md#connectionerror
Details: connect ECONNREFUSED 127.0.0.1:9
Version: chainform@<version>"
`);
    expect(pinned(broken.message)).toMatchInlineSnapshot(`
"The connection to the service broke before it answered.

Request: POST /x

Docs: lib/client/README.md#connectionerror
Details: other side closed
Version: chainform@<version>"
`);
  });

  it("InsecureUrlError, InvalidResponseError, ClientConfigError", () => {
    expect(pinned(new InsecureUrlError({ host: "api.example.com" }).message)).toMatchInlineSnapshot(`
"Refusing plain http:// to api.example.com: use https:// (http is allowed only for loopback hosts).

Docs: lib/client/README.md#insecureurlerror
Details: Loopback hosts are 127.0.0.0/8, ::1 and localhost.
Version: chainform@<version>"
`);
    expect(
      pinned(
        new InvalidResponseError({ method: "GET", path: "/v1/supported-networks", status: 200, details: "The body is not JSON." }).message,
      ),
    ).toMatchInlineSnapshot(`
"The service answered with a body the client cannot read.

Request: GET /v1/supported-networks
Status: 200

Docs: lib/client/README.md#invalidresponseerror
Details: The body is not JSON.
Version: chainform@<version>"
`);
    expect(pinned(new ClientConfigError("No `accountSlug`: pass it to createClient or to the call.").message)).toMatchInlineSnapshot(`
"No \`accountSlug\`: pass it to createClient or to the call.

Docs: lib/client/README.md#clientconfigerror
Version: chainform@<version>"
`);
  });

  it("walk() finds a cause down the chain", () => {
    const root = new Error("root");
    const error = new TimeoutError({ method: "GET", path: "/", timeoutMs: 1, attempts: 1, cause: root });
    expect(error.walk()).toBe(root);
    expect(error.walk((e) => e === root)).toBe(root);
    expect(error.details).toContain("Raise `timeoutMs`");
  });
});
