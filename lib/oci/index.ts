/**
 * The OCI store: fixture files (and, later, fork recordings) kept in an OCI registry a CI fleet already has, named
 * `oci://HOST/REPOSITORY[:TAG]` (docs/oci-store.md). It imports only the domain and undici, so the CLI, the Action and
 * the service can each use it.
 */
export { OciError } from "./errors";
export { DEFAULT_TAG, formatOciReference, isOciUrl, parseOciReference, withReference, type OciReference } from "./reference";
export { credentialsFor, type RegistryCredentials } from "./credentials";
export { digestOf, RegistryClient, type RegistryClientOptions } from "./registry";
export { FIXTURE_ARTIFACT, pullArtifact, pushArtifact, type ArtifactKind, type PushedArtifact } from "./artifact";
export { openSharedRecordings, RECORDINGS_ARTIFACT, type SharedRecordings } from "./recordings";
