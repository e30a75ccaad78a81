#!/usr/bin/env bash
# Installs the Node packages the tests use under $1 (tools/gltf-validate/package.json): the
# Khronos glTF validator (gltf-validator) and playwright-core, which drives Debian's Chromium
# for the preview tests (tests/preview). Without npm, or without the registry, those tests
# skip with a message.
set -uo pipefail
dest=$1
src="$(cd "$(dirname "$0")/../gltf-validate" && pwd)"
if [ -f "$dest/node_modules/gltf-validator/package.json" ] && [ -f "$dest/node_modules/playwright-core/package.json" ]; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "npm not found: glTF validator and preview tests will be skipped" >&2
  exit 0
fi
mkdir -p "$dest"
cp "$src/package.json" "$dest/"
[ -f "$src/package-lock.json" ] && cp "$src/package-lock.json" "$dest/"
if ! (cd "$dest" && npm install --no-audit --no-fund --loglevel=error >/dev/null); then
  echo "npm install of gltf-validator and playwright-core failed: glTF validator and preview tests will be skipped" >&2
fi
exit 0
