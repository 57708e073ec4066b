/**
 * `verify = true` of `chainform_contract`: submits the deployed contract to the explorer's Etherscan-compatible
 * verification API (`{base_url}/explorer/{vnetId}/api`, docs/explorer-and-dashboard.md) as a Solidity standard JSON input, taken
 * from the artifact's compiler data: a Hardhat artifact's build-info (`X.dbg.json` → `build-info/*.json`), or a
 * Foundry artifact's metadata plus the sources it names. Verification is a courtesy: when it cannot be done (no API,
 * no compiler data, a mismatch) the contract stays deployed and the user gets a warning saying why.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Diagnostics } from "../../framework";
import { at } from "../../framework";
import type { Artifact } from "../artifact";
import type { ChainformProviderData } from "../provider-data";
import { post } from "../http-post";

const POLL_MS = 60_000;

/** What the verification API needs besides the address. */
export interface VerificationInput {
  readonly standardJsonInput: string;
  /** `path:Name` */
  readonly contractName: string;
  /** `v0.8.28+commit.7893614a` */
  readonly compilerVersion: string;
}

/** Submits the contract for verification; adds a warning (never an error) when it cannot be verified. */
export async function verifyContract(
  data: ChainformProviderData,
  vnetId: string,
  address: string,
  artifact: Artifact,
  constructorArguments: string,
  artifactPath: string | null,
  diagnostics: Diagnostics,
): Promise<void> {
  const warn = (why: string): void =>
    void diagnostics.warning(
      "The contract was deployed but not verified",
      `${why} The contract at ${address} is deployed and in state.`,
      at("verify"),
    );
  const input = artifactPath
    ? verificationInput(artifactPath, artifact)
    : { error: "verify needs artifact_path: bytecode and abi alone do not say how the contract was compiled." };
  if ("error" in input) return warn(input.error);
  const api = `${data.baseUrl}/explorer/${encodeURIComponent(vnetId)}/api`;
  try {
    const submitted = await postForm(
      api,
      {
        module: "contract",
        action: "verifysourcecode",
        codeformat: "solidity-standard-json-input",
        sourceCode: input.standardJsonInput,
        contractaddress: address,
        contractname: input.contractName,
        compilerversion: input.compilerVersion,
        constructorArguements: constructorArguments.replace(/^0x/, ""),
      },
      data.caFile,
    );
    if (submitted.httpStatus === 404)
      return warn(
        `The service has no verification API at ${api} (the explorer is not enabled for this network, or this service has none).`,
      );
    if (submitted.body?.status !== "1")
      return warn(`The verification API refused it: ${String(submitted.body?.result ?? submitted.httpStatus)}.`);
    const guid = String(submitted.body.result);
    const deadline = Date.now() + POLL_MS;
    for (;;) {
      const status = await postForm(api, { module: "contract", action: "checkverifystatus", guid }, data.caFile);
      const result = String(status.body?.result ?? "");
      if (status.body?.status === "1") return;
      if (!/pending|queue/i.test(result) || Date.now() > deadline)
        return warn(`Verification failed: ${result || `HTTP ${status.httpStatus}`}.`);
      await new Promise((r) => setTimeout(r, 500));
    }
  } catch (error) {
    return warn(`The verification API could not be reached (${(error as Error & { code?: string }).code ?? (error as Error).name}).`);
  }
}

/** The standard JSON input, contract name and compiler version recorded beside or inside an artifact. */
export function verificationInput(artifactPath: string, artifact: Artifact): VerificationInput | { error: string } {
  const path = resolve(artifactPath);
  const json = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  // Hardhat: X.dbg.json points at the build-info that holds the compiler's input.
  const dbg = path.replace(/\.json$/, ".dbg.json");
  if (existsSync(dbg)) {
    const buildInfoPath = join(dirname(dbg), String((JSON.parse(readFileSync(dbg, "utf8")) as { buildInfo?: string }).buildInfo ?? ""));
    if (!existsSync(buildInfoPath))
      return { error: `${dbg} names a build-info file that does not exist (${buildInfoPath}); compile again.` };
    const buildInfo = JSON.parse(readFileSync(buildInfoPath, "utf8")) as { solcLongVersion?: string; input?: unknown };
    const sourceName = String(json["sourceName"] ?? artifact.sourceName ?? "");
    const contractName = String(json["contractName"] ?? artifact.contractName ?? "");
    if (!buildInfo.input || !buildInfo.solcLongVersion || !sourceName || !contractName)
      return { error: `${buildInfoPath} lacks the compiler input or version.` };
    return {
      standardJsonInput: JSON.stringify(buildInfo.input),
      contractName: `${sourceName}:${contractName}`,
      compilerVersion: `v${buildInfo.solcLongVersion}`,
    };
  }
  // Foundry: the metadata names the sources, settings and compiler; sources are read from the project.
  const raw = json["metadata"] ?? json["rawMetadata"];
  const metadata = (typeof raw === "string" ? JSON.parse(raw) : raw) as
    | {
        compiler?: { version?: string };
        language?: string;
        settings?: Record<string, unknown> & { compilationTarget?: Record<string, string> };
        sources?: Record<string, { content?: string }>;
      }
    | undefined;
  if (!metadata?.settings?.compilationTarget || !metadata.compiler?.version || !metadata.sources) {
    return {
      error: `${artifactPath} carries no compiler input (no Hardhat build-info beside it, no Foundry metadata in it), so the explorer cannot check it against its source.`,
    };
  }
  const [target, name] = Object.entries(metadata.settings.compilationTarget)[0]!;
  const root = projectRoot(path);
  const sources: Record<string, { content: string }> = {};
  for (const [file, source] of Object.entries(metadata.sources)) {
    const onDisk = [resolve(file), join(root, file)].find(existsSync);
    const content = source.content ?? (onDisk ? readFileSync(onDisk, "utf8") : undefined);
    if (content === undefined)
      return { error: `The source ${file} named by ${artifactPath} was not found (looked in ${process.cwd()} and ${root}).` };
    sources[file] = { content };
  }
  const { compilationTarget: _target, ...settings } = metadata.settings;
  return {
    standardJsonInput: JSON.stringify({ language: metadata.language ?? "Solidity", sources, settings }),
    contractName: `${target}:${name}`,
    compilerVersion: `v${metadata.compiler.version}`,
  };
}

/** A Foundry project's root: the directory above `out/`. */
function projectRoot(artifactPath: string): string {
  const parts = artifactPath.split(/[\\/]/);
  const out = parts.lastIndexOf("out");
  return out > 0 ? parts.slice(0, out).join("/") : process.cwd();
}

async function postForm(
  url: string,
  form: Record<string, string>,
  caFile: string | undefined,
): Promise<{ httpStatus: number; body: { status?: string; result?: unknown } | null }> {
  const response = await post(url, { "content-type": "application/x-www-form-urlencoded" }, new URLSearchParams(form).toString(), {
    timeoutMs: 60_000,
    caFile,
  });
  try {
    return { httpStatus: response.statusCode, body: JSON.parse(response.text) as { status?: string; result?: unknown } };
  } catch {
    return { httpStatus: response.statusCode, body: null };
  }
}
