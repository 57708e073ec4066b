// Emits the constructs once per CDK framework from one TypeScript source. lib/constructs imports "cdktf"; tsc
// compiles it to dist/constructs (the `chainform/constructs` and `chainform/cdktf` entry points). This step copies
// dist/constructs to dist/cdktn (the `chainform/cdktn` entry point) with every "cdktf" module specifier in the
// JavaScript and the declarations rewritten to "cdktn". Both copies sit at the same depth, so their relative imports
// (../domain/...) resolve alike. An app loads the copy of its own framework, whose classes then come from the app's own
// cdktf or cdktn; mixing cdktf classes into a cdktn app fails at synth time
// (`e._resetResolveDiscoveredProviderFeatureUsage is not a function`).
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Each framework entry point besides dist/constructs (which is the cdktf one): directory -> module name. */
export const FRAMEWORK_COPIES = { cdktn: "cdktn" };

const SPECIFIER = /((?:\brequire\(|\bimport\(|\bfrom |\bimport )\s*)(["'])cdktf((?:\/[^"']*)?)\2/g;

/** `text` (JavaScript or a declaration file) with every "cdktf" or "cdktf/..." module specifier naming `framework`. */
export function rewriteFramework(text, framework) {
  return text.replace(SPECIFIER, (_all, head, quote, subpath) => `${head}${quote}${framework}${subpath}${quote}`);
}

function copyTree(from, to, framework) {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const target = join(to, name);
    if (statSync(source).isDirectory()) {
      copyTree(source, target, framework);
    } else if (name.endsWith(".js") || name.endsWith(".d.ts")) {
      writeFileSync(target, rewriteFramework(readFileSync(source, "utf8"), framework));
    } else if (!name.endsWith(".map")) {
      writeFileSync(target, readFileSync(source));
    }
  }
}

export default async function emitFrameworkEntries({ root }) {
  const source = join(root, "dist", "constructs");
  for (const [dir, framework] of Object.entries(FRAMEWORK_COPIES)) {
    const target = join(root, "dist", dir);
    rmSync(target, { recursive: true, force: true });
    copyTree(source, target, framework);
    const left = [];
    const scan = (d) => {
      for (const name of readdirSync(d)) {
        const path = join(d, name);
        if (statSync(path).isDirectory()) scan(path);
        else if (/["']cdktf["'/]/.test(readFileSync(path, "utf8").replace(/\/\/.*|\/\*[\s\S]*?\*\//g, ""))) left.push(path);
      }
    };
    scan(target);
    if (left.length > 0) throw new Error(`build: ${left.join(", ")} still name "cdktf" after the rewrite to "${framework}"`);
  }
}
