import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CdktfApp, Stack } from "./cdktf-app";
import { initUnlessUnchanged, synthesizeUnlessUnchanged, type InitInputs } from "./work-cache";

describe("work cache", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "chainform-work-cache-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe("synthesis", () => {
    /** An app whose "synthesis" writes a one-stack output embedding `content`, counting its runs. */
    const fixture = () => {
      const appDir = join(dir, "app");
      mkdirSync(appDir);
      writeFileSync(join(appDir, "main.ts"), "new App();");
      const app: CdktfApp = { kind: "cdktf", dir: appDir, command: "npx tsx main.ts", outDir: join(appDir, "cdktf.out"), context: {} };
      let runs = 0;
      let content = "{}";
      const synthesize = async (): Promise<Stack[]> => {
        runs++;
        mkdirSync(join(app.outDir, "stacks", "app"), { recursive: true });
        writeFileSync(
          join(app.outDir, "manifest.json"),
          JSON.stringify({ stacks: { app: { name: "app", workingDirectory: "stacks/app" } } }),
        );
        writeFileSync(join(app.outDir, "stacks", "app", "cdk.tf.json"), content);
        return [{ name: "app", dir: join(app.outDir, "stacks", "app"), dependencies: [] }];
      };
      return { app, synthesize, runs: () => runs, setContent: (text: string) => (content = text) };
    };

    it("reuses the output while the app, its environment and the output stay the same", async () => {
      // GIVEN an app synthesized once
      const { app, synthesize, runs } = fixture();
      const env = { PR_NUMBER: "7" };
      const first = await synthesizeUnlessUnchanged(app, env, synthesize);
      expect(first.reused).toBe(false);
      // WHEN nothing changed, and terraform wrote its own files and state next to the output and in the app dir
      mkdirSync(join(app.outDir, "stacks", "app", ".terraform"));
      writeFileSync(join(app.outDir, "stacks", "app", ".terraform.lock.hcl"), "lock");
      writeFileSync(join(app.outDir, "stacks", "app", "chainform.tfplan"), "plan");
      writeFileSync(join(app.dir, "terraform.app.tfstate"), "{}");
      const second = await synthesizeUnlessUnchanged(app, env, synthesize);
      // THEN the output is reused, with the same stacks
      expect(second).toEqual({ stacks: first.stacks, reused: true });
      expect(runs()).toBe(1);
    });

    it("synthesizes again when a source, the environment, or the output changed", async () => {
      const { app, synthesize, runs } = fixture();
      await synthesizeUnlessUnchanged(app, { PR_NUMBER: "7" }, synthesize);
      writeFileSync(join(app.dir, "main.ts"), "new App(); // changed");
      expect((await synthesizeUnlessUnchanged(app, { PR_NUMBER: "7" }, synthesize)).reused).toBe(false);
      expect((await synthesizeUnlessUnchanged(app, { PR_NUMBER: "8" }, synthesize)).reused).toBe(false);
      writeFileSync(join(app.outDir, "stacks", "app", "cdk.tf.json"), '{"edited":true}');
      expect((await synthesizeUnlessUnchanged(app, { PR_NUMBER: "8" }, synthesize)).reused).toBe(false);
      expect(runs()).toBe(4);
      expect((await synthesizeUnlessUnchanged(app, { PR_NUMBER: "8" }, synthesize)).reused).toBe(true);
    });

    it("ignores the embedded service's new address and key, unless the app wrote them into its output", async () => {
      // GIVEN an app whose output does not mention the service
      const { app, synthesize, runs, setContent } = fixture();
      await synthesizeUnlessUnchanged(
        app,
        { CHAINFORM_BASE_URL: "http://127.0.0.1:4001", CHAINFORM_ACCESS_KEY: "key-one-123" },
        synthesize,
      );
      // THEN a run against a service on another port with another key reuses it
      const next = { CHAINFORM_BASE_URL: "http://127.0.0.1:4002", CHAINFORM_ACCESS_KEY: "key-two-456" };
      expect((await synthesizeUnlessUnchanged(app, next, synthesize)).reused).toBe(true);
      // BUT an app that writes the base URL into its configuration is synthesized on every run
      setContent(JSON.stringify({ provider: { chainform: { base_url: "http://127.0.0.1:4003" } } }));
      const third = { CHAINFORM_BASE_URL: "http://127.0.0.1:4003", CHAINFORM_ACCESS_KEY: "key-three-789" };
      expect((await synthesizeUnlessUnchanged(app, { ...third, PR_NUMBER: "1" }, synthesize)).reused).toBe(false);
      expect((await synthesizeUnlessUnchanged(app, { ...third, PR_NUMBER: "1" }, synthesize)).reused).toBe(false);
      expect(runs()).toBe(3);
    });

    it("always synthesizes with CHAINFORM_WORK_CACHE=0", async () => {
      const { app, synthesize, runs } = fixture();
      const env = { CHAINFORM_WORK_CACHE: "0" };
      await synthesizeUnlessUnchanged(app, env, synthesize);
      expect((await synthesizeUnlessUnchanged(app, env, synthesize)).reused).toBe(false);
      expect(runs()).toBe(2);
    });
  });

  describe("terraform init", () => {
    const inputs = (): InitInputs => ({ terraform: "terraform 1.11.4", cliConfigPath: join(dir, "terraformrc") });
    /** A stack directory whose "init" creates .terraform with a provider link into `mirror`, counting its runs. */
    const fixture = () => {
      const stack: Stack = { name: "app", dir: join(dir, "stack"), dependencies: [] };
      const mirror = join(dir, "mirror");
      mkdirSync(stack.dir);
      mkdirSync(mirror);
      writeFileSync(inputs().cliConfigPath, "provider_installation {}");
      writeFileSync(
        join(stack.dir, "cdk.tf.json"),
        JSON.stringify({ terraform: { required_providers: { chainform: { source: "chainform/chainform" } } } }),
      );
      let runs = 0;
      const init = async () => {
        runs++;
        const platformParent = join(stack.dir, ".terraform", "providers", "registry.terraform.io", "chainform", "chainform", "0.1.0");
        mkdirSync(platformParent, { recursive: true });
        rmSync(join(platformParent, "linux_amd64"), { force: true });
        symlinkSync(mirror, join(platformParent, "linux_amd64"));
        writeFileSync(join(stack.dir, ".terraform.lock.hcl"), "lock v1");
      };
      return { stack, mirror, init, runs: () => runs };
    };

    it("runs init once, then only when the providers, the lock, the CLI config or the installation changed", async () => {
      const { stack, mirror, init, runs } = fixture();
      expect(await initUnlessUnchanged(stack, inputs(), {}, init)).toBe(true);
      expect(await initUnlessUnchanged(stack, inputs(), {}, init)).toBe(false);
      expect(runs()).toBe(1);
      // a new required provider
      writeFileSync(join(stack.dir, "cdk.tf.json"), JSON.stringify({ terraform: { required_providers: { other: { source: "x/y" } } } }));
      expect(await initUnlessUnchanged(stack, inputs(), {}, init)).toBe(true);
      // an edited lock file
      writeFileSync(join(stack.dir, ".terraform.lock.hcl"), "lock v2");
      expect(await initUnlessUnchanged(stack, inputs(), {}, init)).toBe(true);
      // another CLI config
      writeFileSync(inputs().cliConfigPath, "provider_installation { direct {} }");
      expect(await initUnlessUnchanged(stack, inputs(), {}, init)).toBe(true);
      // another terraform
      expect(await initUnlessUnchanged(stack, { ...inputs(), terraform: "terraform 1.12.0" }, {}, init)).toBe(true);
      // the installed provider's package is gone
      expect(await initUnlessUnchanged(stack, { ...inputs(), terraform: "terraform 1.12.0" }, {}, init)).toBe(false);
      rmSync(mirror, { recursive: true });
      expect(await initUnlessUnchanged(stack, { ...inputs(), terraform: "terraform 1.12.0" }, {}, init)).toBe(true);
      // .terraform removed
      rmSync(join(stack.dir, ".terraform"), { recursive: true });
      expect(await initUnlessUnchanged(stack, { ...inputs(), terraform: "terraform 1.12.0" }, {}, init)).toBe(true);
      expect(runs()).toBe(7);
    });

    it("records nothing when init fails, and always runs with CHAINFORM_WORK_CACHE=0", async () => {
      const { stack, init, runs } = fixture();
      await expect(
        initUnlessUnchanged(stack, inputs(), {}, async () => {
          await init();
          throw new Error("init failed");
        }),
      ).rejects.toThrow("init failed");
      expect(await initUnlessUnchanged(stack, inputs(), {}, init)).toBe(true);
      expect(await initUnlessUnchanged(stack, inputs(), { CHAINFORM_WORK_CACHE: "0" }, init)).toBe(true);
      expect(runs()).toBe(3);
    });
  });
});
