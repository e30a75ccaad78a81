// The preview pages in a real browser: headless Chromium (Debian's) driven by playwright-core
// opens the gallery `animkit preview SAMPLES -o SITE` writes, and every page in it (file://).
// For each page, every joint's world position at every frame of every clip, as three.js's
// scene graph has it (window.animkitPreview.worldPositions), must equal the position
// composed here from `animkit sample` (local TRS down the parent chain of the glb
// `animkit convert` writes) within 1e-4 x the model's size. Each page's screenshot is
// kept (OUT/screenshots) and must show the model (>= 0.5 % of the view's pixels with the
// grid hidden); the gallery's links must resolve and its counts equal `animkit info --json`;
// no page may make a request that is not file: or data:. Page sizes stay within
// 1.5 MB + 1.4 x the glb.
//
// node preview_pages_test.mjs --cli ANIMKIT --samples DIR --out DIR [--chromium PATH]
// playwright-core comes from $ANIMKIT_NODE_MODULES (make test installs it). Exit 77: skipped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { checker, loadChromium, parseArgs, launchChromium, openPreview } from './browser_harness.mjs';
import { composeWorld, diagonal, nodeTree, readGlbJson } from './preview_reference.mjs';

const args = parseArgs('node preview_pages_test.mjs --cli ANIMKIT --samples DIR --out DIR [--chromium PATH]',
                       ['cli', 'samples', 'out']);
const { chromium, chromiumPath } = loadChromium(args);

const started = Date.now();
const cli = path.resolve(args.cli);
const samples = path.resolve(args.samples);
const out = path.resolve(args.out);
const site = path.join(out, 'site');
const shots = path.join(out, 'screenshots');
const scratch = path.join(out, 'reference');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(shots, { recursive: true });
fs.mkdirSync(scratch, { recursive: true });

const { check, finish } = checker();

