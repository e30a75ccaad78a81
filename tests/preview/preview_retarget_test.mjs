// A retarget's page (`animkit retarget SOURCE --to TARGET -o page.html`) as a person uses it:
// the page loads, both characters are drawn (a skinned mesh each, on screen side by side),
// the target's joints at each frame checked are where `animkit sample` of the retargeted glb
// (`retarget ... -o x.glb`) puts them, pressing play moves them (then a step shows a frame
// that matches too), and a screenshot of the two (OUT/retarget_preview.png; --image: a copy there).
// Then characters of very different heights: the EDF soldier (about 1 unit tall) onto KH2's
// Sora (../shared/fixtures/kh2/P_EX100.mdlx, 169.5 units; --shared DIR: another folder; that
// part skipped, saying so, without it): "same height" draws Sora as tall as the soldier, both
// cover a comparable number of pixels, and the hook's joints stay in Sora's own units
// (OUT/retarget_scaled.png; --scaled-image: a copy there).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { checker, launchChromium, loadChromium, openPreview, parseArgs } from './browser_harness.mjs';
import { composeWorld, diagonal, nodeTree, readGlbJson } from './preview_reference.mjs';

const args = parseArgs('node preview_retarget_test.mjs --cli ANIMKIT --samples DIR --out DIR [--chromium PATH] [--image PNG] [--source F --target T [--map M]] [--shared DIR] [--scaled-image PNG]',
                       ['cli', 'samples', 'out']);
const { chromium, chromiumPath } = loadChromium(args);
const cli = path.resolve(args.cli);
const samples = path.resolve(args.samples);
const out = path.resolve(args.out);
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const { check, finish } = checker();
const run = (...argv) => execFileSync(cli, argv, { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });

// The EDF 5 soldier's clips (its RAB beside it: a skinned, textured model) onto the EDF
// soldier's MDB model: every joint mapped by name.
// --source / --target (--map): another pair (the checks are the same).
const source = args.source ? path.resolve(args.source) : path.join(samples, 'edf_cas', 'soldier5.cas');
const target = args.target ? path.resolve(args.target) : path.join(samples, 'edf_mdb', 'soldier.mdb');
const pagePath = path.join(out, 'retarget.html');
const glbPath = path.join(out, 'retarget.glb');
const map = args.map ? ['--map', path.resolve(args.map)] : [];
run('retarget', source, '--to', target, ...map, '-o', pagePath);
run('retarget', source, '--to', target, ...map, '-o', glbPath);
const tree = nodeTree(readGlbJson(glbPath));
const sample = JSON.parse(run('sample', glbPath));
check(sample.clips.length > 0, 'the retargeted glb has no clips');

