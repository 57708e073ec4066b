/**
 * The provider's offline installation: a Terraform filesystem mirror and a CLI config file pointing at it.
 *
 * Terraform pins an `h1:` hash of the provider package in `.terraform.lock.hcl`. The hash covers the files of the
 * mirror's package directory, so what goes in there must change only when the version changes: the package holds
 * a small launcher script whose text depends on nothing but the version, and the launcher runs the provider's
 * loader that lives outside the mirror (`dist/provider/terraform-provider-chainform.js`, which runs the bundle
 * beside it with V8's compile cache; see lib/terraform/protocol/bundle.ts). A rebuild with new code keeps the hash; the
 * same version on another machine (or another platform: every platform directory holds the same launcher) has the
 * same hash, so committed lock files stay valid.
 */
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

/** The provider's registry address: users write `source = "chainform/chainform"`. */
export const PROVIDER_HOST = "registry.terraform.io";
/** The provider's namespace. */
export const PROVIDER_NAMESPACE = "chainform";
/** The provider's type name (resource prefix `chainform_`). */
export const PROVIDER_TYPE = "chainform";
/** The full provider address as Terraform writes it. */
export const PROVIDER_ADDRESS = `${PROVIDER_HOST}/${PROVIDER_NAMESPACE}/${PROVIDER_TYPE}`;

/** Platforms the mirror offers. The launcher is a POSIX shell script, so Windows is not among them. */
export const MIRROR_PLATFORMS = ["linux_amd64", "linux_arm64", "darwin_amd64", "darwin_arm64"] as const;

/** Where the pieces live inside a package root. */
export interface MirrorLayout {
  /** The mirror directory named in the CLI config. */
  readonly mirrorDir: string;
  /** The provider bundle (its existence says the provider was built). */
  readonly bundlePath: string;
  /** The loader the launcher runs: it runs the bundle with V8's compile cache. */
  readonly loaderPath: string;
  /** The CLI config file (`TF_CLI_CONFIG_FILE`). */
  readonly cliConfigPath: string;
}

/** The package root: two levels above this file, in lib/terraform/ or dist/terraform/ alike. */
export function packageRoot(): string {
  return resolve(__dirname, "..", "..");
}

/** The mirror layout under `root` (default: this package's root). */
export function mirrorLayout(root: string = packageRoot()): MirrorLayout {
  return {
    mirrorDir: join(root, "dist", "terraform", "mirror"),
    bundlePath: join(root, "dist", "provider", `terraform-provider-${PROVIDER_TYPE}.bundle.js`),
    loaderPath: join(root, "dist", "provider", `terraform-provider-${PROVIDER_TYPE}.js`),
    cliConfigPath: join(root, "dist", "terraform", "terraformrc"),
  };
}

