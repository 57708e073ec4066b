import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnvilNotFoundError, resolveAnvilPath } from "./anvil-binary";

/** A project directory holding the packages given: name -> files (relative path -> content). */
function project(packages: Record<string, string[]>): string {
  const root = mkdtempSync(join(tmpdir(), "chainform-anvil-binary-"));
  for (const [name, files] of Object.entries(packages)) {
    const dir = join(root, "node_modules", name);
    mkdirSync(join(dir, "bin"), { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0" }));
    for (const file of files) writeFileSync(join(dir, file), "#!/bin/sh\n");
  }
  return root;
}

describe("resolveAnvilPath", () => {
  const roots: string[] = [];
  const lookup = (packages: Record<string, string[]>, env: NodeJS.ProcessEnv = {}) => {
    const root = project(packages);
    roots.push(root);
    return { root, find: () => resolveAnvilPath({ env, from: root, platform: "linux-x64" }) };
  };
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it("takes the platform package's binary first", () => {
    const { root, find } = lookup({ "@foundry-rs/anvil": ["anvil"], "@foundry-rs/anvil-linux-amd64": ["bin/anvil"] });
    expect(find()).toBe(join(root, "node_modules", "@foundry-rs/anvil-linux-amd64", "bin", "anvil"));
  });

  it("without optional dependencies, takes the binary @foundry-rs/anvil's install script downloaded", () => {
    const { root, find } = lookup({ "@foundry-rs/anvil": ["anvil"] });
    expect(find()).toBe(join(root, "node_modules", "@foundry-rs/anvil", "anvil"));
  });

  it("CHAINFORM_ANVIL wins over both", () => {
    const { find } = lookup({ "@foundry-rs/anvil-linux-amd64": ["bin/anvil"] }, { CHAINFORM_ANVIL: "/opt/foundry/anvil" });
    expect(find()).toBe("/opt/foundry/anvil");
  });

  it("with none of them, one line says what to do", () => {
    const { find } = lookup({ "@foundry-rs/anvil": [] });
    expect(find).toThrow(AnvilNotFoundError);
    expect(find).toThrow(
      /^no anvil binary: @foundry-rs\/anvil-linux-amd64 is not installed and @foundry-rs\/anvil holds none of its own .*set CHAINFORM_ANVIL to an anvil binary/,
    );
    expect(() => find()).not.toThrow(/\n/);
  });

  it("finds this repository's own anvil", () => {
    expect(resolveAnvilPath({ env: {} })).toMatch(/@foundry-rs\/anvil-[a-z0-9]+-[a-z0-9]+\/bin\/anvil$/);
  });
});
