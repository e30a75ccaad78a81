#!/usr/bin/env node
// node validate.mjs FILE...
// Validates each glTF/GLB file with the Khronos glTF-Validator and prints a one-line
// JSON summary per file. Exits 0 only when every file has 0 errors and 0 warnings,
// 1 when some file has issues, 2 on usage or setup errors.
// The validator module is looked up in $ANIMKIT_NODE_MODULES (a node_modules
// directory), else next to this script.
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function loadValidator() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const dirs = [];
  if (process.env.ANIMKIT_NODE_MODULES) dirs.push(path.resolve(process.env.ANIMKIT_NODE_MODULES));
  dirs.push(path.join(here, 'node_modules'));
  for (const dir of dirs) {
    // createRequire anchored inside the node_modules dir resolves packages from it.
    const require = createRequire(path.join(dir, 'noop.js'));
    try {
      return require(path.join(dir, 'gltf-validator'));
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND') throw e;
    }
  }
  throw new Error(`gltf-validator not found in ${dirs.join(' or ')} (set ANIMKIT_NODE_MODULES)`);
}

async function validateFile(validator, file) {
  const bytes = new Uint8Array(await readFile(file));
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 100,
    // Buffers are embedded; anything external is reported as missing, never read.
    externalResourceFunction: (uri) => Promise.reject(`external resource ${uri} not allowed`),
  });
  const issues = report.issues || {};
  const messages = (issues.messages || []).map((m) => ({
    code: m.code, severity: m.severity, pointer: m.pointer, message: m.message,
  }));
  return {
    file,
    validatorVersion: report.validatorVersion,
    errors: issues.numErrors ?? 0,
    warnings: issues.numWarnings ?? 0,
    infos: issues.numInfos ?? 0,
    hints: issues.numHints ?? 0,
    messages,
  };
}

async function main(files) {
  if (files.length === 0) {
    console.error('usage: node validate.mjs FILE...');
    return 2;
  }
  let validator;
  try {
    validator = loadValidator();
  } catch (e) {
    console.error(String(e.message || e));
    return 2;
  }
  let ok = true;
  for (const file of files) {
    let summary;
    try {
      summary = await validateFile(validator, file);
    } catch (e) {
      summary = { file, errors: 1, warnings: 0, infos: 0, hints: 0, messages: [{ message: String(e) }] };
    }
    if (summary.errors > 0 || summary.warnings > 0) ok = false;
    console.log(JSON.stringify(summary));
  }
  return ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
