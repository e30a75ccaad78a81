// The preview at the size of real game data, in headless Chromium (as preview_pages_test.mjs):
// the moveset animkit_make_moveset writes (101 clips x 229 joints, KH2 Hermite curves,
// triggers) as one page and, with a smaller one beside it, as a gallery.
// - The page: its bytes and its time to `ready` are recorded (the report); the only timing
//   check is a generous bound (60 s: the test is not a benchmark, bench/preview_page.mjs is).
// - Clips parsed when first shown play the right clip: clips 0, 1, 50 and the last, at a few
//   frames each, equal `animkit sample --clip NAME` composed down the glb's node tree within
//   1e-4 x the model's size.
// - The gallery: the whole site is at most 1.2 x the glbs it shows + 5 MB; its pages load the
//   shared three.js and viewer from the site's folder (file:) and nothing else; a page opened
//   alone works; the gallery's columns and the page's clip table fit a 1280 px window; no two
//   event labels of the timeline overlap.
// - Screenshots (OUT/*.png) of the page, its skeleton at a close zoom, and the gallery.
//
// node preview_moveset_test.mjs --cli ANIMKIT --make-moveset MAKE_MOVESET --out DIR [--chromium PATH]
// playwright-core comes from $ANIMKIT_NODE_MODULES. Exit 77: skipped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { checker, loadChromium, parseArgs, launchChromium, openPreview } from './browser_harness.mjs';
import { composeWorld, diagonal, nodeTree, readGlbJson } from './preview_reference.mjs';

const args = parseArgs('node preview_moveset_test.mjs --cli ANIMKIT --make-moveset MAKE_MOVESET --out DIR [--chromium PATH]', ['cli', 'make-moveset', 'out']);
const { chromium, chromiumPath } = loadChromium(args);