function run(...argv) {
  return execFileSync(cli, argv, { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
}

// ---- the site ----------------------------------------------------------------------------------
const siteOutput = run('preview', samples, '-o', site);
check(/index\.html/.test(siteOutput), `preview DIR printed no index.html path: ${siteOutput}`);
const indexPath = path.join(site, 'index.html');
check(fs.existsSync(indexPath), 'the gallery has no index.html');

const browser = await launchChromium(chromium, chromiumPath);
const context = await browser.newContext({ viewport: { width: 800, height: 500 } });
const requests = [];
context.on('request', (r) => {
  const url = r.url();
  if (!/^(file|data|blob):/.test(url)) requests.push(url);  // blob: the glb's own textures
});
const report = [];
let glbTotal = 0;

try {
  const gallery = await context.newPage();
  await gallery.goto(pathToFileURL(indexPath).href);
  const rows = await gallery.evaluate(() => Array.from(document.querySelectorAll('#files tbody tr')).map((tr) => {
    const a = tr.querySelector('a');
    const d = tr.dataset;
    return { path: d.path, format: d.format, page: d.page, skeleton: d.skeleton, href: a ? a.href : null,
             clips: +d.clips, frames: +d.frames, joints: +d.joints, events: +d.events,
             error: tr.classList.contains('failed') ? tr.textContent : '' };
  }));
  const sampleFiles = [];
  const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).forEach((e) => {
    const p = path.join(dir, e.name);
    // Textures beside a model (.dds) are the model's, not files of a format: not listed.
    if (e.isDirectory()) walk(p); else if (e.isFile() && !e.name.endsWith('.dds')) sampleFiles.push(path.relative(samples, p).split(path.sep).join('/'));
  });
  walk(samples);
  // An archive of files (a Vib-Ribbon PAK) is walked as the folder it unpacks to: the gallery
  // lists its members as ARCHIVE/MEMBER, which this test reads from an extracted copy.
  const archiveExtensions = new Set(JSON.parse(run('formats', '--json')).formats
    .filter((f) => f.archive_of_files).flatMap((f) => f.extensions));
  const unpacked = new Map();  // archive's path in samples -> the folder it was extracted to
  // An archive that holds characters (a Metroid PAK) gives a page per character instead,
  // ARCHIVE/NAME, read from the archive with --character NAME.
  const scenes = new Map();  // ARCHIVE/NAME -> [archive's path in samples, NAME]
  for (const rel of sampleFiles.slice()) {
    if (!archiveExtensions.has(path.extname(rel).toLowerCase())) continue;
    const characters = JSON.parse(run('info', '--json', path.join(samples, rel))).fields.characters || [];
    if (characters.length) {
      const names = characters.map((c) => `${rel}/${c.name}`);
      characters.forEach((c) => scenes.set(`${rel}/${c.name}`, [rel, c.name]));
      sampleFiles.splice(sampleFiles.indexOf(rel), 1, ...names);
      continue;
    }
    const folder = path.join(scratch, 'unpacked', rel);
    run('archive', 'extract', path.join(samples, rel), '-o', folder);
    unpacked.set(rel, folder);
    const members = JSON.parse(run('archive', 'list', '--json', path.join(samples, rel)));
    sampleFiles.splice(sampleFiles.indexOf(rel), 1, ...members.map((m) => `${rel}/${m.name}`));
  }
  const samplePath = (rel) => {
    if (scenes.has(rel)) return path.join(samples, scenes.get(rel)[0]);
    for (const [archive, folder] of unpacked) {
      if (rel.startsWith(archive + '/')) return path.join(folder, rel.slice(archive.length + 1));
    }
    return path.join(samples, rel);
  };
  check(rows.length === sampleFiles.length, `the gallery lists ${rows.length} files, samples has ${sampleFiles.length}`);
  check(JSON.stringify(rows.map((r) => r.path).sort()) === JSON.stringify(sampleFiles.slice().sort()),
        `the gallery's files are not the samples' (archives by member): ${rows.map((r) => r.path)}`);
  // The filter box keeps the rows whose name has the text.
  await gallery.fill('#filter', 'canm');
  const shown = await gallery.evaluate(() => Array.from(document.querySelectorAll('#files tbody tr')).filter((tr) => !tr.hidden).length);
  check(shown === rows.filter((r) => r.path.includes('canm')).length, `the filter box shows ${shown} rows for "canm"`);
  await gallery.fill('#filter', '');
  await gallery.screenshot({ path: path.join(shots, 'gallery.png') });
  await gallery.close();

  for (const row of rows) {
    const file = samplePath(row.path);
    const skeletonArgs = row.skeleton ? ['--skeleton', samplePath(row.skeleton)] : [];
    if (scenes.has(row.path)) skeletonArgs.push('--character', scenes.get(row.path)[1]);
    check(!row.error, `${row.path}: the gallery shows an error: ${row.error}`);
    if (!check(row.href, `${row.path}: no page link`)) continue;
    const pagePath = fileURLToPath(row.href);
    if (!check(fs.existsSync(pagePath), `${row.path}: the link ${row.href} does not resolve`)) continue;

    // The gallery's counts are `animkit info --json`'s, with the same skeleton file.
    const info = JSON.parse(run('info', '--json', '--full', file, ...skeletonArgs));  // --full: each clip's joint names
    // Joints: the skeleton's, or without one the joints the clips animate.
    const animated = new Set(info.clips.flatMap((c) => c.joints || []));
    const counts = { clips: info.clips.length, frames: info.clips.reduce((s, c) => s + c.frames, 0),
                     joints: info.joints.length || animated.size, events: info.events.length };
    for (const k of Object.keys(counts)) {
      check(row[k] === counts[k], `${row.path}: the gallery says ${k} ${row[k]}, animkit info ${counts[k]}`);
    }

    const glbPath = path.join(scratch, row.path.replace(/\//g, '__') + '.glb');
    run('convert', file, glbPath, ...skeletonArgs);
    const tree = nodeTree(readGlbJson(glbPath));
    const sample = JSON.parse(run('sample', file, ...skeletonArgs));
    const pageBytes = fs.statSync(pagePath).size;
    const glbBytes = fs.statSync(glbPath).size;
    glbTotal += glbBytes;
    const limit = 1.5e6 + 1.4 * glbBytes;
    check(pageBytes <= limit, `${row.path}: the page has ${pageBytes} bytes, over 1.5 MB + 1.4 x ${glbBytes}`);

    const { page, errors, failed: ready } = await openPreview(context, pagePath);
    if (!check(ready === null, `${row.path}: the page did not load: ${ready}`)) { await page.close(); continue; }

    const shown = await page.evaluate(async () => {
      const p = window.animkitPreview;
      const clips = p.clips();
      for (let i = 0; i < clips.length; i++) await p.loadClip(i);  // each clip is parsed when first shown
      const frames = clips.map((c, i) => Array.from({ length: c.frames }, (_, f) => p.worldPositions(i, f).map((j) => j.position)));
      return { joints: p.joints(), clips, frames, rest: p.worldPositions('rest', 0).map((j) => j.position),
               cameras: p.cameraPositions() };
    });
    check(JSON.stringify(shown.joints.map((j) => j.name)) === JSON.stringify(tree.joints.map((n) => tree.nodes[n].name ?? '')),
          `${row.path}: the page's joints are not the glb's`);
    const byName = new Map();
    tree.joints.forEach((n) => { if (!byName.has(tree.nodes[n].name)) byName.set(tree.nodes[n].name, n); });

    let maxError = 0, maxRelative = 0, compared = 0, framesChecked = 0;
    const compare = (where, want, got, size) => {
      const tolerance = 1e-4 * (size > 0 ? size : 1);
      want.forEach((w, j) => {
        if (!w) return;  // hidden in that frame (null in animkit sample)
        const g = got[j];
        const error = Math.hypot(g[0] - w[0], g[1] - w[1], g[2] - w[2]);
        compared++;
        maxError = Math.max(maxError, error);
        maxRelative = Math.max(maxRelative, error / (size > 0 ? size : 1));
        check(error <= tolerance, `${row.path} ${where}, joint ${shown.joints[j].name}: page ${g}, animkit sample ${w} (off by ${error}, tolerance ${tolerance})`);
      });
    };
    // The rest pose (what a skeleton-only file shows).
    const rest = composeWorld(tree, new Map(), false);
    compare('rest pose', rest, shown.rest, diagonal(rest));
    check(shown.clips.length === sample.clips.length, `${row.path}: the page has ${shown.clips.length} clips, animkit sample ${sample.clips.length}`);
    sample.clips.forEach((clip, c) => {
      const pageClip = shown.clips[c];
      if (!check(pageClip && pageClip.name === clip.name && pageClip.frames === clip.frames.length,
                 `${row.path}: clip ${c} is ${clip.name} with ${clip.frames.length} frames, the page has ${JSON.stringify(pageClip)}`)) return;
      const nodesOf = clip.joints.map((name) => byName.get(name));
      const want = clip.frames.map((frame) => {
        const pose = new Map();
        frame.forEach((trs, k) => { if (nodesOf[k] !== undefined) pose.set(nodesOf[k], trs); });
        return composeWorld(tree, pose, clip.space === 'model');
      });
      const size = diagonal(want.flat());
      want.forEach((w, f) => compare(`clip ${clip.name} frame ${f}`, w, shown.frames[c][f], size));
      framesChecked += want.length;
    });
    if (tree.joints.length === 0) {
      // No joints (a camera path): the camera moves along a path of the clip's frames.
      const path0 = shown.cameras[0] || [];
      check(path0.length > 1 && diagonal(path0) > 0, `${row.path}: no joints and no camera path shown`);
    }

    // The picture: the model alone (grid and text hidden) covers a share of the view.
    const middle = shown.clips.length ? Math.floor(shown.clips[0].frames / 3) : 0;
    const share = await page.evaluate((frame) => {
      const p = window.animkitPreview;
      p.worldPositions(p.clips().length ? 0 : 'rest', frame);
      p.setOverlays(false);
      const canvas = p.render();
      const copy = document.createElement('canvas');
      copy.width = canvas.width;
      copy.height = canvas.height;
      const g = copy.getContext('2d');
      g.drawImage(canvas, 0, 0);
      const pixels = g.getImageData(0, 0, copy.width, copy.height).data;
      let covered = 0;
      for (let i = 0; i < pixels.length; i += 4) {
        if (Math.abs(pixels[i] - 0x1d) + Math.abs(pixels[i + 1] - 0x21) + Math.abs(pixels[i + 2] - 0x28) > 30) covered++;
      }
      p.setOverlays(true);
      p.render();
      return covered / (pixels.length / 4);
    }, middle);
    check(share >= 0.005, `${row.path}: the model covers ${(share * 100).toFixed(2)} % of the view (blank page?)`);
    const shot = path.join(shots, row.path.replace(/\//g, '__') + '.png');
    await page.screenshot({ path: shot });
    check(errors.length === 0, `${row.path}: errors in the page: ${errors.join('; ')}`);
    await page.close();
    report.push({ file: row.path, format: row.format, skeleton: row.skeleton, page_bytes: pageBytes, glb_bytes: glbBytes,
                  limit: Math.floor(limit), clips: shown.clips.length, frames_checked: framesChecked,
                  joints: shown.joints.length, positions_compared: compared, max_error: maxError,
                  max_error_per_size: maxRelative, pixel_share: share, screenshot: shot });
    console.log(`${row.path}: ${pageBytes} bytes (glb ${glbBytes}), ${framesChecked} frames x ${shown.joints.length} joints, ` +
                `max error ${maxError.toExponential(2)} (${maxRelative.toExponential(2)} x size), model on ${(share * 100).toFixed(1)} % of the view`);
  }
} finally {
  await browser.close();
}

check(requests.length === 0, `requests that are not file:, data: or blob:: ${requests.join(', ')}`);
// The gallery's size rule: the whole site (pages, index.html, the shared three.js and viewer)
// is at most 1.2 x the glbs it shows + 5 MB.
const siteBytes = fs.readdirSync(site, { recursive: true }).map((f) => path.join(site, f))
  .filter((f) => fs.statSync(f).isFile()).reduce((sum, f) => sum + fs.statSync(f).size, 0);
check(siteBytes <= 1.2 * glbTotal + 5e6, `the site has ${siteBytes} bytes, over 1.2 x ${glbTotal} (its glbs) + 5 MB`);
console.log(`the site: ${siteBytes} bytes for ${glbTotal} bytes of glb`);
fs.writeFileSync(path.join(out, 'preview-report.json'), JSON.stringify(report, null, 1) + '\n');
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`${report.length} pages in ${seconds} s; screenshots in ${shots}`);
finish();
