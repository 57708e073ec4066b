#!/usr/bin/env bash
# Checks a packed chainform (`npm pack`) as a user meets it, on the Node.js of the PATH, in throw-away projects:
#   1. `init` from the tarball under npm's script approval (`npx --ignore-scripts`: init runs no install script),
#      `npm install --strict-allow-scripts --engine-strict` of the project it wrote, nothing compiled, `npm run up`;
#   2. an existing project (its own fields and scripts) that installs the tarball with `--omit=optional` (anvil then
#      comes from @foundry-rs/anvil's own install script, not its platform package), `init` merged into it, its
#      fields and scripts kept, and `up` still serving.
# On Node.js 20, which needs better-sqlite3 for the service (docs/node-versions.md), it checks only that
# `npm install --engine-strict` of the tarball passes and the CLI starts.
# The release workflow (.github/workflows/release.yml) runs it on every supported major; by hand:
#
#   npm pack --pack-destination /tmp && scripts/check-tarball.sh /tmp/chainform-0.1.0.tgz
#   PATH="$(scripts/fetch-node.sh 26)/bin:$PATH" scripts/check-tarball.sh /tmp/chainform-0.1.0.tgz
#
# Needs terraform on the PATH and the npm registry. Leaves nothing behind (CHAINFORM_CHECK_KEEP=1 keeps the projects).
set -euo pipefail
tarball="$(realpath "${1:?usage: check-tarball.sh CHAINFORM_TGZ [TEMPLATE]}")"
template="${2:-cdktn}"
export CHECKPOINT_DISABLE=1 npm_config_update_notifier=false npm_config_audit=false npm_config_fund=false
work="$(mktemp -d "${TMPDIR:-/tmp}/chainform-check.XXXXXX")"
[[ "${CHAINFORM_CHECK_KEEP:-}" == 1 ]] || trap 'rm -rf "$work"' EXIT
major="$(node -p 'process.versions.node.split(".")[0]')"
say() { echo "== check-tarball (Node.js $(node --version), npm $(npm --version)): $*"; }
timed() { local started=$SECONDS; "$@"; say "$* took $((SECONDS - started)) s"; }

if [[ "$major" == 20 ]]; then
  mkdir "$work/engine" && cd "$work/engine"
  echo '{"name":"engine-check","version":"0.0.0","private":true}' > package.json
  timed npm install --engine-strict "$tarball"
  npx --no-install chainform --version
  say "npm install --engine-strict passed"
  exit 0
fi

# 1. A new project under --strict-allow-scripts.
mkdir "$work/new" && cd "$work/new"
npx --yes --ignore-scripts --strict-allow-scripts --package "$tarball" chainform init . --template "$template"
timed npm install --strict-allow-scripts --engine-strict
if find node_modules -name '*.node' -o -path '*/build/Release/*' | grep -v '/chainform/dist/native/' | grep -q .; then
  echo "check-tarball: installing chainform compiled a native module" >&2
  exit 1
fi
timed npm run up
say "a new $template project installs with --strict-allow-scripts and up passes"

# 2. An existing project, --omit=optional, init merged into it.
mkdir "$work/existing" && cd "$work/existing"
cat > package.json <<'JSON'
{
  "name": "team-repository",
  "version": "3.1.0",
  "description": "the team's own",
  "scripts": { "test": "echo the team's tests", "up": "chainform up" },
  "dependencies": {}
}
JSON
timed npm install --omit=optional "$tarball"
if [[ -e node_modules/@foundry-rs/anvil-linux-amd64 || -e node_modules/@foundry-rs/anvil-linux-arm64 ]]; then
  echo "check-tarball: --omit=optional installed anvil's platform package anyway" >&2
  exit 1
fi
npx --no-install chainform init . --template hcl
node -e '
  const m = require("./package.json");
  const kept = m.name === "team-repository" && m.version === "3.1.0" && m.description === "the team'"'"'s own" &&
    m.scripts.test === "echo the team'"'"'s tests" && m.scripts.deploy === "chainform deploy" && m.dependencies.chainform;
  if (!kept) { console.error("check-tarball: init did not keep the project'"'"'s fields and scripts:", m); process.exit(1); }'
timed npx --no-install chainform up
say "--omit=optional still serves; init into an existing project kept its fields and scripts"