const { check, finish } = checker();
const cli = path.resolve(args.cli);
const run = (exe, ...argv) => execFileSync(exe, argv, { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
const out = path.resolve(args.out);
fs.rmSync(out, { recursive: true, force: true });
const input = path.join(out, 'in');
run(path.resolve(args['make-moveset']), path.join(input, 'moveset'));
run(path.resolve(args['make-moveset']), path.join(input, 'small'), '--clips', '4', '--joints', '30');
const mset = path.join(input, 'moveset', 'moveset.mset');
const glb = path.join(out, 'moveset.glb');
run(cli, 'convert', mset, glb);
const tree = nodeTree(readGlbJson(glb));
const pagePath = path.join(out, 'moveset.html');
run(cli, 'preview', mset, '-o', pagePath);
const site = path.join(out, 'site');
run(cli, 'preview', input, '-o', site);

const browser = await launchChromium(chromium, chromiumPath);
const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
const requests = [];
context.on('request', (r) => { if (!/^(file|data|blob):/.test(r.url())) requests.push(r.url()); });
const report = { page_bytes: fs.statSync(pagePath).size, glb_bytes: fs.statSync(glb).size };

// Opens a page; returns it with its time to ready (seconds) and the errors it reports.
function open(file) {
  return openPreview(context, file);
}

// The page's joints at the frames of the clips, against `animkit sample --clip`.
async function checkClips(page, label) {
  const clips = await page.evaluate(() => window.animkitPreview.clips());
  const byName = new Map();
  tree.joints.forEach((n) => { if (!byName.has(tree.nodes[n].name)) byName.set(tree.nodes[n].name, n); });
  let worst = 0;
  for (const c of [0, 1, 50, clips.length - 1]) {
    const sample = JSON.parse(run(cli, 'sample', mset, '--clip', clips[c].name)).clips[0];
    const frames = [0, Math.floor(sample.frames.length / 2), sample.frames.length - 1];
    const shown = await page.evaluate(async ([clip, fs]) => {
      const p = window.animkitPreview;
      await p.loadClip(clip);
      return fs.map((f) => p.worldPositions(clip, f).map((j) => j.position));
    }, [c, frames]);
    const nodesOf = sample.joints.map((name) => byName.get(name));
    frames.forEach((f, k) => {
      const pose = new Map();
      sample.frames[f].forEach((trs, j) => { if (nodesOf[j] !== undefined) pose.set(nodesOf[j], trs); });
      const want = composeWorld(tree, pose, sample.space === 'model');
      const size = diagonal(want) || 1;
      want.forEach((w, j) => {
        if (!w) return;
        const g = shown[k][j];
        const error = Math.hypot(g[0] - w[0], g[1] - w[1], g[2] - w[2]) / size;
        worst = Math.max(worst, error);
        check(error <= 1e-4, `${label}: clip ${clips[c].name} frame ${f} joint ${j}: page ${g}, animkit sample ${w}`);
      });
    });
  }
  return worst;
}

// What must fit a 1280 px window: the gallery's table, the page's clip table; labels apart.
async function checkLayout(page, label) {
  const layout = await page.evaluate(() => {
    const rect = (e) => e.getBoundingClientRect();
    const table = document.querySelector('#panel table.clips');
    const labels = Array.from(document.querySelectorAll('#markers .marker')).map((s) => rect(s))
      .map((r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom }));
    return { panel: rect(document.getElementById('panel')), table: table ? rect(table) : null,
             width: document.documentElement.scrollWidth, labels,
             ticks: document.querySelectorAll('#markers .tick').length };
  });
  check(layout.width <= 1280, `${label}: the page is ${layout.width} px wide`);
  check(layout.table && layout.table.right <= layout.panel.right + 0.5, `${label}: the clip table overflows the panel`);
  const overlaps = layout.labels.filter((a, i) => layout.labels.some((b, k) => k > i &&
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom));
  check(overlaps.length === 0, `${label}: ${overlaps.length} event labels overlap another`);
  return layout;
}

try {
  // ---- the page alone -----------------------------------------------------------------------
  const single = await open(pagePath);
  check(single.failed === null, `the moveset's page did not load: ${single.failed}`);
  check(single.seconds <= 60, `the moveset's page took ${single.seconds} s to be ready`);
  report.ready_seconds = single.seconds;
  report.steps_ms = await single.page.evaluate(() => window.animkitPreview.timings());
  if (single.failed === null) {
    report.max_error_per_size = await checkClips(single.page, 'page');
    // Event labels of a clip with events.
    const withEvents = await single.page.evaluate(() => window.animkitPreview.clips().findIndex((c) => c.events.length > 2));
    if (withEvents >= 0) {
      await single.page.selectOption('#clip-select', String(withEvents));
      await single.page.waitForFunction((i) => document.getElementById('clip-select').value === String(i) &&
        document.querySelectorAll('#markers .tick').length > 0, withEvents);
    }
    const layout = await checkLayout(single.page, 'page');
    const events = await single.page.evaluate((i) => (i >= 0 ? window.animkitPreview.clips()[i].events.length : 0), withEvents);
    check(layout.ticks === events, `page: ${layout.ticks} event ticks on the timeline for ${events} events`);
    report.event_markers = layout.ticks;
    report.event_labels = layout.labels.length;
    await single.page.screenshot({ path: path.join(out, 'moveset.png') });
    // The skeleton close up: the camera moved to a tenth of its distance.
    await single.page.evaluate(() => window.animkitPreview.zoom(0.1));
    await single.page.screenshot({ path: path.join(out, 'moveset-close.png') });
  }
  check(single.errors.length === 0, `errors in the page: ${single.errors.join('; ')}`);

  // ---- the gallery --------------------------------------------------------------------------
  const bytesOf = (dir) => fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile()).reduce((sum, f) => sum + fs.statSync(f).size, 0);
  let glbTotal = 0;
  for (const name of ['moveset', 'small']) {
    const file = path.join(out, `${name}.check.glb`);
    // The pages show the game's pose at every frame (the exact decode), so the glbs they
    // show are those of one key per frame, not convert's refit keys.
    run(cli, 'convert', path.join(input, name, 'moveset.mset'), file, '--kh2-keys', 'frames');
    glbTotal += fs.statSync(file).size;
  }
  report.site_bytes = bytesOf(site);
  report.site_glb_bytes = glbTotal;
  check(report.site_bytes <= 1.2 * glbTotal + 5e6, `the site has ${report.site_bytes} bytes, over 1.2 x ${glbTotal} + 5 MB`);
  const gallery = await context.newPage();
  await gallery.goto(pathToFileURL(path.join(site, 'index.html')).href);
  const width = await gallery.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 1280, `the gallery is ${width} px wide`);
  await gallery.screenshot({ path: path.join(out, 'gallery.png') });
  const loaded = [];
  context.on('request', (r) => loaded.push(r.url()));
  const fromSite = await open(path.join(site, 'moveset', 'moveset.mset.html'));
  check(fromSite.failed === null, `the site's moveset page did not load: ${fromSite.failed}`);
  const shared = loaded.filter((u) => u.includes('/animkit-preview/'));
  check(shared.length >= 4, `the site's page loaded ${shared.length} shared assets: ${shared.join(', ')}`);
  if (fromSite.failed === null) await checkClips(fromSite.page, 'site page');
  check(fromSite.errors.length === 0, `errors in the site's page: ${fromSite.errors.join('; ')}`);
  report.site_page_ready_seconds = fromSite.seconds;
} finally {
  await browser.close();
}
check(requests.length === 0, `requests that are not file:, data: or blob:: ${requests.join(', ')}`);
fs.writeFileSync(path.join(out, 'preview-moveset-report.json'), JSON.stringify(report, null, 1) + '\n');
console.log(JSON.stringify(report));
finish();
