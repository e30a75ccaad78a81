// Damage is never silent in the preview: a page made from a moveset cut inside a slot lists
// the damaged parts in its side panel (and `animkit preview` on stderr), and a model whose
// texture entry cannot be read says so in the panel (else the character is simply white).
// The files are the samples damaged here. Screenshots: OUT/*.png.
//
// node preview_damage_test.mjs --cli ANIMKIT --samples DIR --out DIR [--chromium PATH]
// playwright-core comes from $ANIMKIT_NODE_MODULES. Exit 77: skipped.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { checker, loadChromium, parseArgs, launchChromium } from './browser_harness.mjs';

const args = parseArgs('node preview_damage_test.mjs --cli ANIMKIT --samples DIR --out DIR [--chromium PATH]',
                       ['cli', 'samples', 'out']);
const { chromium, chromiumPath } = loadChromium(args);
const { check, finish } = checker();
const cli = path.resolve(args.cli);
const out = path.resolve(args.out);
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

// The moveset cut at two thirds (inside slot 2: slots 2 and 3 damaged, slot 0 reads); the
// model with its texture entry's magic overwritten.
const mset = fs.readFileSync(path.join(args.samples, 'kh2_bar', 'p_ex00.mset'));
// Each in its own folder: neither is the other's companion.
fs.mkdirSync(path.join(out, 'mset'));
fs.mkdirSync(path.join(out, 'model'));
const cut = path.join(out, 'mset', 'cut.mset');
fs.writeFileSync(cut, mset.subarray(0, Math.floor(mset.length * 2 / 3)));
const model = Buffer.from(fs.readFileSync(path.join(args.samples, 'kh2_bar', 'ex00.mdlx')));
const textureAt = model.readUInt32LE(16 + 16 + 8);  // entry 1: the texture entry's offset
model.write('XXXX', textureAt, 'latin1');
const untextured = path.join(out, 'model', 'untextured.mdlx');
fs.writeFileSync(untextured, model);

const cases = [
  { file: cut, said: /damaged, no clip from it: entry 2 \(A000\)/, stderr: /warning: damaged, no clip from it/ },
  { file: untextured, said: /warning: meshes: the texture entry could not be read/, stderr: /texture entry could not be read/ },
];

const browser = await launchChromium(chromium, chromiumPath);
const tab = await browser.newPage({ viewport: { width: 1000, height: 600 } });
for (const c of cases) {
  const name = path.basename(c.file);
  const page = path.join(out, `${name}.html`);
  const run = spawnSync(cli, ['preview', c.file, '-o', page], { encoding: 'utf8' });
  check(run.status === 0, `${name}: preview exited ${run.status}: ${run.stderr}`);
  check(c.stderr.test(run.stderr), `${name}: preview said nothing of the damage on stderr: ${run.stderr}`);
  if (run.status !== 0) continue;
  await tab.goto(pathToFileURL(page).href);
  const ready = await tab.evaluate(() => window.animkitPreview.ready.then(() => null, (e) => String(e)));
  check(ready === null, `${name}: the page did not load: ${ready}`);
  const panel = await tab.evaluate(() => document.getElementById('panel').textContent);
  check(c.said.test(panel), `${name}: the panel does not say ${c.said}: ${panel.slice(0, 600)}`);
  await tab.screenshot({ path: path.join(out, `${name}.png`) });
}
await browser.close();
finish();
