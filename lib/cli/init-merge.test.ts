import { mergeGitignore, mergePackageJson } from "./init-merge";

describe("init's merge into an existing project", () => {
  const generated = JSON.stringify({
    name: "x",
    version: "0.0.0",
    private: true,
    scripts: { up: "chainform up", deploy: "chainform deploy" },
    dependencies: { chainform: "^0.1.0", constructs: "^10.4.2" },
    allowScripts: { esbuild: false },
  });

  it("adds what the project lacks and keeps every field, script and dependency it has", () => {
    const existing = `{\n    "name": "payments",\n    "version": "3.1.0",\n    "type": "module",\n    "scripts": { "test": "vitest", "up": "docker compose up" },\n    "dependencies": { "constructs": "10.5.0" }\n}\n`;
    const result = mergePackageJson(existing, generated);
    const merged = JSON.parse(result.text as string) as Record<string, unknown>;
    expect(merged).toEqual({
      name: "payments",
      version: "3.1.0",
      type: "module",
      scripts: { test: "vitest", up: "docker compose up", deploy: "chainform deploy" },
      dependencies: { constructs: "10.5.0", chainform: "^0.1.0" },
      allowScripts: { esbuild: false },
    });
    expect(result.added).toEqual(["scripts.deploy", "dependencies.chainform", "allowScripts.esbuild"]);
    expect(result.kept).toEqual(["scripts.up", "dependencies.constructs"]);
    // The project's own indentation (four spaces) is kept.
    expect(result.text).toMatch(/^\{\n {4}"name": "payments",/);
  });

  it("does not add a dependency the project has among its devDependencies", () => {
    const result = mergePackageJson('{"devDependencies": {"chainform": "file:vendor/c.tgz"}}', generated);
    expect(JSON.parse(result.text as string).dependencies).toEqual({ constructs: "^10.4.2" });
  });

  it("leaves a package.json that has everything untouched", () => {
    const result = mergePackageJson(generated, generated);
    expect(result).toEqual({ text: undefined, added: [], kept: [] });
  });

  it("refuses a package.json it cannot read, naming what to fix", () => {
    expect(() => mergePackageJson("{ nope", generated)).toThrow(/^package\.json is not valid JSON .*fix it, then run init again$/);
    expect(() => mergePackageJson("[]", generated)).toThrow("package.json does not hold a JSON object: fix it, then run init again");
    expect(() => mergePackageJson('{"scripts": "make"}', generated)).toThrow(`package.json's "scripts" is not an object`);
  });

  it("appends the .gitignore lines the project lacks, whatever slashes it wrote them with", () => {
    const result = mergeGitignore("/node_modules\ndist", "node_modules/\n# state\n.terraform/\n*.tfstate\n");
    expect(result.text).toBe("/node_modules\ndist\n\n# added by chainform init\n.terraform/\n*.tfstate\n");
    expect(result.added).toEqual([".gitignore .terraform/", ".gitignore *.tfstate"]);
    expect(mergeGitignore("node_modules/\n.terraform\n*.tfstate\n", "node_modules/\n.terraform/\n*.tfstate\n").text).toBeUndefined();
  });
});