// Heights 169.5 against about 1: the target is drawn at the source's height ("same height",
// on by default), each character covers at least a quarter of the other's pixels, its joints
// as the hook gives them stay where `animkit sample` has them (its own units), and turning
// "same height" off draws it at its own size again.
async function checkHeights(context) {
  const shared = path.resolve(args.shared || path.join(samples, '..', '..', 'shared'));
  const sora = path.join(shared, 'fixtures', 'kh2', 'P_EX100.mdlx');
  if (!fs.existsSync(sora)) {
    console.log(`skipped the heights part: no ${sora}`);
    return;
  }
  const soldier = path.join(samples, 'edf_cas', 'soldier5.cas');
  const soraMap = path.join(samples, '..', 'tests', 'data', 'retarget', 'soldier_to_sora.json');
  const scaledPage = path.join(out, 'retarget_scaled.html');
  const scaledGlb = path.join(out, 'retarget_scaled.glb');
  run('retarget', soldier, '--to', sora, '--map', soraMap, '-o', scaledPage);
  run('retarget', soldier, '--to', sora, '--map', soraMap, '-o', scaledGlb);
  const soraTree = nodeTree(readGlbJson(scaledGlb));
  const soraClip = JSON.parse(run('sample', scaledGlb)).clips[0];
  const { page, errors, failed } = await openPreview(context, scaledPage);
  if (!check(failed === null, `the page of the soldier onto Sora did not load: ${failed}`)) return;
  const seen = await page.evaluate(async () => {
    const p = window.animkitPreview;
    await p.loadClip(0);
    const f = Math.floor(p.clips()[0].frames / 3);
    const own = p.besidePositions(0, f).map((j) => j.position);
    p.setOverlays(false);
    const scale = p.besideScale(), checked = document.getElementById('same-height').checked;
    const label = document.getElementById('beside-label').textContent;
    const pixels = p.pixelsDrawn();
    const unscaled = p.setSameHeight(false);
    const ownUnscaled = p.besidePositions(0, f).map((j) => j.position);
    const pixelsUnscaled = p.pixelsDrawn();
    p.setSameHeight(true);
    p.besidePositions(0, f);
    return { f, own, scale, checked, label, pixels, unscaled, ownUnscaled, pixelsUnscaled };
  });
  check(seen.checked, '"same height" is not on by default for characters 169.5 and about 1 tall');
  check(seen.scale > 0 && seen.scale < 0.5, `Sora is drawn at x${seen.scale}, not shrunk to the soldier's height`);
  check(seen.label.includes(`shown at x${Number(seen.scale.toPrecision(2))} to stand as tall as the left`),
        `the line over the view does not give the scale: ${seen.label}`);
  const [left, right] = seen.pixels;
  check(left >= right / 4 && right >= left / 4, `the characters cover ${left} and ${right} pixels: not comparable`);
  check(seen.unscaled === 1, `"same height" off draws Sora at x${seen.unscaled}, not its own size`);
  // The hook's joints: Sora's own units, with "same height" on or off, as sample has them.
  const byName = new Map();
  soraTree.joints.forEach((n) => { if (!byName.has(soraTree.nodes[n].name)) byName.set(soraTree.nodes[n].name, n); });
  const pose = new Map();
  soraClip.frames[seen.f].forEach((trs, k) => { const n = byName.get(soraClip.joints[k]); if (n !== undefined) pose.set(n, trs); });
  const want = composeWorld(soraTree, pose, soraClip.space === 'model');
  const tolerance = 1e-4 * diagonal(want.filter((p) => p));
  const off = (got) => Math.max(...want.map((p, j) => (p ? Math.hypot(...got[j].map((v, k) => v - p[k])) : 0)));
  check(off(seen.own) <= tolerance, `with "same height", Sora's joints are off animkit sample by ${off(seen.own)} (tolerance ${tolerance})`);
  check(off(seen.ownUnscaled) <= tolerance, `without "same height", Sora's joints are off animkit sample by ${off(seen.ownUnscaled)}`);
  const shot = path.join(out, 'retarget_scaled.png');
  await page.evaluate(() => window.animkitPreview.setOverlays(true));
  await page.screenshot({ path: shot });
  if (args['scaled-image']) fs.copyFileSync(shot, path.resolve(args['scaled-image']));
  check(errors.length === 0, `the page of the soldier onto Sora reported errors: ${errors.join('; ')}`);
  console.log(`soldier onto Sora: drawn at x${seen.scale}, ${left} and ${right} pixels (at its own size: ${seen.pixelsUnscaled.join(' and ')}); screenshot ${shot}`);
  await page.close();
}

