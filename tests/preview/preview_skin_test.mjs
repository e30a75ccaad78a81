// Skinned, textured characters in the preview page, in headless Chromium (as
// preview_pages_test.mjs). A glb written by tests/tools/skinned_glb.py (three joints, 20
// vertices bound to one or two of them, a 2x2 PNG texture) and the real models
// (../shared/fixtures, skipped when absent or when animkit reads no mesh from them) get a
// page (`animkit preview FILE -o PAGE`). The vertices three.js draws
// (window.animkitPreview.skinnedVertices: the shader's skinning done on the CPU from the
// SkinnedMesh's bones) must equal, within 1e-4 x the model's size: at several frames the
// skinning of the layout (the synthetic glb) and `animkit sample FILE --skin` (the
// synthetic glb, Sora's model under a motion, its 6 vertices of more than 4 bones among
// them: the page's shader blends JOINTS_1/WEIGHTS_1); for a model alone, its bind pose (the
// positions of the glb the page embeds). The texture must
// have loaded, the skeleton checkbox and the K key must show and hide the skeleton, the
// page must make no request but file:, data: and blob: (its own textures), and stay within
// the size rule (1.5 MB + 1.4 x the glb). Sora's model with one mesh moved in its glb and
// written back over itself (`convert --template`) must draw that mesh moved and the others in
// place. Screenshots go to OUT (skeleton off and on).
//
// node preview_skin_test.mjs --cli ANIMKIT --out DIR [--chromium PATH] [--python PYTHON]
// Exit 77: skipped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { checker, loadChromium, parseArgs, launchChromium, openPreview } from './browser_harness.mjs';

const TOLERANCE = 1e-4;
const args = parseArgs('node preview_skin_test.mjs --cli ANIMKIT --out DIR [--chromium PATH] [--python PYTHON]',
                       ['cli', 'out']);
const { chromium, chromiumPath } = loadChromium(args);

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, '..', '..', '..', 'shared', 'fixtures');
const cli = path.resolve(args.cli);
const out = path.resolve(args.out);
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const { check, finish } = checker();
const run = (...argv) => execFileSync(cli, argv, { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });

// `animkit sample FILE --skin`: per clip {meshes: [{name, skinning, vertices}], frames:
// [f][m] -> [x, y, z] rows}, or null when this animkit cannot skin.
function animkitSkin(file, skeletonArgs = []) {
  let doc;
  try {
    doc = JSON.parse(run('sample', file, '--skin', ...skeletonArgs));
  } catch (e) {
    return null;
  }
  if (!doc.clips.every((c) => c.mesh_frames)) return null;
  return doc.clips.map((c) => ({
    name: c.name, meshes: c.meshes,
    frames: c.mesh_frames.map((frame) => frame.map((m) => Array.from({ length: m.length / 3 }, (_, k) => m.slice(3 * k, 3 * k + 3)))),
  }));
}

// The glb's JSON and a float accessor's rows (the test's own reader).
function readGlb(file) {
  const b = fs.readFileSync(file);
  const length = b.readUInt32LE(12);
  const json = JSON.parse(b.subarray(20, 20 + length).toString('utf8'));
  const bin = b.subarray(20 + length + 8);
  const rows = (index) => {
    const a = json.accessors[index], v = json.bufferViews[a.bufferView];
    const width = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 }[a.type], stride = v.byteStride || 4 * width;
    const start = (v.byteOffset || 0) + (a.byteOffset || 0);
    return Array.from({ length: a.count }, (_, k) => Array.from({ length: width }, (_, c) => bin.readFloatLE(start + k * stride + 4 * c)));
  };
  return { json, rows };
}

// The page's skinned meshes (first primitive of each glTF mesh: the others share its
// vertices) paired by name, in order, with sample --skin's skinned meshes.
function pairMeshes(got, glbJson, meshes) {
  const out = [];
  let k = 0;
  for (const g of got.filter((x) => x.primitive === 0)) {
    const name = glbJson.meshes[g.mesh].name;
    while (k < meshes.length && !(meshes[k].name === name && meshes[k].skinning === 'skinned')) k++;
    if (!check(k < meshes.length, `mesh ${name}: no skinned mesh of that name in animkit sample --skin`)) break;
    out.push([g, k++]);
  }
  return out;
}

