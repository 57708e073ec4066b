/**
 * The offline mirror keeps lock files valid: `terraform init` in a fresh directory records an `h1:` hash; after the
 * provider is rebuilt with different code, `init` and `plan` still succeed with the same lock file, and a mirror
 * written for another package root (another machine) has the same hash.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROVIDER_ADDRESS, mirrorLayout, terraformCliConfigPath, writeProviderMirror } from "../lib/terraform/mirror";
import { bundleProvider } from "../lib/terraform/protocol/bundle";
import { PROVIDER_BLOCK, providerEnv } from "./helpers/acceptance";
import { startTestService, type TestService } from "./helpers/service";
import { TerraformWorkspace } from "./helpers/terraform";

const ROOT = join(__dirname, "..");

describe("the provider mirror across rebuilds", () => {
  let service: TestService;
  let root: string;
  let tf: TerraformWorkspace;

  beforeAll(async () => {
    service = await startTestService();
    terraformCliConfigPath(); // the real build must exist
    // A package root of its own, so that rebuilding it leaves the real dist/ alone.
    root = mkdtempSync(join(tmpdir(), "chainform-mirror-root-"));
    writeFileSync(join(root, "package.json"), readFileSync(join(ROOT, "package.json")));
    mkdirSync(join(root, "dist"), { recursive: true });
    cpSync(join(ROOT, "dist", "provider"), join(root, "dist", "provider"), { recursive: true });
    writeProviderMirror(root);
    tf = TerraformWorkspace.create({
      filesystemMirror: { path: mirrorLayout(root).mirrorDir, include: [PROVIDER_ADDRESS] },
      env: { ...providerEnv(service), XDG_CACHE_HOME: join(root, "cache") },
    });
    tf.write(
      "main.tf",
      `${PROVIDER_BLOCK}\nprovider "chainform" {}\n\ndata "chainform_supported_networks" "all" {}\n\noutput "count" {\n  value = length(data.chainform_supported_networks.all.networks)\n}\n`,
    );
  }, 60_000);

  afterAll(async () => {
    tf?.dispose();
    rmSync(root, { recursive: true, force: true });
    await service?.close();
  });

  test("init, rebuild with different code, init and plan again with the same lock file", async () => {
    await tf.expect(["init", "-input=false"]);
    const lock = readFileSync(join(tf.dir, ".terraform.lock.hcl"), "utf8");
    expect(lock).toMatch(/"h1:[A-Za-z0-9+/=]+"/);
    await tf.expect(["plan", "-input=false"]);

    // WHEN the provider is rebuilt from an entry that adds code (a different bundle)
    const before = readFileSync(mirrorLayout(root).bundlePath, "utf8");
    const entry = join(root, "entry.ts");
    writeFileSync(
      entry,
      `import "${join(ROOT, "lib", "terraform", "provider", "main")}";\nexport const rebuiltAt = ${JSON.stringify(new Date().toISOString())};\n`,
    );
    await bundleProvider({ entry, outDir: join(root, "dist", "provider"), type: "chainform" });
    writeProviderMirror(root);
    expect(readFileSync(mirrorLayout(root).bundlePath, "utf8")).not.toBe(before);

    // THEN init (even -upgrade) and plan succeed, and the lock file is unchanged
    await tf.expect(["init", "-input=false", "-upgrade"]);
    expect(readFileSync(join(tf.dir, ".terraform.lock.hcl"), "utf8")).toBe(lock);
    const apply = await tf.expect(["apply", "-auto-approve", "-input=false"]);
    expect(apply.stdout).toMatch(/count = \d+/);
  }, 60_000);

  test("a mirror written elsewhere (another machine) has the same hash", async () => {
    const elsewhere = TerraformWorkspace.create({ filesystemMirror: { path: mirrorLayout(ROOT).mirrorDir, include: [PROVIDER_ADDRESS] } });
    try {
      elsewhere.write("main.tf", PROVIDER_BLOCK);
      await elsewhere.expect(["init", "-input=false"]);
      const hashes = (dir: string) => readFileSync(join(dir, ".terraform.lock.hcl"), "utf8").match(/"h1:[^"]+"/g);
      expect(hashes(elsewhere.dir)).toEqual(hashes(tf.dir));
    } finally {
      elsewhere.dispose();
    }
  }, 30_000);
});
