/**
 * Where a fixture file is read from and written to: a path, or an artifact in an OCI registry named
 * `oci://HOST/REPOSITORY[:TAG]` (docs/oci-store.md). `export`, `import` and `serve --import` take either.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURE_ARTIFACT, formatOciReference, isOciUrl, OciError, parseOciReference, pullArtifact, pushArtifact } from "../oci";
import { readFixture, readFixtureFile } from "../service/environment-files";
import { CliError } from "./errors";

/** The CA file a registry's private certificate chains to, if the user named one. */
function registryOptions() {
  return { caFile: process.env.CHAINFORM_CA_FILE || undefined };
}

/**
 * The bytes of a fixture at `place` (a path or an `oci://` URL). A registry's refusal, a missing tag or content that
 * does not match its digest is a `CliError` of one line naming the artifact.
 */
export async function readFixtureAt(place: string): Promise<Buffer> {
  if (!isOciUrl(place)) return readFixtureFile(place);
  try {
    return await pullArtifact(parseOciReference(place), FIXTURE_ARTIFACT, registryOptions());
  } catch (error) {
    throw error instanceof OciError ? new CliError(error.message) : error;
  }
}

/** Stores a fixture's bytes at an `oci://` URL; answers the URL that names exactly these bytes (by digest). */
export async function pushFixtureTo(place: string, bytes: Buffer, title: string): Promise<string> {
  try {
    const reference = parseOciReference(place);
    const pushed = await pushArtifact(reference, FIXTURE_ARTIFACT, bytes, { title }, registryOptions());
    return formatOciReference({ ...reference, reference: pushed.digest });
  } catch (error) {
    throw error instanceof OciError ? new CliError(error.message) : error;
  }
}

/**
 * Local files for `serve --import`: paths as given, and each `oci://` URL pulled (and checked) into a private
 * temporary directory. `names` maps each file back to what the user wrote; `cleanup` removes what was pulled.
 */
export async function localFixtureFiles(
  places: readonly string[],
): Promise<{ files: string[]; names: Map<string, string>; cleanup: () => void }> {
  const names = new Map<string, string>();
  const files: string[] = [];
  let directory: string | undefined;
  const cleanup = () => {
    if (directory) rmSync(directory, { recursive: true, force: true });
  };
  try {
    for (const [index, place] of places.entries()) {
      if (!isOciUrl(place)) {
        files.push(place);
        names.set(place, place);
        continue;
      }
      const bytes = await readFixtureAt(place);
      readFixture(bytes, place); // a damaged fixture is refused naming the URL, not the temporary file
      directory ??= mkdtempSync(join(tmpdir(), "chainform-fixtures-"));
      const file = join(directory, `${index}.chainform`);
      writeFileSync(file, bytes, { mode: 0o600 });
      files.push(file);
      names.set(file, place);
    }
  } catch (error) {
    cleanup();
    throw error;
  }
  return { files, names, cleanup };
}

export { isOciUrl };
