import fc from "fast-check";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentialsFor } from "./credentials";
import { OciError } from "./errors";
import { formatOciReference, parseOciReference } from "./reference";
import { layerOf, FIXTURE_ARTIFACT } from "./artifact";

describe("parseOciReference", () => {
  test.each([
    ["oci://127.0.0.1:5000/acme/fixtures:pr-12", { registry: "127.0.0.1:5000", repository: "acme/fixtures", reference: "pr-12" }],
    ["oci://ghcr.io/acme/chainform/fixtures", { registry: "ghcr.io", repository: "acme/chainform/fixtures", reference: "latest" }],
    ["oci://localhost/a.b__c-d/e", { registry: "localhost", repository: "a.b__c-d/e", reference: "latest" }],
    [`oci://[::1]:5000/x@sha256:${"a".repeat(64)}`, { registry: "[::1]:5000", repository: "x", reference: `sha256:${"a".repeat(64)}` }],
  ])("%s", (url, expected) => {
    expect(parseOciReference(url)).toEqual(expected);
    expect(parseOciReference(formatOciReference(expected))).toEqual(expected);
  });

  test.each([
    ["https://ghcr.io/acme/x", /is not an oci:\/\/ URL/],
    ["oci://ghcr.io", /names no repository/],
    ["oci:///acme", /names no repository/],
    ["oci://user:secret@ghcr.io/acme/x", /credentials go in the Docker config/],
    ["oci://ghcr.io/Acme/x", /repository must be lower-case/],
    ["oci://ghcr.io/acme//x", /repository must be lower-case/],
    ["oci://ghcr.io/acme/x:-tag", /the tag must be/],
    ["oci://ghcr.io/acme/x@sha256:abc", /the digest must be sha256/],
    ["oci://ghcr.io/acme/x:", /the tag must be/],
  ])("%s is refused", (url, message) => {
    expect(() => parseOciReference(url)).toThrow(message);
    expect(() => parseOciReference(url)).not.toThrow(/secret/);
  });

  test("never throws anything but a one-line OciError, and what it accepts formats back to itself", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 40 }), (tail, head) => {
        for (const url of [`oci://${tail}`, `oci://${head}/${tail}`]) {
          try {
            const parsed = parseOciReference(url);
            expect(parseOciReference(formatOciReference(parsed))).toEqual(parsed);
          } catch (error) {
            expect(error).toBeInstanceOf(OciError);
            expect((error as Error).message.split("\n")).toHaveLength(url.split("\n").length);
          }
        }
      }),
      { numRuns: Number(process.env.FC_NUM_RUNS ?? 500) },
    );
  });
});

describe("credentialsFor", () => {
  let home: string;
  beforeEach(() => (home = mkdtempSync(join(tmpdir(), "chainform-docker-"))));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  test("the variables first, GITHUB_TOKEN for ghcr.io, then the Docker config; anonymous when none", () => {
    const config = join(home, "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        auths: {
          "registry.example": { auth: Buffer.from("ann:pass:word").toString("base64") },
          "https://ghcr.io": { username: "bo", password: "pw" },
          "token.example": { identitytoken: "refresh" },
        },
      }),
    );
    const env = { DOCKER_CONFIG: home };
    expect(credentialsFor("registry.example", { env })).toMatchObject({ username: "ann", password: "pass:word" });
    expect(credentialsFor("ghcr.io", { env })).toMatchObject({ username: "bo", password: "pw" });
    expect(credentialsFor("ghcr.io", { env: { ...env, GITHUB_TOKEN: "ght", GITHUB_ACTOR: "octo" } })).toMatchObject({
      username: "octo",
      password: "ght",
      source: "GITHUB_TOKEN",
    });
    expect(credentialsFor("token.example", { env })).toMatchObject({ username: "<token>", password: "refresh" });
    expect(credentialsFor("other.example", { env })).toBeUndefined();
    expect(credentialsFor("other.example", { env: { ...env, CHAINFORM_OCI_USERNAME: "u", CHAINFORM_OCI_PASSWORD: "p" } })).toMatchObject({
      username: "u",
      password: "p",
    });
    writeFileSync(config, "not json");
    expect(credentialsFor("registry.example", { env })).toBeUndefined();
  });
});

describe("layerOf", () => {
  const layer = { mediaType: FIXTURE_ARTIFACT.layerMediaType, digest: `sha256:${"b".repeat(64)}`, size: 10 };
  const manifest = (over: object) =>
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: "application/vnd.oci.image.manifest.v1+json",
        config: { mediaType: FIXTURE_ARTIFACT.configMediaType },
        layers: [layer],
        ...over,
      }),
    );

  test("takes chainform's fixture manifest, and names what differs in any other", () => {
    expect(layerOf(manifest({}), "", FIXTURE_ARTIFACT, "x")).toEqual({ digest: layer.digest, size: 10 });
    expect(() => layerOf(Buffer.from("{"), "", FIXTURE_ARTIFACT, "x")).toThrow("x is not a chainform fixture: its manifest is not JSON");
    expect(() =>
      layerOf(manifest({ mediaType: "application/vnd.docker.distribution.manifest.v2+json" }), "", FIXTURE_ARTIFACT, "x"),
    ).toThrow(/its manifest is application\/vnd\.docker/);
    expect(() => layerOf(manifest({ layers: [layer, layer] }), "", FIXTURE_ARTIFACT, "x")).toThrow(/no single/);
    expect(() => layerOf(manifest({ layers: [{ ...layer, size: 2 ** 40 }] }), "", FIXTURE_ARTIFACT, "x")).toThrow(
      /over the \d+-byte limit/,
    );
  });
});
