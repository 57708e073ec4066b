import { initFiles, INIT_TEMPLATES, projectSlug } from "./init-templates";

describe("chainform init templates", () => {
  it("writes a CDK app per framework that imports the framework's own chainform entry", () => {
    for (const framework of ["cdktn", "cdktf"] as const) {
      const files = initFiles(framework, "payments", "^1.2.3");
      expect(Object.keys(files).sort()).toEqual([
        ".github/workflows/chainform.yml",
        ".gitignore",
        "cdktf.json",
        "main.ts",
        "package.json",
        "tsconfig.json",
      ]);
      expect(files["main.ts"]).toContain(`from "${framework}";`);
      expect(files["main.ts"]).toContain(`from "chainform/${framework}";`);
      expect(JSON.parse(files["cdktf.json"])).toMatchObject({ app: "npx tsx main.ts", projectId: "payments" });
      const manifest = JSON.parse(files["package.json"]) as { dependencies: Record<string, string> };
      expect(Object.keys(manifest.dependencies).sort()).toEqual(["chainform", "constructs", framework].sort());
      expect(manifest.dependencies.chainform).toBe("^1.2.3");
    }
    // cdktn 0.24 accepts only constructs >=10.6.0 <10.8.0
    expect(JSON.parse(initFiles("cdktn", "x", "^1.0.0")["package.json"]).dependencies.constructs).toBe(">=10.6.0 <10.8.0");
  });

  it("writes a Terraform configuration for hcl, with chainform as the only dependency", () => {
    const files = initFiles("hcl", "payments", "file:vendor/chainform-1.2.3.tgz");
    expect(Object.keys(files).sort()).toEqual([".github/workflows/chainform.yml", ".gitignore", "main.tf", "package.json"]);
    expect(files["main.tf"]).toContain('source = "chainform/chainform"');
    expect(files["main.tf"]).toContain('slug = "${var.environment_name}-payments"');
    expect(JSON.parse(files["package.json"]).dependencies).toEqual({ chainform: "file:vendor/chainform-1.2.3.tgz" });
    expect(files[".github/workflows/chainform.yml"]).toContain("TF_VAR_environment_name: pr-${{ github.event.number }}");
    // The chain id outputs are read from the environment, not literals that could drift from its network_config.
    expect(files["main.tf"]).toContain(
      'value = one([for vnet in chainform_environment.this.vnets : vnet.chain_id if vnet.network_id == "8453"])',
    );
    expect(files["main.tf"]).not.toMatch(/_chain_id" \{\n\s+value = \d/);
  });

  it("ignores what chainform writes and names outputs the workflow reads", () => {
    for (const template of INIT_TEMPLATES) {
      const files = initFiles(template, "x", "^1.0.0");
      for (const ignored of ["cdktf.out/", ".terraform/", ".chainform/", "node_modules/"]) expect(files[".gitignore"]).toContain(ignored);
      for (const output of ["mainnet_rpc_url", "mainnet_chain_id", "base_rpc_url", "base_chain_id"]) {
        expect(files[".github/workflows/chainform.yml"]).toContain(`steps.chainform.outputs.${output}`);
        expect(files[template === "hcl" ? "main.tf" : "main.ts"]).toMatch(
          template === "hcl" ? new RegExp(`output "${output}"`) : /`\$\{fork\.name\}_(rpc_url|chain_id)`/,
        );
      }
    }
  });

  it("denies the install scripts chainform does not need, so that npm install --strict-allow-scripts passes", () => {
    for (const template of INIT_TEMPLATES) {
      const manifest = JSON.parse(initFiles(template, "x", "^1.0.0")["package.json"]) as { allowScripts: Record<string, boolean> };
      expect(manifest.allowScripts).toEqual({ "@foundry-rs/anvil": false, esbuild: false });
    }
  });

  it("makes a slug of the directory name", () => {
    expect(projectSlug("My_App")).toBe("my-app");
    expect(projectSlug("--infra..v2--")).toBe("infra-v2");
    expect(projectSlug("___")).toBe("app");
  });
});
