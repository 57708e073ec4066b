/**
 * Which certificates the client trusts: the system's (Node's bundled roots) plus, when given, a CA file such as the
 * self-signed certificate of `chainform serve --tls`. Adding to the roots instead of replacing them keeps one
 * setting (`CHAINFORM_CA_FILE`) harmless for services with a publicly trusted certificate.
 */
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import { ClientConfigError } from "../errors/transport";

/** Every PEM certificate of a text (use with `String.prototype.match`). */
export const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Reads a PEM CA file and returns the trust list for undici's `connect.ca`: the system roots and the file's
 * certificates. Throws {@link ClientConfigError} (option `caFile`) when the file is unreadable or holds no certificate.
 * @example
 * const ca = trustedCertificates("/home/me/.chainform/tls-cert.pem");
 */
export function trustedCertificates(caFile: string): string[] {
  let text: string;
  try {
    text = readFileSync(caFile, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ClientConfigError(
      `Cannot read the CA file ${caFile} (${code}).`,
      "Point caFile (CHAINFORM_CA_FILE) at a PEM certificate file.",
      {
        option: "caFile",
      },
    );
  }
  const certificates = text.match(PEM_CERTIFICATE) ?? [];
  if (certificates.length === 0) {
    throw new ClientConfigError(
      `The CA file ${caFile} holds no PEM certificate.`,
      "Expected a file starting with -----BEGIN CERTIFICATE-----.",
      {
        option: "caFile",
      },
    );
  }
  return [...rootCertificates, ...certificates];
}

/** Error codes of a TLS handshake that failed because the client does not trust the service's certificate. */
export const UNTRUSTED_CERTIFICATE_CODES: ReadonlySet<string> = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "CERT_SIGNATURE_FAILURE",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "INVALID_CA",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/**
 * Whether a connection error means the client spoke TLS to a plain-HTTP service (an `https://` base URL for an
 * `http://` service): OpenSSL read an HTTP answer where a TLS record should be. Node reports it as
 * `ERR_SSL_WRONG_VERSION_NUMBER` or `ERR_SSL_PACKET_LENGTH_TOO_LONG`, some builds as `EPROTO` with the same text.
 * @example
 * isPlainHttpAnswer("ERR_SSL_WRONG_VERSION_NUMBER", "...ssl3_get_record:wrong version number...") // true
 */
export function isPlainHttpAnswer(code: string | undefined, message: string): boolean {
  if (code === "ERR_SSL_WRONG_VERSION_NUMBER" || code === "ERR_SSL_PACKET_LENGTH_TOO_LONG" || code === "ERR_SSL_HTTP_REQUEST") return true;
  return code === "EPROTO" && /wrong version number|packet length too long|http request/i.test(message);
}
