// The preview page of a real-size moveset in headless Chromium: the page's bytes, and the
// time from navigation to `animkitPreview.ready` (the first clip shown), then to each of a
// few other clips loaded (parsed when first shown). The moveset is animkit_make_moveset's
// (101 clips x 229 joints), over Sora's skeleton when ../shared/fixtures/kh2/P_EX100.mdlx
// is there. Figures go to docs/preview.md.
//
// node bench/preview_page.mjs --cli build/release/tools/animkit/animkit
//      --make-moveset build/release/tools/make_moveset/animkit_make_moveset [--out DIR]
//      [--fixtures ../shared/fixtures] [--runs 3] [--chromium /usr/bin/chromium]
// playwright-core comes from $ANIMKIT_NODE_MODULES (make node-deps installs it).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = { out: path.join(os.tmpdir(), 'animkit-preview-bench'), fixtures: '../shared/fixtures', runs: '3' };
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!args.cli || !args['make-moveset']) {
  console.error('usage: node bench/preview_page.mjs --cli ANIMKIT --make-moveset MAKE_MOVESET [--out DIR] [--fixtures DIR] [--runs N]');
  process.exit(2);
}
const { chromium } = createRequire(path.join(path.resolve(process.env.ANIMKIT_NODE_MODULES || '.'), 'index.js'))('playwright-core');

const run = (exe, ...argv) => execFileSync(exe, argv, { encoding: 'utf8', maxBuffer: 1 << 30 });
const out = path.resolve(args.out);
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const sora = path.resolve(args.fixtures, 'kh2/P_EX100.mdlx');
const movesets = [{ name: 'generated skeleton', dir: path.join(out, 'moveset'), extra: [] }];
if (fs.existsSync(sora)) movesets.push({ name: "Sora's skeleton (P_EX100.mdlx)", dir: path.join(out, 'moveset-sora'), extra: ['--skeleton', sora] });
else console.log(`(${sora} is absent: the generated skeleton only)`);

const browser = await chromium.launch({
  executablePath: args.chromium || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
const results = [];
try {
  for (const m of movesets) {
    run(path.resolve(args['make-moveset']), m.dir, ...m.extra);
    const mset = path.join(m.dir, 'moveset.mset');
    const glb = path.join(m.dir, 'moveset.glb');
    const html = path.join(m.dir, 'moveset.html');
    run(args.cli, 'convert', mset, glb, ...m.extra);  // with Sora: his model, meshes and textures
    let started = Date.now();
    run(args.cli, 'preview', mset, '-o', html, ...m.extra);
    const writeSeconds = (Date.now() - started) / 1000;
    const ready = [], other = [], steps = [];
    for (let r = 0; r < Number(args.runs); r++) {
      const page = await context.newPage();
      started = Date.now();
      await page.goto(pathToFileURL(html).href);
      const error = await page.evaluate(() => window.animkitPreview.ready.then(() => null, (e) => String(e)));
      ready.push((Date.now() - started) / 1000);
      if (error) throw new Error(`${html}: ${error}`);
      steps.push(await page.evaluate(() => window.animkitPreview.timings()));
      // Three other clips, each parsed when first asked for (as choosing it in the page does).
      other.push(await page.evaluate(async () => {
        const p = window.animkitPreview, n = p.clips().length, times = [];
        for (const i of [1, Math.floor(n / 2), n - 1]) {
          const t = performance.now();
          await p.loadClip(i);
          p.worldPositions(i, 0);
          times.push((performance.now() - t) / 1000);
        }
        return Math.max(...times);
      }));
      await page.close();
    }
    const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    results.push({ moveset: m.name, glb_bytes: fs.statSync(glb).size, page_bytes: fs.statSync(html).size,
                   write_seconds: writeSeconds, ready_seconds: median(ready), ready_runs: ready,
                   other_clip_seconds: median(other), steps_ms: steps[steps.length - 1] });
  }
} finally {
  await browser.close();
}
for (const r of results) {
  console.log(`${r.moveset}: glb ${r.glb_bytes} bytes, page ${r.page_bytes} bytes (written in ${r.write_seconds.toFixed(1)} s), ` +
              `ready in ${r.ready_seconds.toFixed(2)} s (median of ${r.ready_runs.map((s) => s.toFixed(2)).join(', ')}), ` +
              `another clip in ${r.other_clip_seconds.toFixed(2)} s`);
  console.log(`  steps (ms since navigation): ${JSON.stringify(r.steps_ms)}`);
}
fs.writeFileSync(path.join(out, 'preview-bench.json'), JSON.stringify(results, null, 1) + '\n');
