import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chainformDependency } from "./install-source";

describe("chainformDependency", () => {
  let root: string;
  const installed = () => join(root, "node_modules", "chainform");
  /** A project whose hidden lock file says chainform was resolved from `resolved`. */
  const lockSays = (entry: Record<string, unknown>) => {
    mkdirSync(installed(), { recursive: true });
    writeFileSync(
      join(root, "node_modules", ".package-lock.json"),
      JSON.stringify({ lockfileVersion: 3, packages: { "node_modules/chainform": entry } }),
    );
  };
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), "chainform-install-source-"))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("from the registry: the caret range of the version", () => {
    lockSays({ version: "0.1.0", resolved: "https://registry.npmjs.org/chainform/-/chainform-0.1.0.tgz" });
    expect(chainformDependency(installed(), "0.1.0")).toEqual({ spec: "^0.1.0", origin: "the npm registry" });
  });

  it("from a local tarball: a copy inside the new project, so its CI can install it", () => {
    lockSays({ version: "0.1.0", resolved: "file:../dl/chainform-0.1.0.tgz" });
    expect(chainformDependency(installed(), "0.1.0")).toEqual({
      spec: "file:vendor/chainform-0.1.0.tgz",
      copy: { from: join(root, "..", "dl", "chainform-0.1.0.tgz"), vendorPath: "vendor/chainform-0.1.0.tgz" },
      origin: `the tarball ${join(root, "..", "dl", "chainform-0.1.0.tgz")}`,
    });
  });

  it("from a release URL or a git commit: the same URL or commit", () => {
    const url = "https://github.com/chainform/chainform/releases/download/v0.1.0/chainform-0.1.0.tgz";
    lockSays({ version: "0.1.0", resolved: url });
    expect(chainformDependency(installed(), "0.1.0").spec).toBe(url);
    const git = "git+ssh://git@github.com/chainform/chainform.git#0123456789abcdef0123456789abcdef01234567";
    lockSays({ version: "0.1.0", resolved: git });
    expect(chainformDependency(installed(), "0.1.0").spec).toBe(git);
  });

  it("not installed (chainform's own repository) or no lock entry: the caret range", () => {
    expect(chainformDependency(root, "0.1.0").spec).toBe("^0.1.0");
    mkdirSync(installed(), { recursive: true });
    expect(chainformDependency(installed(), "0.1.0").spec).toBe("^0.1.0");
  });
});
