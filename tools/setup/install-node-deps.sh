#!/usr/bin/env bash
# Installs the Khronos glTF validator (npm package gltf-validator) under $1.
# Without npm, or without the registry, the validator tests skip with a message.
set -uo pipefail
dest=$1
src="$(cd "$(dirname "$0")/../gltf-validate" && pwd)"
if [ -f "$dest/node_modules/gltf-validator/package.json" ]; then exit 0; fi
if ! command -v npm >/dev/null; then
  echo "npm not found: glTF validator tests will be skipped" >&2
  exit 0
fi
mkdir -p "$dest"
cp "$src/package.json" "$dest/"
[ -f "$src/package-lock.json" ] && cp "$src/package-lock.json" "$dest/"
if ! (cd "$dest" && npm install --no-audit --no-fund --loglevel=error >/dev/null); then
  echo "npm install of gltf-validator failed: glTF validator tests will be skipped" >&2
fi
exit 0
