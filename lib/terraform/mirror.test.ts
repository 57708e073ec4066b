import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliConfigText, launcherScript, mirrorLayout, providerExecutableName, writeProviderMirror } from "./mirror";

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
