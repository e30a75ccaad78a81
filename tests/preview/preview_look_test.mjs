// What the preview page shows a person, in headless Chromium (as preview_pages_test.mjs), on a
// glb this test writes (flat quads facing up, three clips with events, an odd frame rate):
// - Colour: a texel of a surface facing up is drawn its texture's own colour (the page lights
//   such a surface with 1 in all and encodes its output as sRGB): each quad's rendered centre
//   within COLOUR_TOLERANCE levels per channel of its texel, of its linear base colour factor
//   and of its linear vertex colour, each encoded to sRGB.
// - `--clip NAME` (the second and the third clip): the panel marks that clip's row, lists
//   that clip's events (`animkit info --json`'s), and the timeline has its events; on the page
//   of every clip, choosing a clip does the same.
// - The timeline's event labels: every label lies within the timeline and overlaps no other,
//   at 1280 x 720, 800 x 500 (the tests' size) and a narrow 560 x 500 window.
// - The frame rate (48.89228439331055 in the file) reads "48.89 fps" in the frame line and the
//   panel.
// Screenshots go to OUT.
//
// node preview_look_test.mjs --cli ANIMKIT --out DIR [--chromium PATH]
// playwright-core comes from $ANIMKIT_NODE_MODULES. Exit 77: skipped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

import { checker, loadChromium, parseArgs, launchChromium, openPreview } from './browser_harness.mjs';

// Levels of 255 per channel: the quads' specular light (roughness 1, 4 % reflectance: about
// 0.004 in linear light, 5 levels on the dark texel) and rounding. Output left linear (and
// the brighter lights before) drew the skin texel off by 53 and the dark one by 38.
const COLOUR_TOLERANCE = 6;
const RATE = 48.89228439331055;

const args = parseArgs('node preview_look_test.mjs --cli ANIMKIT --out DIR [--chromium PATH]', ['cli', 'out']);
const { chromium, chromiumPath } = loadChromium(args);
const { check, finish } = checker();
const cli = path.resolve(args.cli);
const out = path.resolve(args.out);
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const run = (...argv) => execFileSync(cli, argv, { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });

