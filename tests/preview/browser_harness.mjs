// What every browser test of the preview starts with: its arguments, skipping (exit 77)
// without Chromium or playwright-core, and the checks it counts.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const SKIP = 77;

// --name value pairs; exits 2 with `usage` when one of `required` is missing.
export function parseArgs(usage, required) {
  const args = {};
  for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
  if (required.some((name) => !args[name])) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return args;
}

export function skip(why) {
  console.log(`skipped: ${why}`);
  process.exit(SKIP);
}

// playwright-core's chromium from $ANIMKIT_NODE_MODULES and the browser's path (--chromium,
// else Debian's); skips the test when either is missing.
export function loadChromium(args) {
  const chromiumPath = args.chromium || '/usr/bin/chromium';
  if (!fs.existsSync(chromiumPath)) skip(`no Chromium at ${chromiumPath}: install Debian's chromium (make deps does)`);
  const modules = process.env.ANIMKIT_NODE_MODULES;
  if (!modules) skip('ANIMKIT_NODE_MODULES is not set (make test points it at build/node/node_modules)');
  try {
    const require = createRequire(path.join(path.resolve(modules), 'index.js'));
    // playwright-core stops the process on a Node.js older than it supports: ask first.
    const engines = JSON.parse(fs.readFileSync(require.resolve('playwright-core/package.json'), 'utf8')).engines || {};
    const wanted = Number(((engines.node || '').match(/\d+/) || ['0'])[0]);
    if (Number(process.versions.node.split('.')[0]) < wanted) {
      skip(`playwright-core needs Node.js ${wanted} or later, and this is ${process.version} (Debian 12's nodejs is 18): a newer node on PATH runs these tests`);
    }
    const { chromium } = require('playwright-core');
    return { chromium, chromiumPath };
  } catch (e) {
    return skip(`no playwright-core in ANIMKIT_NODE_MODULES=${modules} (make node-deps installs it): ${e.message}`);
  }
}

// check(ok, message) counts and reports; finish() prints the tally and exits.
export function checker() {
  const failures = [];
  let checks = 0;
  return {
    failures,
    check(ok, message) {
      checks++;
      if (!ok) {
        failures.push(message);
        console.log(`FAIL: ${message}`);
      }
      return ok;
    },
    finish() {
      console.log(`${checks - failures.length} passed, ${failures.length} failed`);
      process.exit(failures.length ? 1 : 0);
    },
  };
}

// Debian's Chromium headless on a closed network, WebGL through SwiftShader: the flags every
// browser test launches it with.
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

export function launchChromium(chromium, chromiumPath) {
  return chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
}

// Opens a preview page in a new tab of `context` and waits for it: the tab, the errors it
// reported, `failed` (null when the page became ready, else why not) and its time to ready.
export async function openPreview(context, file) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const started = Date.now();
  await page.goto(pathToFileURL(file).href);
  const failed = await page.evaluate(() => window.animkitPreview.ready.then(() => null, (e) => String(e)));
  return { page, errors, failed, seconds: (Date.now() - started) / 1000 };
}