const browser = await launchChromium(chromium, chromiumPath);
const context = await browser.newContext({ viewport: { width: 1000, height: 560 } });
try {
  const { page, errors, failed } = await openPreview(context, pagePath);
  if (!check(failed === null, `the page did not load: ${failed}`)) throw new Error('no page');
  const shown = await page.evaluate(async () => {
    const p = window.animkitPreview;
    const clips = p.clips();
    await p.loadClip(0);
    const frames = Array.from({ length: clips[0].frames }, (_, f) => p.besidePositions(0, f).map((j) => j.position));
    return { characters: p.characters(), joints: p.besideJoints(), clips, frames };
  });
  check(shown.characters.length === 2, `the page shows ${shown.characters.length} characters, not 2`);
  // Both bundled characters are skinned; a source given with --source may be clips alone (a moveset).
  shown.characters.forEach((c, i) => check(c.skinnedMeshes > 0 || (i === 0 && args.source), `${c.file} is drawn without a skinned mesh`));
  check(JSON.stringify(shown.joints) === JSON.stringify(tree.joints.map((n) => tree.nodes[n].name ?? '')),
        'the target\'s joints on the page are not the retargeted glb\'s');
  check(shown.clips.length === sample.clips.length, `one clip list: the page has ${shown.clips.length} clips, the glb ${sample.clips.length}`);

  // The target's joints at every frame of the first clip: `animkit sample` of the retargeted glb.
  const byName = new Map();
  tree.joints.forEach((n) => { if (!byName.has(tree.nodes[n].name)) byName.set(tree.nodes[n].name, n); });
  const clip = sample.clips[0];
  const nodesOf = clip.joints.map((name) => byName.get(name));
  const want = clip.frames.map((frame) => {
    const pose = new Map();
    frame.forEach((trs, k) => { if (nodesOf[k] !== undefined) pose.set(nodesOf[k], trs); });
    return composeWorld(tree, pose, clip.space === 'model');
  });
  const size = diagonal(want.flat());
  const tolerance = 1e-4 * (size > 0 ? size : 1);
  check(shown.frames.length === want.length, `clip ${clip.name}: the page has ${shown.frames.length} frames, the glb ${want.length}`);
  let worst = 0;
  want.forEach((w, f) => w.forEach((p, j) => {
    if (!p || !shown.frames[f]) return;
    const g = shown.frames[f][j];
    worst = Math.max(worst, Math.hypot(g[0] - p[0], g[1] - p[1], g[2] - p[2]));
  }));
  check(worst <= tolerance, `the target's joints are off animkit sample by ${worst} (tolerance ${tolerance})`);

  // Playing: the timeline moves both, then a step shows a whole frame, as sample has it.
  await page.evaluate(() => window.animkitPreview.besidePositions(0, 0));
  await page.click('#play');
  await page.waitForTimeout(700);
  await page.click('#play');
  await page.click('#step-forward');
  const now = await page.evaluate(() => window.animkitPreview.besideNow());
  check(now.frame > 0, `playing did not move the timeline (frame ${now.frame})`);
  const moved = want[0].some((p, j) => p && Math.hypot(...now.positions[j].position.map((v, k) => v - shown.frames[0][j][k])) > tolerance);
  check(moved, 'playing did not move the target\'s joints');
  if (want[now.frame]) {
    const off = Math.max(...want[now.frame].map((p, j) => (p ? Math.hypot(...now.positions[j].position.map((v, k) => v - p[k])) : 0)));
    check(off <= tolerance, `after playing, frame ${now.frame}: the target's joints are off animkit sample by ${off}`);
  }

  // Both drawn side by side: most joints of each cover a pixel that is not the background.
  const frame = Math.floor(shown.frames.length / 3);
  const covered = await page.evaluate((f) => {
    const p = window.animkitPreview;
    p.setOverlays(false);
    const main = p.worldPositions(0, f).map((j) => j.position);
    const second = p.besidePositions(0, f, true).map((j) => j.position);
    const drawn = (points) => points.filter((q) => {
      const c = p.colourAt(q);
      return Math.abs(c[0] - 0x1d) + Math.abs(c[1] - 0x21) + Math.abs(c[2] - 0x28) > 12;
    }).length / Math.max(1, points.length);
    const apart = Math.min(...second.map((q) => q[0])) > Math.max(...main.map((q) => q[0]));
    const result = { source: drawn(main), target: drawn(second), apart };
    p.setOverlays(true);
    return result;
  }, frame);
  check(covered.source >= 0.3, `the source is not drawn (${covered.source} of its joints over it)`);
  check(covered.target >= 0.3, `the target is not drawn (${covered.target} of its joints over it)`);
  check(covered.apart, 'the target does not stand beside the source');
  const shot = path.join(out, 'retarget_preview.png');
  await page.evaluate((f) => window.animkitPreview.besidePositions(0, f), frame);
  await page.screenshot({ path: shot });
  if (args.image) fs.copyFileSync(shot, path.resolve(args.image));
  check(errors.length === 0, `the page reported errors: ${errors.join('; ')}`);
  console.log(`retarget page: ${shown.frames.length} frames of ${clip.name} checked, worst ${worst}; screenshot ${shot}`);
  await checkHeights(context);
} finally {
  await browser.close();
}
finish();
