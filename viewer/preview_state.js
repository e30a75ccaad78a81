// The preview viewer's state: the page's data, what the scene holds, the promise the
// tests wait on, and the test hook (window.animkitPreview) over them.
// A part of the viewer: src/preview/preview_page.cpp (ViewerScript) says how the page joins them.

  var data = JSON.parse(document.getElementById('animkit-data').textContent);
  data.info = {};     // the file's `info --json`, unpacked at start (unpackText)
  var el = function (id) { return document.getElementById(id); };
  var UP = data.up === '-Y' ? new THREE.Vector3(0, -1, 0) : new THREE.Vector3(0, 1, 0);

  var state = {
    gltf: null,
    nodes: [],          // glTF node index -> Object3D
    root: null,         // the glTF scene's root node (animkit_root)
    joints: [],         // {name, node, object, parent (index into joints or -1), rest: {p, q, s}, parentObject}
    clips: [],          // {name, index, info (its index in data.info.clips), clip (AnimationClip; null until loadClip), loading, rate, frames, duration, loop, space, events, animated}
    clip: -1,           // the clip shown; -1: the rest pose
    action: null,
    time: 0,
    playing: false,
    speed: 1,
    size: 1,            // bounding-box diagonal of the model (rest pose, meshes, the first clip)
    boneLength: 0,      // the median length of the rest pose's bones: what joint markers are sized by
    box: new THREE.Box3(),
    cameraPaths: [],
    skinned: [],        // {node, mesh, primitive, object (SkinnedMesh)}
    hiddenMeshes: [],   // Object3Ds of the meshes the file marks hidden (shown by the checkbox)
    timings: {}         // milliseconds since navigation at each step of the start (the benchmark reads them)
  };
  function mark(step) { state.timings[step] = Math.round(performance.now()); }

  var resolveReady, rejectReady;
  var ready = new Promise(function (resolve, reject) { resolveReady = resolve; rejectReady = reject; });
  var renderer, scene, camera, controls, mixer, overlay, grid, axes, bones, dots, boneSticks = [];

  // ---- the test hook -------------------------------------------------------------------------
  window.animkitPreview = {
    ready: ready,
    error: null,
    clips: function () {
      return state.clips.map(function (c) {
        return { name: c.name, frames: c.frames, rate: c.rate, duration: c.duration, loop: c.loop, space: c.space,
                 events: c.events.map(function (e) { return { time: e.time, name: e.name }; }) };
      });
    },
    joints: function () {
      return state.joints.map(function (j) { return { name: j.name, parent: j.parent }; });
    },
    // A promise of the clip (index or name) loaded: the page parses a clip's animation when
    // it is first shown (the first clip before `ready`).
    loadClip: function (clip) {
      return loadClip(clipIndex(clip)).then(function () { return null; });
    },
    // Shows frame `frame` of a clip (index or name, loaded: loadClip; null or 'rest': the
    // rest pose) and returns every joint's world position, read from three.js's scene graph.
    worldPositions: function (clip, frame) {
      var index = clip === null || clip === 'rest' ? -1 : clipIndex(clip);
      if (index >= 0 && !state.clips[index].clip) throw new Error('clip ' + clip + ' is not loaded yet (loadClip)');
      if (index !== state.clip) selectClip(index);
      pause();
      showFrame(frame || 0);
      scene.updateMatrixWorld(true);
      var v = new THREE.Vector3();
      return state.joints.map(function (j) {
        j.object.getWorldPosition(v);
        return { name: j.name, position: [v.x, v.y, v.z] };
      });
    },
    // Shows the frame as worldPositions does and returns every skinned mesh's vertices in
    // world space, skinned on the CPU as three.js's shader does it (bindMatrixInverse x
    // sum of weight x boneMatrix x bindMatrix x position, then the mesh's world matrix).
    skinnedVertices: function (clip, frame) {
      this.worldPositions(clip, frame);
      return state.skinned.map(function (s) {
        var m = s.object, g = m.geometry;
        m.skeleton.update();
        var pos = g.attributes.position, index = g.attributes.skinIndex, weight = g.attributes.skinWeight;
        var index1 = m.material.onBeforeCompile === blendMoreInfluences ? g.attributes.joints_1 : null;
        var weight1 = index1 ? g.attributes.weights_1 : null;  // set 1, as the shader blends it
        var toWorld = new THREE.Matrix4().multiplyMatrices(m.matrixWorld, m.bindMatrixInverse);
        var bone = new THREE.Matrix4(), v = new THREE.Vector3(), sum = new THREE.Vector3(), t = new THREE.Vector3();
        var out = new Array(pos.count * 3);
        for (var i = 0; i < pos.count; i++) {
          v.fromBufferAttribute(pos, i).applyMatrix4(m.bindMatrix);
          sum.set(0, 0, 0);
          var js = [index.getX(i), index.getY(i), index.getZ(i), index.getW(i)];
          var ws = [weight.getX(i), weight.getY(i), weight.getZ(i), weight.getW(i)];
          if (index1) {
            js.push(index1.getX(i), index1.getY(i), index1.getZ(i), index1.getW(i));
            ws.push(weight1.getX(i), weight1.getY(i), weight1.getZ(i), weight1.getW(i));
          }
          for (var k = 0; k < js.length; k++) {
            if (!ws[k]) continue;
            bone.fromArray(m.skeleton.boneMatrices, js[k] * 16);
            sum.add(t.copy(v).applyMatrix4(bone).multiplyScalar(ws[k]));
          }
          sum.applyMatrix4(toWorld);
          out[i * 3] = sum.x; out[i * 3 + 1] = sum.y; out[i * 3 + 2] = sum.z;
        }
        return { node: s.node, mesh: s.mesh, primitive: s.primitive, positions: out };
      });
    },
    // Per skinned mesh: its base colour texture's [width, height], or null.
    skinnedTextures: function () {
      return state.skinned.map(function (s) {
        var map = s.object.material && s.object.material.map;
        return map && map.image ? [map.image.width, map.image.height] : null;
      });
    },
    // Shows (true) or hides the skeleton over the meshes, as the checkbox does.
    setSkeleton: function (visible) {
      el('show-skeleton').checked = overlay.visible = !!visible;
    },
    // The meshes the file marks hidden: per one, its name and whether it is shown now.
    hiddenMeshes: function () {
      return state.hiddenMeshes.map(function (o) { return { name: o.name, visible: o.visible }; });
    },
    // Shows (true) or hides the meshes the file marks hidden, as the checkbox does.
    setHiddenMeshes: function (visible) {
      el('show-hidden').checked = !!visible;
      state.hiddenMeshes.forEach(function (o) { o.visible = !!visible; });
    },
    cameraPositions: function () {
      return state.cameraPaths.map(function (p) { return p.points.map(function (v) { return [v.x, v.y, v.z]; }); });
    },
    // Hides (false) or shows the grid, the axes and the text over the view, for a picture of the model alone.
    setOverlays: function (visible) {
      grid.visible = axes.visible = visible && el('show-grid').checked;
      el('hud').style.visibility = visible ? '' : 'hidden';
    },
    render: function () { renderer.render(scene, camera); return renderer.domElement; },
    // Renders now and returns the canvas's [r, g, b, a] (0..255) where the world point [x, y, z] is drawn.
    colourAt: function (point) {
      renderer.render(scene, camera);
      var canvas = renderer.domElement;
      var v = new THREE.Vector3(point[0], point[1], point[2]).project(camera);
      var x = Math.min(canvas.width - 1, Math.max(0, Math.floor((v.x + 1) / 2 * canvas.width)));
      var y = Math.min(canvas.height - 1, Math.max(0, Math.floor((1 - v.y) / 2 * canvas.height)));
      var copy = document.createElement('canvas');
      copy.width = canvas.width;
      copy.height = canvas.height;
      var g = copy.getContext('2d');
      g.drawImage(canvas, 0, 0);
      return Array.from(g.getImageData(x, y, 1, 1).data);
    },
    // Turns the camera around the joints' centre as they are, at `factor` times its distance (< 1: closer).
    zoom: function (factor) {
      var centre = new THREE.Vector3(), v = new THREE.Vector3();
      state.joints.forEach(function (j) { centre.add(j.object.getWorldPosition(v)); });
      if (state.joints.length) centre.divideScalar(state.joints.length);
      camera.position.sub(controls.target).multiplyScalar(factor).add(centre);
      controls.target.copy(centre);
      controls.update();
      renderer.render(scene, camera);
    },
    modelSize: function () { return state.size; },
    timings: function () { return Object.assign({}, state.timings); }
  };

  // A clip's frame rate as the page shows it: the library's text of it (at most two decimals),
  // which the page data adds to each of info's clips.
  function rateText(infoClip) { return infoClip && typeof infoClip.rate_text === 'string' ? infoClip.rate_text : '\u2013'; }

  function clipIndex(clip) {
    if (typeof clip === 'number') {
      if (clip < 0 || clip >= state.clips.length) throw new Error('no clip ' + clip);
      return clip;
    }
    for (var i = 0; i < state.clips.length; i++) if (state.clips[i].name === clip) return i;
    throw new Error('no clip named ' + clip);
  }

  function fail(message) {
    window.animkitPreview.error = String(message);
    var box = el('message');
    box.textContent = 'This page cannot show the file: ' + message;
    box.hidden = false;
    rejectReady(new Error(String(message)));
  }

  // The bytes of a data block of the page: `length` bytes of gzip written 7 bits per
  // character (src/preview/preview_encode.hpp, Text7), decompressed; a promise of an ArrayBuffer.
  var ESCAPED = [0, 13, 60];  // NUL, CR, '<'
  function unpack(id, length) {
    var text = el(id).textContent;
    var bytes = new Uint8Array(length);
    var acc = 0, bits = 0, at = 0;
    var put = function (group) {
      acc = (acc << 7 | group) & 0x3fff;
      bits += 7;
      if (bits >= 8) {
        bits -= 8;
        if (at < length) bytes[at++] = (acc >> bits) & 0xff;
      }
    };
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      if (c < 0x80) {
        put(c);
      } else if (c >= 0x100 && c < 0x280) {
        put(ESCAPED[(c - 0x100) >> 7]);
        put((c - 0x100) & 0x7f);
      }  // anything else is not data (white space is ASCII: it cannot be in the block)
    }
    if (at !== length) return Promise.reject(new Error(id + ': ' + at + ' bytes of data, ' + length + ' expected'));
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).arrayBuffer();
  }

  function unpackText(id, length) {
    return unpack(id, length).then(function (buffer) { return new TextDecoder().decode(buffer); });
  }

  // The glb without its animations (the loader would parse every clip before calling
  // back): its JSON chunk rewritten, its binary chunk as it is. Returns {glb, animations}.
  function setAnimationsAside(buffer) {
    var view = new DataView(buffer);
    if (buffer.byteLength < 20 || view.getUint32(0, true) !== 0x46546c67) return { glb: buffer, animations: [] };
    var jsonLength = view.getUint32(12, true);
    var json = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 20, jsonLength)));
    var animations = json.animations || [];
    delete json.animations;
    var text = new TextEncoder().encode(JSON.stringify(json));
    var padded = (text.length + 3) & ~3;
    var rest = new Uint8Array(buffer, 20 + jsonLength);
    var out = new Uint8Array(20 + padded + rest.length);
    var outView = new DataView(out.buffer);
    outView.setUint32(0, 0x46546c67, true);
    outView.setUint32(4, 2, true);
    outView.setUint32(8, out.length, true);
    outView.setUint32(12, padded, true);
    outView.setUint32(16, 0x4e4f534a, true);  // JSON
    out.set(text, 20);
    out.fill(0x20, 20 + text.length, 20 + padded);
    out.set(rest, 20 + padded);
    return { glb: out.buffer, animations: animations };
  }

