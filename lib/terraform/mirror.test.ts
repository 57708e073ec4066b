import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cliConfigText,
  fallbackMirrorRoot,
  launcherScript,
  mirrorLayout,
  providerExecutableName,
  terraformCliConfigPath,
  writeProviderMirror,
} from "./mirror";

describe("provider mirror", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "chainform-mirror-"));
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "chainform", version: "1.2.3" }));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("writes an executable launcher whose text depends only on the version", () => {
    // GIVEN two package roots at different paths with the same version
    const other = mkdtempSync(join(tmpdir(), "chainform-mirror-other-"));
    writeFileSync(join(other, "package.json"), JSON.stringify({ name: "chainform", version: "1.2.3" }));
    try {
      // WHEN both mirrors are written
      const a = writeProviderMirror(root);
      const b = writeProviderMirror(other);
      const rel = join("registry.terraform.io", "chainform", "chainform", "1.2.3", "linux_amd64", providerExecutableName("1.2.3"));
      // THEN the launchers are byte-identical, executable, and name no absolute path
      const textA = readFileSync(join(a.mirrorDir, rel), "utf8");
      expect(textA).toBe(readFileSync(join(b.mirrorDir, rel), "utf8"));
      expect(textA).not.toContain(root);
      expect(statSync(join(a.mirrorDir, rel)).mode & 0o111).toBe(0o111);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("keeps the launcher when rewritten and changes it with the version", () => {
    expect(launcherScript("1.2.3")).toBe(launcherScript("1.2.3"));
    expect(launcherScript("1.2.3")).not.toBe(launcherScript("1.2.4"));
  });

  it("hands NODE_EXTRA_CA_CERTS on to the provider as CHAINFORM_EXTRA_CA_CERTS", () => {
    // GIVEN the launcher, and a stand-in for node that prints what it was given
    const dir = mkdtempSync(join(tmpdir(), "chainform-launcher-"));
    try {
      const launcher = join(dir, "launcher");
      writeFileSync(launcher, launcherScript("1.2.3"), { mode: 0o755 });
      const fakeNode = join(dir, "node");
      writeFileSync(fakeNode, '#!/bin/sh\necho "extra=${NODE_EXTRA_CA_CERTS:-unset} moved=${CHAINFORM_EXTRA_CA_CERTS:-unset} args=$#"\n', {
        mode: 0o755,
      });
      const run = (env: Record<string, string>) =>
        execFileSync(launcher, ["a", "b"], { env: { PATH: process.env.PATH, CHAINFORM_NODE: fakeNode, ...env }, encoding: "utf8" }).trim();
      // THEN the variable is moved when set, and nothing is set when it is not
      expect(run({ NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem" })).toBe("extra=unset moved=/etc/corp-ca.pem args=3");
      expect(run({})).toBe("extra=unset moved=unset args=3");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("points the CLI config at the mirror for chainform only", () => {
    const layout = writeProviderMirror(root);
    const text = readFileSync(layout.cliConfigPath, "utf8");
    expect(text).toBe(cliConfigText(layout.mirrorDir));
    expect(text).toContain(`path    = ${JSON.stringify(layout.mirrorDir)}`);
    expect(text).toMatch(/direct \{\s+exclude = \["registry.terraform.io\/chainform\/chainform"\]/);
  });

  it("resolves the loader seven directories above the launcher", () => {
    // The launcher's relative path must land on the layout's loader path.
    const layout = mirrorLayout(root);
    const launcherDir = join(layout.mirrorDir, "registry.terraform.io", "chainform", "chainform", "1.2.3", "linux_amd64");
    const relative = launcherScript("1.2.3").match(/"\$here\/([^"]+)"/)![1];
    expect(join(launcherDir, relative)).toBe(layout.loaderPath);
  });
});

describe("provider mirror of a package that cannot be written", () => {
  it("writes the CLI config and mirror to the cache, linking to the package's provider", () => {
    // GIVEN a built package whose dist/terraform cannot take the CLI config (a directory stands in its place:
    // root may write anywhere, so a read-only mode would not stop this test's writes)
    const root = mkdtempSync(join(tmpdir(), "chainform-mirror-ro-"));
    const cache = mkdtempSync(join(tmpdir(), "chainform-mirror-cache-"));
    try {
      writeFileSync(join(root, "package.json"), JSON.stringify({ name: "chainform", version: "1.2.3" }));
      const layout = mirrorLayout(root);
      mkdirSync(join(root, "dist", "provider"), { recursive: true });
      writeFileSync(layout.bundlePath, "// bundle");
      writeFileSync(layout.loaderPath, "// loader");
      mkdirSync(layout.cliConfigPath, { recursive: true });
      // WHEN the CLI config path is asked for
      const path = terraformCliConfigPath(root, { XDG_CACHE_HOME: cache });
      // THEN it lies in the cache, names the cache's mirror, and that mirror's launcher reaches the package's loader
      const fallback = fallbackMirrorRoot(root, { XDG_CACHE_HOME: cache });
      expect(path.startsWith(join(cache, "chainform", "1.2.3-"))).toBe(true);
      const cached = mirrorLayout(fallback);
      expect(readFileSync(path, "utf8")).toBe(cliConfigText(cached.mirrorDir));
      const launcherDir = join(cached.mirrorDir, "registry.terraform.io", "chainform", "chainform", "1.2.3", "linux_amd64");
      const relative = launcherScript("1.2.3").match(/"\$here\/([^"]+)"/)![1];
      expect(realpathSync(join(launcherDir, relative))).toBe(realpathSync(layout.loaderPath));
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
