// chainform/layers: the layering of lib/ as an ESLint rule. Each layer lists the folders it must not import from,
// and may name modules of those folders it may import all the same (`allow`: a module's path without extension, which
// lets in that module only, not the files beside or under it), and may name modules of its own to which the layer's
// rule does not apply (`exempt`: the one place that composes parts the rest must keep apart), or folders of its own
// to which it does not apply (`exemptFolders`: a room with layers of its own); an import (static,
// dynamic, `export ... from` or
// `require`) is resolved against the importing file and reported when it lands in a forbidden folder. Paths are relative to the project root; test files are not checked (a test
// may cross layers on purpose). eslint.config.mjs holds the layers, and says why each exists.
import { dirname, relative, resolve, sep } from "node:path";

/** @type {import("eslint").Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: "problem",
    docs: { description: "keep each layer of lib/ to the imports its place in the architecture allows" },
    schema: [
      {
        type: "array",
        items: {
          type: "object",
          properties: {
            layer: { type: "string" },
            forbid: { type: "array", items: { type: "string" } },
            typesFrom: { type: "array", items: { type: "string" } },
            allow: { type: "array", items: { type: "string" } },
            exempt: { type: "array", items: { type: "string" } },
            exemptFolders: { type: "array", items: { type: "string" } },
            why: { type: "string" },
          },
          required: ["layer", "forbid", "why"],
          additionalProperties: false,
        },
      },
    ],
    messages: { forbidden: "{{file}} is in {{layer}}, which may not import {{target}}: {{why}}" },
  },
  create(context) {
    const root = context.cwd;
    const file = toPosix(relative(root, context.filename));
    if (/\.test\.ts$/.test(file)) return {};
    const layers = (context.options[0] ?? []).filter(
      (l) =>
        inside(file, l.layer) && !(l.exempt ?? []).some((m) => isModule(file, m)) && !(l.exemptFolders ?? []).some((f) => inside(file, f)),
    );
    if (layers.length === 0) return {};
    // `typesOnly`: an `import type` or `export type`, which leaves nothing in the JavaScript (allowed from `typesFrom`).
    const check = (node, source, typesOnly = false) => {
      if (typeof source !== "string" || !source.startsWith(".")) return;
      const target = toPosix(relative(root, resolve(dirname(context.filename), source)));
      for (const l of layers) {
        if (typesOnly && (l.typesFrom ?? []).some((f) => inside(target, f))) continue;
        if ((l.allow ?? []).some((m) => isModule(target, m))) continue;
        const hit = l.forbid.find((f) => inside(target, f));
        if (hit) context.report({ node, messageId: "forbidden", data: { file, layer: l.layer, target: hit, why: l.why } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value, node.importKind === "type"),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, node.exportKind === "type"),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === "type"),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
      CallExpression: (node) => {
        if (node.callee.type === "Identifier" && node.callee.name === "require" && node.arguments[0]?.type === "Literal")
          check(node, node.arguments[0].value);
      },
    };
  },
};

function inside(path, folder) {
  return path === folder || path.startsWith(folder + "/") || path.startsWith(folder + ".");
}

/** Whether an import's resolved path is the module `module` (written without extension): itself, or its index file. */
function isModule(path, module) {
  const bare = path.replace(/\.(ts|js|mjs|cjs)$/, "");
  return bare === module || bare === `${module}/index`;
}

function toPosix(path) {
  return path.split(sep).join("/");
}

export default { rules: { layers: layersRule } };
