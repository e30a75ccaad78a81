// What the preview tests compare the page with: `animkit sample`'s local poses composed
// down the node tree of the glb `animkit convert` writes (world positions of the joints).
import fs from 'node:fs';

export function readGlbJson(file) {
  const b = fs.readFileSync(file);
  if (b.readUInt32LE(0) !== 0x46546c67) throw new Error(`${file}: not a glb`);
  const length = b.readUInt32LE(12);
  return JSON.parse(b.subarray(20, 20 + length).toString('utf8'));
}

const mat = {
  identity: () => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  // column-major 4x4 from translation, rotation (x, y, z, w) and scale
  fromTrs(t = [0, 0, 0], r = [0, 0, 0, 1], s = [1, 1, 1]) {
    const [x, y, z, w] = r;
    const m = [
      1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
      2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
      2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
      t[0], t[1], t[2], 1];
    for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) m[c * 4 + k] *= s[c];
    return m;
  },
  multiply(a, b) {
    const m = new Array(16).fill(0);
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) m[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
    return m;
  },
};

// The glb's nodes: parent of each, rest TRS, the joints (the skin's, in order).
export function nodeTree(gltf) {
  const parent = gltf.nodes.map(() => -1);
  gltf.nodes.forEach((n, i) => (n.children || []).forEach((c) => { parent[c] = i; }));
  const joints = gltf.skins && gltf.skins.length ? gltf.skins[0].joints : [];
  return { nodes: gltf.nodes, parent, joints };
}

// Every joint's world position (null where hidden) with local TRS from `pose` (node -> TRS, or
// null when the frame hides it) and the rest TRS elsewhere; model-space clips give their
// joints' poses relative to the root, as the page hangs them.
export function composeWorld(tree, pose, modelSpace) {
  const world = new Map();
  const hidden = new Set();
  const visit = (i) => {
    if (world.has(i)) return world.get(i);
    const n = tree.nodes[i];
    let local;
    if (pose.has(i)) {
      const p = pose.get(i);
      if (p === null) hidden.add(i);
      local = p ? mat.fromTrs(p.t, p.r, p.s) : mat.fromTrs(n.translation, n.rotation, [0, 0, 0]);
    } else {
      local = mat.fromTrs(n.translation, n.rotation, n.scale);
    }
    let parent = tree.parent[i];
    if (modelSpace && pose.has(i)) while (parent >= 0 && tree.parent[parent] >= 0) parent = tree.parent[parent];
    const m = parent >= 0 ? mat.multiply(visit(parent), local) : local;
    if (parent >= 0 && hidden.has(parent) && !(modelSpace && pose.has(i))) hidden.add(i);
    world.set(i, m);
    return m;
  };
  return tree.joints.map((j) => {
    const m = visit(j);
    return hidden.has(j) ? null : [m[12], m[13], m[14]];
  });
}

export function diagonal(points) {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const p of points) {
    if (!p) continue;
    for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[k]); hi[k] = Math.max(hi[k], p[k]); }
  }
  if (!(hi[0] >= lo[0])) return 0;
  return Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