// ---- the glb -------------------------------------------------------------------------------------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// A 4 x 4 RGB PNG of one colour.
function png(rgb) {
  const chunk = (kind, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(kind, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(4, 0);
  header.writeUInt32BE(4, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: 4 }, () => Buffer.from([0, ...rgb, ...rgb, ...rgb, ...rgb])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header),
                        chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const toSrgb = (linear) => Math.round(255 * (linear <= 0.0031308 ? linear * 12.92 : 1.055 * Math.pow(linear, 1 / 2.4) - 0.055));

// The quads, side by side along x at y = 0, facing up; each with what it should be drawn.
const QUADS = [
  { name: 'skin', texel: [186, 113, 78] },
  { name: 'blond', texel: [236, 206, 127] },
  { name: 'dark hair', texel: [52, 33, 24] },
  { name: 'factor', factor: [0.2, 0.5, 0.05] },
  { name: 'vertex colour', vertex: [0.6, 0.3, 0.1] },
];
QUADS.forEach((q, i) => {
  q.centre = [(i - 2) * 2.5, 0, 0];
  q.want = q.texel || (q.factor || q.vertex).map(toSrgb);
});

// Three clips moving a bone, each with its own events (long labels, one at the clip's end).
const CLIPS = [
  { name: 'first', events: [[0, 'first: start'], [0.3, 'first: step']] },
  { name: 'second', events: [[0.1, 'second: swing'], [0.5, 'second: an event with a long name'],
                             [0.95, 'second: the last event of the clip, with a long name at its very end']] },
  { name: 'third', events: [[0, 'third: begin, a label that is long too'], [0.02, 'third: close'], [0.04, 'third: closer'],
                            [0.06, 'third: closest'], [0.5, 'third: middle'], [1, 'third: the end of the clip, a long label']] },
];

function writeGlb(file) {
  const bin = [];
  let length = 0;
  const json = { asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0] }], nodes: [], meshes: [], materials: [],
                 textures: [], images: [], samplers: [{ magFilter: 9728, minFilter: 9728 }], accessors: [], bufferViews: [],
                 animations: [], buffers: [] };
  const view = (bytes) => {
    json.bufferViews.push({ buffer: 0, byteOffset: length, byteLength: bytes.length });
    const padded = Buffer.concat([bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4)]);
    bin.push(padded);
    length += padded.length;
    return json.bufferViews.length - 1;
  };
  const floats = (rows, type, minmax) => {
    const flat = rows.flat();
    const bytes = Buffer.from(new Float32Array(flat).buffer);
    const accessor = { bufferView: view(bytes), componentType: 5126, count: rows.length, type };
    if (minmax) {
      const width = rows[0].length || 1;
      accessor.min = Array.from({ length: width }, (_, k) => Math.min(...rows.map((r) => (Array.isArray(r) ? r[k] : r))));
      accessor.max = Array.from({ length: width }, (_, k) => Math.max(...rows.map((r) => (Array.isArray(r) ? r[k] : r))));
    }
    json.accessors.push(accessor);
    return json.accessors.length - 1;
  };
  json.nodes.push({ name: 'root', children: [1] });
  json.nodes.push({ name: 'bone', translation: [0, 1, 0] });
  const indices = (() => {
    json.accessors.push({ bufferView: view(Buffer.from(new Uint16Array([0, 2, 1, 0, 3, 2]).buffer)), componentType: 5123,
                          count: 6, type: 'SCALAR' });
    return json.accessors.length - 1;
  })();
  QUADS.forEach((q) => {
    const [x, y, z] = q.centre;
    const corners = [[x - 1, y, z - 1], [x + 1, y, z - 1], [x + 1, y, z + 1], [x - 1, y, z + 1]];
    const attributes = { POSITION: floats(corners, 'VEC3', true), NORMAL: floats(corners.map(() => [0, 1, 0]), 'VEC3'),
                         TEXCOORD_0: floats([[0, 0], [1, 0], [1, 1], [0, 1]], 'VEC2') };
    if (q.vertex) attributes.COLOR_0 = floats(corners.map(() => [...q.vertex, 1]), 'VEC4');
    const pbr = { metallicFactor: 0, roughnessFactor: 1, baseColorFactor: [...(q.factor || [1, 1, 1]), 1] };
    if (q.texel) {
      json.images.push({ name: q.name, mimeType: 'image/png', bufferView: view(png(q.texel)) });
      json.textures.push({ source: json.images.length - 1, sampler: 0 });
      pbr.baseColorTexture = { index: json.textures.length - 1 };
    }
    json.materials.push({ name: q.name, pbrMetallicRoughness: pbr });
    json.meshes.push({ name: q.name, primitives: [{ attributes, indices, material: json.materials.length - 1 }] });
    json.nodes.push({ name: q.name, mesh: json.meshes.length - 1 });
    json.nodes[0].children.push(json.nodes.length - 1);
  });
  CLIPS.forEach((c) => {
    const times = floats([0, 1], 'SCALAR', true);
    const moves = floats([[0, 1, 0], [0.5, 1, 0]], 'VEC3');
    json.animations.push({ name: c.name, samplers: [{ input: times, output: moves, interpolation: 'LINEAR' }],
                           channels: [{ sampler: 0, target: { node: 1, path: 'translation' } }],
                           extras: { animkit: { frame_rate: RATE, duration: 1,
                                                events: c.events.map(([time, name]) => ({ time, name, params: [] })) } } });
  });
  const body = Buffer.concat(bin);
  json.buffers.push({ byteLength: body.length });
  let text = Buffer.from(JSON.stringify(json));
  text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
  const head = Buffer.alloc(20);
  head.writeUInt32LE(0x46546c67, 0);
  head.writeUInt32LE(2, 4);
  head.writeUInt32LE(12 + 8 + text.length + 8 + body.length, 8);
  head.writeUInt32LE(text.length, 12);
  head.writeUInt32LE(0x4e4f534a, 16);
  const binHead = Buffer.alloc(8);
  binHead.writeUInt32LE(body.length, 0);
  binHead.writeUInt32LE(0x004e4942, 4);
  fs.writeFileSync(file, Buffer.concat([head, text, binHead, body]));
}

const glb = path.join(out, 'look.glb');
writeGlb(glb);
const info = JSON.parse(run('info', '--json', glb));
check(JSON.stringify(info.clips.map((c) => c.name)) === JSON.stringify(CLIPS.map((c) => c.name)),
      `animkit info lists the clips ${info.clips.map((c) => c.name)}`);
const pages = { all: path.join(out, 'look.html') };
run('preview', glb, '-o', pages.all);
for (const c of ['second', 'third']) {
  pages[c] = path.join(out, `look-${c}.html`);
  run('preview', glb, '--clip', c, '-o', pages[c]);
}

// ---- in the browser ------------------------------------------------------------------------------
// What the panel, the timeline and the frame line show.
function shownState(page) {
  return page.evaluate(() => {
    const rect = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
    const current = Array.from(document.querySelectorAll('#panel tr.clip.current td.name')).map((td) => td.textContent);
    let events = [], heading = '';
    document.querySelectorAll('#panel h2').forEach((h) => {
      if (!/^Events/.test(h.textContent)) return;
      heading = h.textContent;
      events = Array.from(h.nextElementSibling.querySelectorAll('tr')).slice(1).map((tr) => tr.children[1].textContent);
    });
    return { current, heading, events, frameLine: document.getElementById('frame-label').textContent,
             rates: Array.from(document.querySelectorAll('#panel table.clips tr.clip')).map((tr) => tr.children[2].textContent),
             ticks: Array.from(document.querySelectorAll('#markers .tick')).map((t) => t.title),
             labels: Array.from(document.querySelectorAll('#markers .marker')).map((m) => ({ text: m.textContent, box: rect(m) })),
             timeline: rect(document.getElementById('timeline')) };
  });
}