// Moves mesh `index` of a glb (its POSITION rows, in place, min and max too) by `shift`
// along x; returns the file's meshes as rows by name before the move.
function moveMesh(file, index, shift) {
  const b = fs.readFileSync(file);
  const glb = readGlb(file), before = {};
  glb.json.meshes.forEach((m) => { before[m.name] = glb.rows(m.primitives[0].attributes.POSITION); });
  const a = glb.json.accessors[glb.json.meshes[index].primitives[0].attributes.POSITION], v = glb.json.bufferViews[a.bufferView];
  const start = 20 + b.readUInt32LE(12) + 8 + (v.byteOffset || 0) + (a.byteOffset || 0), stride = v.byteStride || 12;
  for (let k = 0; k < a.count; k++) b.writeFloatLE(b.readFloatLE(start + k * stride) + shift, start + k * stride);
  if (a.min && a.max) { a.min[0] += shift; a.max[0] += shift; }
  fs.writeFileSync(file, b);  // min and max stay in the JSON's bytes: the reader does not use them
  return { before, moved: glb.json.meshes[index].name };
}

function sizeOf(points) {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const p of points) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[k]); hi[k] = Math.max(hi[k], p[k]); }
  return Math.max(1e-9, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]));
}

// The page's vertices (flat arrays per SkinnedMesh, in glTF mesh order) against rows per mesh.
function compare(label, got, want, size) {
  if (!check(got.length === want.length, `${label}: the page skins ${got.length} meshes, expected ${want.length}`)) return 0;
  let worst = 0;
  got.forEach((g, m) => {
    const w = want[m];
    if (!check(g.positions.length === w.length * 3, `${label} mesh ${m}: ${g.positions.length / 3} vertices, expected ${w.length}`)) return;
    w.forEach((p, v) => {
      worst = Math.max(worst, Math.hypot(g.positions[3 * v] - p[0], g.positions[3 * v + 1] - p[1], g.positions[3 * v + 2] - p[2]));
    });
  });
  check(worst <= TOLERANCE * size, `${label}: a vertex is off by ${worst} (tolerance ${TOLERANCE} x ${size})`);
  return worst / size;
}

const browser = await launchChromium(chromium, chromiumPath);
const context = await browser.newContext({ viewport: { width: 900, height: 600 } });
const requests = [];
context.on('request', (r) => { if (!/^(file|data|blob):/.test(r.url())) requests.push(r.url()); });

async function openPage(file, name, skeletonArgs = []) {
  const page = path.join(out, `${name}.html`);
  run('preview', file, '-o', page, ...skeletonArgs);
  const glb = path.join(out, `${name}.page.glb`);  // what the page embeds
  run('convert', file, glb, ...skeletonArgs);
  const pageBytes = fs.statSync(page).size, glbBytes = fs.statSync(glb).size;
  check(pageBytes <= 1.5e6 + 1.4 * glbBytes, `${name}: the page has ${pageBytes} bytes, over 1.5 MB + 1.4 x ${glbBytes}`);
  const { page: tab, errors, failed: ready } = await openPreview(context, page);
  check(ready === null, `${name}: the page did not load: ${ready}`);
  return { tab, errors, pageBytes, glbBytes, glbPath: glb };
}

async function screenshots(tab, name, frame) {
  for (const skeleton of [false, true]) {
    await tab.evaluate(({ f, s }) => {
      const p = window.animkitPreview;
      p.skinnedVertices(p.clips().length ? 0 : 'rest', f);
      p.setSkeleton(s);
    }, { f: frame, s: skeleton });
    await tab.screenshot({ path: path.join(out, `${name}${skeleton ? '-skeleton' : ''}.png`) });
  }
}