/** This package's version: the provider's version. */
export function packageVersion(root: string = packageRoot()): string {
  return (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
}

/** The provider executable's file name for a version, as Terraform expects it. */
export function providerExecutableName(version: string): string {
  return `terraform-provider-${PROVIDER_TYPE}_v${version}`;
}

/**
 * The launcher script. Its text depends only on `version`. `terraform init` links the package directory into
 * `.terraform/providers`, so the script resolves its own real path before finding the loader seven levels up
 * (platform, version, type, namespace, host, mirror, terraform → dist). `CHAINFORM_NODE` picks another node.
 *
 * Node 20 reads every certificate of `NODE_EXTRA_CA_CERTS` when it starts (~60 ms here), in each of the 3-5 provider
 * processes of a Terraform command; later Node versions read them when first needed. The launcher hands the
 * variable on as `CHAINFORM_EXTRA_CA_CERTS`, and the provider's HTTPS connections trust those certificates
 * (node-http-pool.ts): the same trust, paid only by a process that opens an HTTPS connection.
 */
export function launcherScript(version: string): string {
  return [
    "#!/bin/sh",
    `# chainform Terraform provider ${version}: runs the provider (dist/provider) with Node.js.`,
    'if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then CHAINFORM_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS; export CHAINFORM_EXTRA_CA_CERTS; unset NODE_EXTRA_CA_CERTS; fi',
    'here=$(dirname "$(readlink -f "$0")")',
    `exec "\${CHAINFORM_NODE:-node}" "$here/../../../../../../../provider/terraform-provider-${PROVIDER_TYPE}.js" "$@"`,
    "",
  ].join("\n");
}

/** The CLI config text: the mirror for our provider, the network for nothing else, no checkpoint calls. */
export function cliConfigText(mirrorDir: string): string {
  return [
    "# Written by chainform: makes terraform install the chainform provider from the local mirror, offline.",
    "disable_checkpoint = true",
    "",
    "provider_installation {",
    "  filesystem_mirror {",
    `    path    = ${JSON.stringify(mirrorDir)}`,
    `    include = [${JSON.stringify(PROVIDER_ADDRESS)}]`,
    "  }",
    "  direct {",
    `    exclude = [${JSON.stringify(PROVIDER_ADDRESS)}]`,
    "  }",
    "}",
    "",
  ].join("\n");
}

/** Writes `path` only when its content differs, so an unchanged mirror keeps its files untouched. */
function writeIfChanged(path: string, content: string, mode?: number): void {
  if (!existsSync(path) || readFileSync(path, "utf8") !== content) writeFileSync(path, content);
  // chmod only when needed: an installed package may be read-only, and its shipped launchers are already 0755.
  if (mode !== undefined && (statSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
}

/**
 * Writes the mirror's launchers and the CLI config for the package at `root`. Idempotent.
 * @returns the layout written
 */
export function writeProviderMirror(root: string = packageRoot(), version: string = packageVersion(root)): MirrorLayout {
  const layout = mirrorLayout(root);
  for (const platform of MIRROR_PLATFORMS) {
    const dir = join(layout.mirrorDir, PROVIDER_HOST, PROVIDER_NAMESPACE, PROVIDER_TYPE, version, platform);
    mkdirSync(dir, { recursive: true });
    writeIfChanged(join(dir, providerExecutableName(version)), launcherScript(version), 0o755);
  }
  writeIfChanged(layout.cliConfigPath, cliConfigText(layout.mirrorDir));
  return layout;
}

/**
 * Where the mirror goes when the package directory cannot be written (an installed package in a read-only
 * node_modules, a shared image): `$XDG_CACHE_HOME/chainform/<version>-<hash of the package path>`, else
 * `~/.cache/chainform/...`. It holds `dist/terraform/` as in the package and a `dist/provider` symbolic link to the
 * package's provider, so the launcher finds the loader at the same relative place.
 */
export function fallbackMirrorRoot(root: string = packageRoot(), env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  const id = createHash("sha256").update(resolve(root)).digest("hex").slice(0, 12);
  return join(cache, "chainform", `${packageVersion(root)}-${id}`);
}

/** Writes the mirror under `root`, or under {@link fallbackMirrorRoot} when `root` cannot be written. */
function writeMirrorSomewhere(root: string, env: NodeJS.ProcessEnv): MirrorLayout {
  try {
    return writeProviderMirror(root);
  } catch (error) {
    const fallback = fallbackMirrorRoot(root, env);
    const link = join(fallback, "dist", "provider");
    mkdirSync(dirname(link), { recursive: true });
    rmSync(link, { force: true });
    symlinkSync(dirname(mirrorLayout(root).bundlePath), link);
    try {
      return writeProviderMirror(fallback, packageVersion(root));
    } catch {
      throw error; // the first failure says more
    }
  }
}

/**
 * The CLI config path for `TF_CLI_CONFIG_FILE`, writing the mirror first when it is missing or names another
 * place (a package installed from a tarball carries the mirror, and its CLI config is written on first use). When
 * the package directory cannot be written, both go to {@link fallbackMirrorRoot}.
 * Fails when the provider bundle has not been built.
 * @example
 * process.env.TF_CLI_CONFIG_FILE = terraformCliConfigPath();
 */
export function terraformCliConfigPath(root: string = packageRoot(), env: NodeJS.ProcessEnv = process.env): string {
  const layout = mirrorLayout(root);
  if (!existsSync(layout.bundlePath)) {
    throw new Error(`the provider bundle ${layout.bundlePath} is missing: run \`npm run build\` in ${root}`);
  }
  return writeMirrorSomewhere(root, env).cliConfigPath;
}
