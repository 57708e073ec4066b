/**
 * chainform's artifacts in an OCI registry (docs/oci-store.md): an OCI image manifest whose config names what the
 * artifact is (its media type) and whose one layer is the file itself, as Helm charts and ORAS artifacts are stored,
 * so that any registry that keeps images keeps these. A pull checks the manifest's media type, the config's, the one
 * layer's, its size and every digest before a byte of it is used.
 */
import { OciError } from "./errors";
import { OCI_MANIFEST, RegistryClient, type RegistryClientOptions } from "./registry";
import { formatOciReference, type OciReference } from "./reference";

/** A kind of artifact chainform stores: the config's and the layer's media types say which. */
export interface ArtifactKind {
  /** Said in messages, e.g. "fixture". */
  readonly name: string;
  readonly configMediaType: string;
  readonly layerMediaType: string;
  /** The largest layer read. */
  readonly maxBytes: number;
}

/** A fixture file (chainform export). */
export const FIXTURE_ARTIFACT: ArtifactKind = {
  name: "fixture",
  configMediaType: "application/vnd.chainform.fixture.config.v1+json",
  layerMediaType: "application/vnd.chainform.fixture.v1",
  maxBytes: 256 * 1024 * 1024,
};

/** What a push stored. */
export interface PushedArtifact {
  /** The manifest's digest: `oci://…@<digest>` names exactly these bytes for ever. */
  readonly digest: string;
  readonly size: number;
}

/**
 * Stores `bytes` as an artifact of `kind` under the reference's tag.
 * @example
 * await pushArtifact(parseOciReference("oci://127.0.0.1:5000/acme/fixtures:pr-12"), FIXTURE_ARTIFACT, file, { title: "pr-12.chainform" });
 */
export async function pushArtifact(
  reference: OciReference,
  kind: ArtifactKind,
  bytes: Buffer,
  annotations: { readonly title: string },
  options: RegistryClientOptions = {},
): Promise<PushedArtifact> {
  const registry = new RegistryClient(reference.registry, options);
  try {
    return await pushArtifactTo(registry, reference, kind, bytes, annotations);
  } finally {
    await registry.close();
  }
}

/** {@link pushArtifact} through a client the caller keeps open (a fork cache pushes many, with one handshake). */
export async function pushArtifactTo(
  registry: RegistryClient,
  reference: OciReference,
  kind: ArtifactKind,
  bytes: Buffer,
  annotations: { readonly title: string },
): Promise<PushedArtifact> {
  const config = Buffer.from(JSON.stringify({ kind: kind.name, created: new Date().toISOString() }));
  const configDigest = await registry.pushBlob(reference.repository, config);
  const layerDigest = await registry.pushBlob(reference.repository, bytes);
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: kind.configMediaType, digest: configDigest, size: config.length },
      layers: [
        {
          mediaType: kind.layerMediaType,
          digest: layerDigest,
          size: bytes.length,
          annotations: { "org.opencontainers.image.title": annotations.title },
        },
      ],
    }),
  );
  const digest = await registry.pushManifest(reference.repository, reference.reference, manifest);
  return { digest, size: bytes.length };
}

/**
 * The file stored as an artifact of `kind` at the reference, checked against every digest on the way. Throws
 * `OciError` in one line naming the artifact when anything is not as pushed.
 */
export async function pullArtifact(reference: OciReference, kind: ArtifactKind, options: RegistryClientOptions = {}): Promise<Buffer> {
  const registry = new RegistryClient(reference.registry, options);
  try {
    return await pullArtifactFrom(registry, reference, kind);
  } finally {
    await registry.close();
  }
}

/** {@link pullArtifact} through a client the caller keeps open. */
export async function pullArtifactFrom(registry: RegistryClient, reference: OciReference, kind: ArtifactKind): Promise<Buffer> {
  const manifest = await registry.fetchManifest(reference);
  const layer = layerOf(manifest.bytes, manifest.mediaType, kind, formatOciReference(reference));
  return await registry.fetchBlob(reference.repository, layer.digest, kind.maxBytes);
}

interface Layer {
  readonly digest: string;
  readonly size: number;
}

/** The one layer of a manifest of `kind`; an `OciError` naming what differs otherwise. */
export function layerOf(bytes: Buffer, mediaType: string, kind: ArtifactKind, name: string): Layer {
  const notOurs = (what: string) => new OciError(`${name} is not a chainform ${kind.name}: ${what}`);
  let manifest: { mediaType?: unknown; config?: { mediaType?: unknown }; layers?: unknown };
  try {
    manifest = JSON.parse(bytes.toString("utf8")) as typeof manifest;
  } catch {
    throw notOurs("its manifest is not JSON");
  }
  const declared = typeof manifest.mediaType === "string" ? manifest.mediaType : mediaType;
  if (declared !== OCI_MANIFEST) throw notOurs(`its manifest is ${declared || "of no media type"}, not ${OCI_MANIFEST}`);
  if (manifest.config?.mediaType !== kind.configMediaType) {
    throw notOurs(`its config is ${typeof manifest.config?.mediaType === "string" ? manifest.config.mediaType : "of no media type"}`);
  }
  const layers = Array.isArray(manifest.layers) ? (manifest.layers as Array<Record<string, unknown>>) : [];
  if (layers.length !== 1 || layers[0]?.mediaType !== kind.layerMediaType) throw notOurs(`it has no single ${kind.layerMediaType} layer`);
  const { digest, size } = layers[0];
  if (typeof digest !== "string" || !/^sha256:[a-f0-9]{64}$/.test(digest)) throw notOurs("its layer's digest is not sha256");
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0 || size > kind.maxBytes) {
    throw new OciError(`${name}: its ${kind.name} declares ${String(size)} bytes, over the ${kind.maxBytes}-byte limit`);
  }
  return { digest, size };
}
