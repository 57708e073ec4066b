#!/usr/bin/env bash
# Packs the tarball a release attaches (what `npm publish` would upload) into DEST and prints its file name: `npm pack`
# (prepack builds dist/ and strips the scripts from the packed package.json; postpack puts them back), then checks
# that the packed package.json has no scripts and that the repository's package.json is as it was.
# The release workflow (.github/workflows/release.yml) runs it; by hand, after `npm ci`:
#
#   scripts/release-pack.sh /tmp/release && scripts/check-tarball.sh /tmp/release/chainform-*.tgz
set -euo pipefail
dest="${1:?usage: release-pack.sh DEST_DIR}"
cd "$(dirname "$0")/.."
mkdir -p "$dest"
before="$(sha256sum package.json)"
name="$(npm pack --silent --pack-destination "$dest" | tail -n 1)"
tarball="$dest/$name"
[[ -f "$tarball" ]] || { echo "release-pack: npm pack wrote no $tarball" >&2; exit 1; }
if tar -xzOf "$tarball" package/package.json | node -e 'process.exit(JSON.parse(require("fs").readFileSync(0, "utf8")).scripts ? 0 : 1)'; then
  echo "release-pack: the packed package.json has scripts" >&2
  exit 1
fi
[[ "$(sha256sum package.json)" == "$before" ]] || { echo "release-pack: npm pack left package.json changed" >&2; exit 1; }
echo "$name"