const report = [];
try {
  // ---- the synthetic glb
  const python = args.python || 'python3';
  const glb = path.join(out, 'skinned.glb'), expectedPath = path.join(out, 'skinned.expected.json');
  execFileSync(python, [path.join(here, '..', 'tools', 'skinned_glb.py'), glb, expectedPath]);
  const expected = JSON.parse(fs.readFileSync(expectedPath, 'utf8'));
  const { tab, errors, pageBytes } = await openPage(glb, 'skinned');
  const size = sizeOf(expected.positions.rest);
  const texture = await tab.evaluate(() => window.animkitPreview.skinnedTextures());
  check(texture.length === 1 && texture[0] && texture[0][0] === 2 && texture[0][1] === 2,
        `skinned.glb: the texture did not load as a 2x2 image: ${JSON.stringify(texture)}`);
  let worst = 0;
  const ref = animkitSkin(glb);
  check(ref, 'skinned.glb: animkit sample --skin gave no mesh frames');
  for (const f of [0, 3, 5, 8]) {
    const got = await tab.evaluate((frame) => window.animkitPreview.skinnedVertices(0, frame), f);
    worst = Math.max(worst, compare(`skinned.glb frame ${f} (layout)`, got, [expected.positions[String(f)]], size));
    if (ref) worst = Math.max(worst, compare(`skinned.glb frame ${f} (animkit sample --skin)`, got, [ref[0].frames[f][0]], size));
  }
  // The skeleton: hidden over a skinned mesh at first; the checkbox and K toggle it.
  const toggles = await tab.evaluate(() => {
    const box = document.getElementById('show-skeleton');
    const states = [box.checked];
    window.dispatchEvent(new KeyboardEvent('keydown', { code: 'KeyK' }));
    states.push(box.checked);
    box.click();
    states.push(box.checked);
    return states;
  });
  check(JSON.stringify(toggles) === '[false,true,false]', `skinned.glb: skeleton checkbox states ${JSON.stringify(toggles)}`);
  await screenshots(tab, 'skinned', 8);
  check(errors.length === 0, `skinned.glb: errors in the page: ${errors.join('; ')}`);
  report.push({ file: 'skinned.glb', page_bytes: pageBytes, max_error_per_size: worst });
  console.log(`skinned.glb: 4 frames x 20 vertices, worst ${worst.toExponential(2)} x size`);
  await tab.close();

  // ---- the real models: alone (bind pose against the page's glb), Sora under a motion
  const real = [['kh2/P_EX100.mdlx', null, []], ['edf/airtortoise_missile.mdb', null, []],
                ['kh2/interpolated.motion', 'kh2/P_EX100.mdlx', [0, 40, 90, 150]]];
  for (const [rel, model, frames] of real) {
    const file = path.join(fixtures, rel);
    if (!fs.existsSync(file) || (model && !fs.existsSync(path.join(fixtures, model)))) {
      console.log(`${rel}: absent (${fixtures}), skipped`);
      continue;
    }
    const skeletonArgs = model ? ['--skeleton', path.join(fixtures, model)] : [];
    const name = rel.replace(/[/.]/g, '_');
    const page = await openPage(file, name, skeletonArgs);
    const rest = await page.tab.evaluate(() => window.animkitPreview.skinnedVertices('rest', 0));
    if (!rest.length) { console.log(`${rel}: animkit gives no skinned mesh yet, skipped`); await page.tab.close(); continue; }
    const glb = readGlb(page.glbPath);
    let w = 0, vertices = 0;
    if (!frames.length) {
      const want = rest.map((g) => glb.rows(glb.json.meshes[g.mesh].primitives[g.primitive].attributes.POSITION));
      w = compare(`${rel} bind pose`, rest, want, sizeOf(want.flat()));
      vertices = want.reduce((n, m) => n + m.length, 0);
    } else {
      const ref = animkitSkin(file, skeletonArgs);
      if (!check(ref, `${rel}: animkit sample --skin failed`)) { await page.tab.close(); continue; }
      const sizeReal = sizeOf(ref[0].frames[0].flat());
      let over = 0, overWorst = 0, overMoved = 0;  // the vertices of more than 4 bones (WEIGHTS_1)
      for (const f0 of frames) {
        const f = Math.min(f0, ref[0].frames.length - 1);
        const got = await page.tab.evaluate((frame) => window.animkitPreview.skinnedVertices(0, frame), f);
        const pairs = pairMeshes(got, glb.json, ref[0].meshes);
        w = Math.max(w, compare(`${rel} frame ${f}`, pairs.map((p) => p[0]), pairs.map((p) => ref[0].frames[f][p[1]]), sizeReal));
        vertices = pairs.reduce((n, p) => n + p[0].positions.length / 3, 0);
        over = 0;
        for (const [g, m] of pairs) {
          const a = glb.json.meshes[g.mesh].primitives[g.primitive].attributes;
          if (a.WEIGHTS_1 === undefined) continue;
          const bind = glb.rows(a.POSITION);
          glb.rows(a.WEIGHTS_1).forEach((row, v) => {
            if (!row.some((x) => x > 0)) return;
            over++;
            const p = ref[0].frames[f][m][v], q = g.positions.slice(3 * v, 3 * v + 3);
            overWorst = Math.max(overWorst, Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]));
            overMoved = Math.max(overMoved, Math.hypot(q[0] - bind[v][0], q[1] - bind[v][1], q[2] - bind[v][2]));
          });
        }
      }
      if (model === 'kh2/P_EX100.mdlx') {
        check(over === 6, `${rel}: ${over} vertices of more than 4 bones (WEIGHTS_1) in the page's glb, expected 6`);
        check(overMoved > 1e-3 * sizeReal, `${rel}: the vertices of more than 4 bones never leave the bind pose`);
        check(overWorst <= TOLERANCE * sizeReal, `${rel}: a vertex of more than 4 bones is off by ${overWorst}`);
        console.log(`${rel}: its ${over} vertices of more than 4 bones drawn within ${overWorst.toExponential(2)} of sample --skin`);
      }
    }
    console.log(`${rel}: ${rest.length} skinned meshes, ${vertices} vertices, frames ${frames.length ? frames : 'bind'}, ` +
                `worst ${w.toExponential(2)} x size; page ${page.pageBytes} bytes (glb ${page.glbBytes})`);
    report.push({ file: rel, model, page_bytes: page.pageBytes, glb_bytes: page.glbBytes, vertices, max_error_per_size: w });
    await screenshots(page.tab, name, frames.length ? frames[1] : 0);
    check(page.errors.length === 0, `${rel}: errors in the page: ${page.errors.join('; ')}`);
    await page.tab.close();
  }

  // ---- a real model edited and written back over itself (`animkit convert --template`):
  // the page of the written file draws the moved mesh moved and every other one in place.
  // (The EDF model's meshes are rigid: the page's skinned vertices do not cover them.)
  for (const rel of ['kh2/P_EX100.mdlx']) {
    const file = path.join(fixtures, rel);
    if (!fs.existsSync(file)) { console.log(`${rel} edited: absent (${fixtures}), skipped`); continue; }
    const name = rel.replace(/[/.]/g, '_') + '_edited', source = path.join(out, `${name}.source.glb`);
    run('convert', file, source);
    const first = readGlb(source), size = sizeOf(first.rows(first.json.meshes[0].primitives[0].attributes.POSITION));
    const shift = 0.25 * size, { before, moved } = moveMesh(source, 0, shift);
    const written = path.join(out, name + path.extname(rel));
    run('convert', source, written, '--template', file);
    const page = await openPage(written, name);
    const rest = await page.tab.evaluate(() => window.animkitPreview.skinnedVertices('rest', 0));
    const glb = readGlb(page.glbPath);
    const names = rest.map((g) => glb.json.meshes[g.mesh].name);
    check(names.includes(moved), `${rel} edited: the page has no mesh ${moved}`);
    const tolerance = 1e-3 * size;
    let w = 0;
    rest.forEach((g, m) => {
      const want = before[names[m]] || [];
      if (names[m] !== moved) { w = Math.max(w, compare(`${rel} edited: ${names[m]} (kept)`, [g], [want], 10 * size)); return; }
      // The moved mesh was rebuilt: its vertices may be split and ordered anew (packets, strips).
      const got = Array.from({ length: g.positions.length / 3 }, (_, v) => g.positions.slice(3 * v, 3 * v + 3));
      const target = want.map((p) => [p[0] + shift, p[1], p[2]]);
      const far = (a, b) => Math.max(...a.map((p) => Math.min(...b.map((q) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2])))));
      const off = Math.max(far(got, target), far(target, got));
      check(off <= tolerance, `${rel} edited: ${moved} drawn ${off} away from where the edit put it (tolerance ${tolerance})`);
      w = Math.max(w, off / size);
    });
    console.log(`${rel} edited: ${moved} moved by ${shift}, ${rest.length} meshes drawn as written, worst ${w.toExponential(2)} x size`);
    await screenshots(page.tab, name, 0);
    check(page.errors.length === 0, `${rel} edited: errors in the page: ${page.errors.join('; ')}`);
    await page.tab.close();
  }

  // ---- a real model with a shadow model (../shared/real/kh2, skipped when absent): its
  // shadow mesh (extras.animkit.metadata.hidden) starts hidden; the checkbox shows it.
  const shadowFile = path.resolve(here, '..', '..', '..', 'shared', 'real', 'kh2', 'W_EX010_M0.mdlx');
  if (!fs.existsSync(shadowFile)) {
    console.log(`W_EX010_M0.mdlx: absent (${path.dirname(shadowFile)}), skipped`);
  } else {
    const page = await openPage(shadowFile, 'W_EX010_M0');
    const states = await page.tab.evaluate(() => {
      const p = window.animkitPreview, label = document.getElementById('show-hidden-label');
      const before = p.hiddenMeshes();
      document.getElementById('show-hidden').click();
      const after = p.hiddenMeshes();
      return { label: !label.hidden, before, after };
    });
    check(states.label, 'W_EX010_M0.mdlx: no "hidden meshes" checkbox');
    check(states.before.length === 1 && !states.before[0].visible,
          `W_EX010_M0.mdlx: hidden meshes at start ${JSON.stringify(states.before)}, expected the shadow, hidden`);
    check(states.after.length === 1 && states.after[0].visible,
          `W_EX010_M0.mdlx: the checkbox did not show the shadow: ${JSON.stringify(states.after)}`);
    check(page.errors.length === 0, `W_EX010_M0.mdlx: errors in the page: ${page.errors.join('; ')}`);
    console.log(`W_EX010_M0.mdlx: the shadow mesh starts hidden, the checkbox shows it`);
    await page.tab.close();
  }
} finally {
  await browser.close();
}
check(requests.length === 0, `requests that are not file:, data: or blob:: ${requests.join(', ')}`);
fs.writeFileSync(path.join(out, 'preview-skin-report.json'), JSON.stringify(report, null, 1) + '\n');
finish();
