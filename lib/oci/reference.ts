/**
 * Where an artifact lives in an OCI registry, written `oci://HOST[:PORT]/REPOSITORY[:TAG|@DIGEST]` wherever chainform
 * takes a fixture file or a fork cache (docs/oci-store.md). The grammar of repositories, tags and digests is the
 * OCI distribution specification's: a name the registry would refuse is refused here first, with the part named.
 */
import { OciError } from "./errors";

/** An artifact's place: a registry, a repository in it, and a tag or a digest. */
export interface OciReference {
  /** `host[:port]` as written, lower-cased. */
  readonly registry: string;
  /** The repository's path, e.g. `acme/fixtures`. */
  readonly repository: string;
  /** The tag (`latest` when neither a tag nor a digest is given) or the digest (`sha256:…`). */
  readonly reference: string;
}

const SCHEME = "oci://";
// The distribution specification's grammar, component by component.
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const MAX_REPOSITORY = 255;
/** The tag an `oci://` URL names when it names none. */
export const DEFAULT_TAG = "latest";

/** true when `source` is an `oci://` URL rather than a file path. */
export function isOciUrl(source: string): boolean {
  return source.startsWith(SCHEME);
}

/**
 * Reads an `oci://` URL. Throws `OciError` naming the part that is wrong.
 * @example
 * parseOciReference("oci://127.0.0.1:5000/acme/fixtures:pr-12")
 * // { registry: "127.0.0.1:5000", repository: "acme/fixtures", reference: "pr-12" }
 */
export function parseOciReference(url: string): OciReference {
  if (!isOciUrl(url)) throw new OciError(`${url} is not an oci:// URL: write oci://HOST/REPOSITORY[:TAG]`);
  const rest = url.slice(SCHEME.length);
  const shown = withoutUserInfo(url);
  const slash = rest.indexOf("/");
  if (slash <= 0) throw new OciError(`${shown} names no repository: write oci://HOST/REPOSITORY[:TAG]`);
  const registry = registryOf(rest.slice(0, slash), shown);
  let path = rest.slice(slash + 1);
  let reference = DEFAULT_TAG;
  const at = path.indexOf("@");
  if (at >= 0) {
    reference = path.slice(at + 1);
    path = path.slice(0, at);
    if (!DIGEST.test(reference)) throw new OciError(`${shown}: the digest must be sha256: and 64 lower-case hex digits`);
  } else {
    const colon = path.lastIndexOf(":");
    if (colon >= 0) {
      reference = path.slice(colon + 1);
      path = path.slice(0, colon);
      if (!TAG.test(reference))
        throw new OciError(`${shown}: the tag must be 1 to 128 letters, digits, '_', '.' or '-', not starting with '.' or '-'`);
    }
  }
  if (path.length === 0 || path.length > MAX_REPOSITORY || !path.split("/").every((part) => PATH_COMPONENT.test(part))) {
    throw new OciError(
      `${shown}: the repository must be lower-case letters and digits in /-separated parts (separators . _ __ -), at most ${MAX_REPOSITORY} characters`,
    );
  }
  return { registry, repository: path, reference };
}

/** The URL of a reference, as a user writes it. */
export function formatOciReference(reference: OciReference): string {
  const separator = DIGEST.test(reference.reference) ? "@" : ":";
  return `${SCHEME}${reference.registry}/${reference.repository}${separator}${reference.reference}`;
}

/** The same repository under another tag or digest. */
export function withReference(reference: OciReference, tagOrDigest: string): OciReference {
  return { ...reference, reference: tagOrDigest };
}

/** true when `value` is a tag the registry accepts. */
export function isValidTag(value: string): boolean {
  return TAG.test(value);
}

/** The URL with any `user:password@` before the host masked: messages quote the URL, never a credential. */
function withoutUserInfo(url: string): string {
  return url.replace(/^(oci:\/\/)[^/]*@/, "$1…@");
}

function registryOf(host: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(`https://${host}`);
  } catch {
    throw new OciError(`${url}: the host is not a host name or address with an optional port`);
  }
  // URL accepts user info and paths: a registry is a host and a port, nothing else.
  if (parsed.username !== "" || parsed.password !== "" || `${parsed.host}` !== host.toLowerCase()) {
    throw new OciError(`${url}: the host is not a host name or address with an optional port (credentials go in the Docker config)`);
  }
  return parsed.host;
}