// The clip `name` is the one shown: in the panel's clip table, its events, the timeline.
function checkClipShown(label, shown, name) {
  const want = info.events.filter((e) => e.clip === name).map((e) => e.name);
  check(JSON.stringify(shown.current) === JSON.stringify([name]), `${label}: the panel marks ${JSON.stringify(shown.current)}, not ${name}`);
  check(shown.heading === `Events of ${name}`, `${label}: the panel's events are headed "${shown.heading}"`);
  check(JSON.stringify(shown.events) === JSON.stringify(want), `${label}: the panel lists the events ${JSON.stringify(shown.events)}, ${name} has ${JSON.stringify(want)}`);
  check(shown.ticks.length === want.length && shown.ticks.every((t, i) => t.startsWith(want[i] + ' at ')),
        `${label}: the timeline's ticks are ${JSON.stringify(shown.ticks)}`);
}

// Every label within the timeline, none over another; at least one shown.
function checkLabels(label, shown) {
  const t = shown.timeline, slack = 0.5;
  check(shown.labels.length > 0, `${label}: no event label shown`);
  shown.labels.forEach((l) => {
    const b = l.box;
    check(b.left >= t.left - slack && b.right <= t.right + slack && b.top >= t.top - slack && b.bottom <= t.bottom + slack,
          `${label}: the label "${l.text}" (${b.left}..${b.right} x ${b.top}..${b.bottom}) leaves the timeline (${t.left}..${t.right} x ${t.top}..${t.bottom})`);
  });
  const boxes = shown.labels.map((l) => l.box);
  const overlaps = boxes.filter((a, i) => boxes.some((b, k) => k > i && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom));
  check(overlaps.length === 0, `${label}: ${overlaps.length} event labels overlap another`);
}

const browser = await launchChromium(chromium, chromiumPath);
try {
  // ---- colour --------------------------------------------------------------------------------
  {
    const context = await browser.newContext({ viewport: { width: 800, height: 500 } });
    const { page, errors, failed } = await openPreview(context, pages.all);
    if (check(failed === null, `the page did not load: ${failed}`)) {
      await page.screenshot({ path: path.join(out, 'look.png') });
      const drawn = await page.evaluate((points) => {
        const p = window.animkitPreview;
        p.setOverlays(false);
        p.setSkeleton(false);
        const colours = points.map((x) => p.colourAt(x));
        p.setOverlays(true);
        return colours;
      }, QUADS.map((q) => q.centre));
      QUADS.forEach((q, i) => {
        const got = drawn[i].slice(0, 3);
        const off = Math.max(...got.map((v, k) => Math.abs(v - q.want[k])));
        console.log(`${q.name}: drawn ${got}, its colour ${q.want} (off by ${off})`);
        check(off <= COLOUR_TOLERANCE, `the ${q.name} quad is drawn (${got}), its colour is (${q.want}): off by ${off}, over ${COLOUR_TOLERANCE}`);
      });
      // The frame rate, readable.
      const shown = await shownState(page);
      check(/ 48\.89 fps$/.test(shown.frameLine), `the frame line reads "${shown.frameLine}"`);
      check(shown.rates.every((r) => r === '48.89'), `the panel's fps column reads ${shown.rates}`);
      // Choosing a clip on the page of every clip: the panel follows.
      for (const [i, name] of [[1, 'second'], [2, 'third'], [0, 'first']]) {
        await page.selectOption('#clip-select', String(i));
        await page.waitForFunction((k) => document.getElementById('clip-select').value === String(k), i);
        checkClipShown(`the page of every clip, ${name} chosen`, await shownState(page), name);
      }
    }
    check(errors.length === 0, `errors in the page: ${errors.join('; ')}`);
    await context.close();
  }

  // ---- --clip and the timeline, at three window sizes -------------------------------------------
  for (const [width, height] of [[1280, 720], [800, 500], [560, 500]]) {
    const context = await browser.newContext({ viewport: { width, height } });
    for (const name of ['second', 'third']) {
      const label = `--clip ${name} at ${width} x ${height}`;
      const { page, errors, failed } = await openPreview(context, pages[name]);
      if (check(failed === null, `${label}: the page did not load: ${failed}`)) {
        const shown = await shownState(page);
        checkClipShown(label, shown, name);
        checkLabels(label, shown);
        check(/ 48\.89 fps$/.test(shown.frameLine), `${label}: the frame line reads "${shown.frameLine}"`);
        await page.screenshot({ path: path.join(out, `look-${name}-${width}.png`) });
      }
      check(errors.length === 0, `${label}: errors in the page: ${errors.join('; ')}`);
      await page.close();
    }
    await context.close();
  }
} finally {
  await browser.close();
}
finish();
