import { randomBytes } from "node:crypto";

/** One Terraform output as `terraform output -json` prints it. */
export interface TerraformOutput {
  readonly value: unknown;
  readonly type?: unknown;
  readonly sensitive?: boolean;
}

/** The formats `chainform outputs` writes. */
export type OutputsFormat = "json" | "env" | "github";
/** Every format, for validation and help text. */
export const OUTPUTS_FORMATS: readonly OutputsFormat[] = ["json", "env", "github"];

/** Options of `formatOutputs`. */
export interface FormatOutputsOptions {
  /** Include sensitive outputs (Admin RPC URLs). @default false */
  readonly includeSensitive?: boolean;
  /** Delimiter factory for the github format; tests pass a fixed one. @default random hex */
  readonly delimiter?: () => string;
}

/** A value as one string: strings as they are, everything else as JSON. */
function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** An output name as an environment variable name: `mainnet_rpc` -> `MAINNET_RPC`. */
export function envName(name: string): string {
  const upper = name.replace(/[^A-Za-z0-9_]/g, "_").toUpperCase();
  return /^[0-9]/.test(upper) ? `_${upper}` : upper;
}

/** A dotenv value: double-quoted, with backslash, quote, dollar and newlines escaped. */
function dotenvQuote(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\$/g, "\\$").replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"`;
}

/**
 * Renders Terraform outputs as JSON (name -> value), a dotenv file, or GitHub Actions `$GITHUB_OUTPUT` lines.
 * The github form uses `name<<DELIMITER` blocks, so multi-line values are safe; the delimiter is random and never
 * occurs in the value. Sensitive outputs are left out unless `includeSensitive`.
 * @example
 * formatOutputs({ rpc: { value: "http://..." } }, "env") // 'RPC="http://..."\n'
 */
export function formatOutputs(
  outputs: Readonly<Record<string, TerraformOutput>>,
  format: OutputsFormat,
  options: FormatOutputsOptions = {},
): string {
  const selected = Object.entries(outputs)
    .filter(([, output]) => options.includeSensitive || !output.sensitive)
    .sort(([a], [b]) => a.localeCompare(b));
  switch (format) {
    case "json":
      return `${JSON.stringify(Object.fromEntries(selected.map(([name, output]) => [name, output.value])), null, 2)}\n`;
    case "env":
      return selected.map(([name, output]) => `${envName(name)}=${dotenvQuote(asText(output.value))}\n`).join("");
    case "github": {
      const makeDelimiter = options.delimiter ?? (() => `CHAINFORM_${randomBytes(12).toString("hex")}`);
      return selected
        .map(([name, output]) => {
          const text = asText(output.value);
          let delimiter = makeDelimiter();
          while (text.includes(delimiter)) delimiter = `${delimiter}_${randomBytes(4).toString("hex")}`;
          return `${name}<<${delimiter}\n${text}\n${delimiter}\n`;
        })
        .join("");
    }
  }
}
