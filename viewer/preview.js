// The preview page's viewer: loads the embedded glb with three.js's GLTFLoader, plays its
// clips, draws the skeleton, and exposes window.animkitPreview for the tests
// (docs/preview.md). Classic script: three.js is the global THREE.
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('animkit-data').textContent);
  var el = function (id) { return document.getElementById(id); };
  var UP = data.up === '-Y' ? new THREE.Vector3(0, -1, 0) : new THREE.Vector3(0, 1, 0);

  var state = {
    gltf: null,
    nodes: [],          // glTF node index -> Object3D
    root: null,         // the glTF scene's root node (animkit_root)
    joints: [],         // {name, node, object, parent (index into joints or -1), rest: {p, q, s}, parentObject}
    clips: [],          // {name, index, clip (AnimationClip), rate, frames, duration, loop, space, events, animated}
    clip: -1,           // the clip shown; -1: the rest pose
    action: null,
    time: 0,
    playing: false,
    speed: 1,
    size: 1,            // bounding-box diagonal of the model
    box: new THREE.Box3(),
    cameraPaths: []
  };

  var resolveReady, rejectReady;
  var ready = new Promise(function (resolve, reject) { resolveReady = resolve; rejectReady = reject; });
  var renderer, scene, camera, controls, mixer, overlay, grid, axes, bones, jointDots = [], boneSticks = [];
  var dotMaterial = new THREE.MeshBasicMaterial({ color: 0xfff1c9, depthTest: false, transparent: true });
  var hoverMaterial = new THREE.MeshBasicMaterial({ color: 0xff5a36, depthTest: false, transparent: true });

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
    // Shows frame `frame` of a clip (index or name; null or 'rest': the rest pose) and
    // returns every joint's world position, read from three.js's scene graph.
    worldPositions: function (clip, frame) {
      var index = clip === null || clip === 'rest' ? -1 : clipIndex(clip);
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
    cameraPositions: function () {
      return state.cameraPaths.map(function (p) { return p.points.map(function (v) { return [v.x, v.y, v.z]; }); });
    },
    // Hides (false) or shows the grid, the axes and the text over the view, for a picture of the model alone.
    setOverlays: function (visible) {
      grid.visible = axes.visible = visible && el('show-grid').checked;
      el('hud').style.visibility = visible ? '' : 'hidden';
    },
    render: function () { renderer.render(scene, camera); return renderer.domElement; },
    modelSize: function () { return state.size; }
  };

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

  function base64ToArrayBuffer(text) {
    var binary = atob(text);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }

  // ---- set-up ----------------------------------------------------------------------------------
  function start() {
    var view = el('view');
    try {
      renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    } catch (e) {
      fail('WebGL is not available (' + e.message + ')');
      return;
    }
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    renderer.setClearColor(0x1d2128);
    view.appendChild(renderer.domElement);
    scene = new THREE.Scene();
    camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
    camera.up.copy(UP);
    var sky = new THREE.HemisphereLight(0xffffff, 0x404050, 0.9);
    sky.position.copy(UP);  // the sky above, as the source's up axis has it
    scene.add(sky);
    var sun = new THREE.DirectionalLight(0xffffff, 0.6);
    sun.position.set(1, 0, 1).addScaledVector(UP, 2);
    scene.add(sun);
    overlay = new THREE.Group();
    overlay.renderOrder = 10;
    scene.add(overlay);
    window.addEventListener('resize', resize);
    if (window.ResizeObserver) new ResizeObserver(resize).observe(view);
    resize();
    buildPanel();
    var loader = new THREE.GLTFLoader();
    loader.parse(base64ToArrayBuffer(data.glb), '', loaded, function (e) { fail(e && e.message ? e.message : e); });
  }

  function resize() {
    var view = el('view');
    var w = Math.max(1, view.clientWidth), h = Math.max(1, view.clientHeight);
    renderer.setSize(w, h);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  }

  function loaded(gltf) {
    state.gltf = gltf;
    gltf.parser.getDependencies('node').then(function (nodes) {
      try {
        setUp(gltf, nodes);
        resolveReady(window.animkitPreview);
      } catch (e) {
        fail(e.message);
      }
    }, function (e) { fail(e.message); });
  }

  function setUp(gltf, nodes) {
    var json = gltf.parser.json;
    state.nodes = nodes;
    scene.add(gltf.scene);
    state.root = nodes[json.scenes[json.scene || 0].nodes[0]];
    // three.js binds animation tracks by node name, and a game's names need not be unique
    // (nor survive its name sanitizing): every node gets a unique name and every track the
    // node its glTF channel names. The loader makes one track per channel, in order.
    nodes.forEach(function (n, i) { n.name = 'animkit_node_' + i; });
    (json.animations || []).forEach(function (a, k) {
      var tracks = gltf.animations[k].tracks;
      if (tracks.length !== a.channels.length) throw new Error('animation ' + k + ': tracks do not match channels');
      a.channels.forEach(function (ch, c) {
        var property = tracks[c].name.slice(tracks[c].name.lastIndexOf('.') + 1);
        tracks[c].name = 'animkit_node_' + ch.target.node + '.' + property;
      });
    });

    // Joints: the skin's (animkit writes one over every joint), in the file's order.
    var jointNodes = json.skins && json.skins.length ? json.skins[0].joints : [];
    var byObject = new Map();
    jointNodes.forEach(function (n) {
      var object = nodes[n];
      byObject.set(object, state.joints.length);
      state.joints.push({ name: json.nodes[n].name !== undefined ? json.nodes[n].name : 'node_' + n, node: n,
                          object: object, parent: -1, parentObject: object.parent,
                          rest: { p: object.position.clone(), q: object.quaternion.clone(), s: object.scale.clone() } });
    });
    state.joints.forEach(function (j) {
      for (var p = j.object.parent; p; p = p.parent) {
        if (byObject.has(p)) { j.parent = byObject.get(p); break; }
      }
    });

    mixer = new THREE.AnimationMixer(gltf.scene);
    (json.animations || []).forEach(function (a, k) {
      var extras = (a.extras && a.extras.animkit) || {};
      var clip = gltf.animations[k];
      var rate = extras.frame_rate > 0 ? extras.frame_rate : 30;
      var duration = extras.duration !== undefined ? extras.duration : clip.duration;
      var frames = extras.frame_count > 0 ? extras.frame_count : Math.round(duration * rate) + 1;
      var animated = {};
      a.channels.forEach(function (ch) { animated[ch.target.node] = true; });
      state.clips.push({ name: a.name !== undefined ? a.name : 'animation_' + k, index: k, clip: clip, rate: rate,
                         frames: frames, duration: duration, loop: !!extras.loop, space: extras.space || 'local',
                         events: extras.events || [], placeholder: !!extras.placeholder, animated: animated });
    });

    buildOverlay(json);
    measure();
    frameCamera();
    buildControls();
    buildPanel();
    var first = state.clips.length ? 0 : -1;
    if (data.clip) first = clipIndex(data.clip);
    selectClip(first);
    showFrame(0);
    el('loop').checked = first >= 0 && state.clips[first].loop;
    renderer.domElement.addEventListener('pointermove', hover);
    renderer.domElement.addEventListener('pointerleave', function () { el('tooltip').hidden = true; });
    window.addEventListener('keydown', key);
    requestAnimationFrame(tick);
  }

  // Bones as lines from each joint to its parent, over translucent sticks that give them
  // some body; joints as dots (bigger when there are few). Drawn over meshes. Cameras as a
  // small pyramid, and the path their clip moves them along as a tube.
  function buildOverlay(json) {
    var pairs = state.joints.filter(function (j) { return j.parent >= 0; }).length;
    var geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(Math.max(1, pairs) * 6), 3));
    bones = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: 0xffb347, depthTest: false, transparent: true }));
    bones.frustumCulled = false;
    bones.renderOrder = 12;
    overlay.add(bones);
    var stickGeometry = new THREE.CylinderBufferGeometry(0.35, 1, 1, 8, 1).translate(0, 0.5, 0);
    var stickMaterial = new THREE.MeshBasicMaterial({ color: 0xc9822a, depthTest: false, transparent: true, opacity: 0.55 });
    var dotGeometry = new THREE.SphereBufferGeometry(1, 12, 8);
    state.joints.forEach(function (j) {
      var dot = new THREE.Mesh(dotGeometry, dotMaterial);
      dot.renderOrder = 13;
      overlay.add(dot);
      jointDots.push(dot);
      if (j.parent < 0) return;
      var stick = new THREE.Mesh(stickGeometry, stickMaterial);
      stick.renderOrder = 11;
      stick.frustumCulled = false;
      overlay.add(stick);
      boneSticks.push({ joint: j, mesh: stick });
    });
    json.nodes.forEach(function (n, i) {
      if (n.camera === undefined) return;
      var path = new THREE.Mesh(new THREE.BufferGeometry(), new THREE.MeshBasicMaterial({ color: 0x6fc3ff }));
      path.frustumCulled = false;
      overlay.add(path);
      var pyramid = new THREE.Mesh(new THREE.ConeBufferGeometry(0.6, 1, 4).rotateX(Math.PI / 2).translate(0, 0, -0.5),
                                   new THREE.MeshBasicMaterial({ color: 0x6fc3ff, wireframe: false, transparent: true, opacity: 0.8 }));
      pyramid.userData.overlay = true;  // not part of the model: left out of its box
      state.nodes[i].add(pyramid);
      state.cameraPaths.push({ node: i, object: state.nodes[i], path: path, pyramid: pyramid, points: [] });
    });
  }

  // The dots' radius: 0.8 % of the model's size with many joints, up to 3 % with few
  // (1.2 % over meshes).
  function dotRadius() {
    if (state.hasMeshes) return state.size * 0.012;  // leave the meshes visible
    return state.size * Math.min(0.03, Math.max(0.008, 0.07 / Math.sqrt(Math.max(1, state.joints.length))));
  }

  function updateOverlay() {
    scene.updateMatrixWorld(true);
    var positions = bones.geometry.attributes.position;
    var a = new THREE.Vector3(), b = new THREE.Vector3(), k = 0;
    var radius = dotRadius();
    state.joints.forEach(function (j, i) {
      j.object.getWorldPosition(a);
      jointDots[i].position.copy(a);
      jointDots[i].scale.setScalar(radius);
      if (j.parent < 0) return;
      state.joints[j.parent].object.getWorldPosition(b);
      positions.setXYZ(k++, b.x, b.y, b.z);
      positions.setXYZ(k++, a.x, a.y, a.z);
    });
    positions.needsUpdate = true;
    var from = new THREE.Vector3(), to = new THREE.Vector3(), dir = new THREE.Vector3(), axis = new THREE.Vector3(0, 1, 0);
    boneSticks.forEach(function (s) {
      state.joints[s.joint.parent].object.getWorldPosition(from);
      s.joint.object.getWorldPosition(to);
      var length = dir.subVectors(to, from).length();
      s.mesh.visible = length > 1e-9 * state.size;
      if (!s.mesh.visible) return;
      s.mesh.position.copy(from);
      s.mesh.quaternion.setFromUnitVectors(axis, dir.divideScalar(length));
      s.mesh.scale.set(radius * 0.45, length, radius * 0.45);
    });
    overlay.updateMatrixWorld(true);
  }

  // The box over every joint, mesh and camera at (up to 120 of) every clip's frames: the
  // view is framed on it, the grid laid under it, the dots sized by it.
  function measure() {
    var box = new THREE.Box3(), v = new THREE.Vector3();
    var visit = function () {
      scene.updateMatrixWorld(true);
      state.joints.forEach(function (j) { box.expandByPoint(j.object.getWorldPosition(v)); });
      state.gltf.scene.traverse(function (o) {
        if (o.isMesh && o.geometry && !o.userData.overlay) {
          state.hasMeshes = true;
          if (!o.geometry.boundingBox) o.geometry.computeBoundingBox();
          box.union(o.geometry.boundingBox.clone().applyMatrix4(o.matrixWorld));
        }
      });
    };
    selectClip(-1);
    visit();
    state.clips.forEach(function (c, i) {
      selectClip(i);
      var step = Math.max(1, Math.ceil(c.frames / 120));
      for (var f = 0; f < c.frames; f += step) { showPose(f); visit(); }
      showPose(c.frames - 1);
      visit();
      state.cameraPaths.forEach(function (p) {
        if (!c.animated[p.node]) return;
        p.points = [];
        for (var g = 0; g < c.frames; g++) {
          showPose(g);
          scene.updateMatrixWorld(true);
          p.points.push(p.object.getWorldPosition(new THREE.Vector3()));
          box.expandByPoint(p.points[p.points.length - 1]);
        }
      });
    });
    selectClip(-1);
    state.cameraPaths.forEach(function (p) { if (!p.points.length) box.expandByPoint(p.object.getWorldPosition(v)); });
    if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
    var size = box.getSize(new THREE.Vector3()).length();
    if (!(size > 0)) {
      box.expandByScalar(1);
      size = box.getSize(v).length();
    }
    state.box = box;
    state.size = size;
    state.cameraPaths.forEach(function (p) {
      if (p.points.length > 1) {
        p.path.geometry = new THREE.TubeBufferGeometry(new THREE.CatmullRomCurve3(p.points), p.points.length * 4, size * 0.004, 6);
      }
      p.pyramid.scale.setScalar(size * 0.06 / Math.max(1e-9, p.object.getWorldScale(new THREE.Vector3()).x));
    });
  }

  // Orbit camera on the box's centre, looking from the front and a little above (the
  // source's up axis up); a grid under the model, square to that axis; the axes at the origin.
  function frameCamera() {
    var size = state.size;
    // Aimed a little above the box's centre: the model sits lower, clear of the frame text.
    var center = state.box.getCenter(new THREE.Vector3()).addScaledVector(UP, size * 0.07);
    var front = UP.y < 0 ? new THREE.Vector3(0, 0, -1) : new THREE.Vector3(0, 0, 1);
    var right = new THREE.Vector3().crossVectors(UP, front).negate();
    var dir = front.clone().addScaledVector(UP, 0.45).addScaledVector(right, 0.55).normalize();
    var distance = size * 0.5 / Math.tan(camera.fov / 2 * Math.PI / 180) * 0.95;
    camera.near = size / 1000;
    camera.far = size * 100;
    camera.position.copy(center).addScaledVector(dir, distance);
    camera.updateProjectionMatrix();
    controls = new THREE.OrbitControls(camera, renderer.domElement);
    controls.target.copy(center);
    controls.screenSpacePanning = true;
    controls.update();
    var step = Math.pow(10, Math.floor(Math.log10(size / 4)));
    var divisions = Math.max(4, Math.min(40, Math.ceil(size * 1.6 / step)));
    grid = new THREE.GridHelper(divisions * step, divisions, 0x4d5666, 0x343a45);
    var floor = UP.y < 0 ? state.box.max.y : state.box.min.y;
    grid.position.set(center.x, floor, center.z);
    scene.add(grid);
    axes = new THREE.AxesHelper(size * 0.15);
    scene.add(axes);
    el('up-label').textContent = 'up: ' + data.up + (data.up === '-Y' ? ' (the PS1\u2019s Y points down)' : '') +
      '  \u00b7  axes: X red, Y green, Z blue';
  }

  // ---- playback --------------------------------------------------------------------------------
  function restPose() {
    state.joints.forEach(function (j) {
      if (j.object.parent !== j.parentObject) j.parentObject.add(j.object);
      j.object.position.copy(j.rest.p);
      j.object.quaternion.copy(j.rest.q);
      j.object.scale.copy(j.rest.s);
    });
  }

  function selectClip(index) {
    if (state.action) {
      state.action.stop();
      mixer.uncacheAction(state.action.getClip());
      state.action = null;
    }
    restPose();
    state.clip = index;
    state.time = 0;
    if (index < 0) return;
    var c = state.clips[index];
    // A model-space clip (KH2 raw motion) holds each joint's pose relative to the model:
    // its joints hang from the root while it plays.
    if (c.space === 'model') {
      state.joints.forEach(function (j) { if (c.animated[j.node]) state.root.add(j.object); });
    }
    state.action = mixer.clipAction(c.clip);
    state.action.setLoop(THREE.LoopOnce, 1);
    state.action.clampWhenFinished = true;
    state.action.play();
  }

  // The clip's pose at `time` seconds. The page keeps time itself (three.js's own looping
  // would wrap the last frame to the first).
  function poseAt(time) {
    if (!state.action) return;
    state.action.time = time;
    mixer.update(0);
  }

  // Frame f is at f / rate; a hair later, so that a STEP key stored at that time as a
  // float32 (a little after or before it) is the one taken.
  function frameTime(c, f) { return f / c.rate * (1 + 1e-6) + 1e-9; }

  function showPose(f) {
    if (state.clip < 0) return;
    poseAt(frameTime(state.clips[state.clip], f));
  }

  function currentFrame() {
    if (state.clip < 0) return 0;
    var c = state.clips[state.clip];
    return Math.min(c.frames - 1, Math.max(0, Math.floor(state.time * c.rate + 1e-4)));
  }

  function showFrame(f) {
    if (state.clip >= 0) {
      var c = state.clips[state.clip];
      f = Math.max(0, Math.min(c.frames - 1, Math.round(f)));
      state.time = f / c.rate;
      showPose(f);
    }
    refresh();
  }

  function refresh() {
    updateOverlay();
    var label = el('frame-label');
    if (state.clip < 0) {
      label.textContent = state.clips.length ? 'rest pose' : 'rest pose (the file has no animation)';
    } else {
      var c = state.clips[state.clip];
      var f = currentFrame();
      label.textContent = 'frame ' + f + ' / ' + (c.frames - 1) + '  \u00b7  ' + state.time.toFixed(3) + ' s / ' +
        c.duration.toFixed(3) + ' s  \u00b7  ' + c.rate + ' fps';
      el('scrubber').value = String(f);
    }
    el('play').innerHTML = state.playing ? '&#10074;&#10074;' : '&#9654;';
  }

  function pause() { state.playing = false; }

  function step(delta) {
    if (state.clip < 0) return;
    pause();
    var c = state.clips[state.clip];
    var f = currentFrame() + delta;
    if (el('loop').checked) f = (f % c.frames + c.frames) % c.frames;
    showFrame(f);
  }

  var last = null;
  function tick(now) {
    requestAnimationFrame(tick);
    var dt = last === null ? 0 : Math.min(0.1, (now - last) / 1000);
    last = now;
    if (state.playing && state.clip >= 0) {
      var c = state.clips[state.clip];
      state.time += dt * state.speed;
      if (state.time > c.duration) {
        if (el('loop').checked && c.duration > 0) {
          state.time %= c.duration;
        } else {
          state.time = c.duration;
          state.playing = false;
        }
      }
      poseAt(state.time);
      refresh();
    }
    controls.update();
    renderer.render(scene, camera);
  }

  // ---- interface -------------------------------------------------------------------------------
  function buildControls() {
    var select = el('clip-select');
    select.innerHTML = '';
    if (!state.clips.length) select.appendChild(new Option('rest pose', '-1'));
    state.clips.forEach(function (c, i) {
      select.appendChild(new Option(c.name + '  (' + c.frames + ' frames)', String(i)));
    });
    select.disabled = !state.clips.length;
    select.addEventListener('change', function () { chooseClip(Number(select.value)); });
    el('play').addEventListener('click', function () {
      if (state.clip < 0) return;
      var c = state.clips[state.clip];
      if (!state.playing && currentFrame() >= c.frames - 1 && !el('loop').checked) state.time = 0;
      state.playing = !state.playing;
      refresh();
    });
    el('step-back').addEventListener('click', function () { step(-1); });
    el('step-forward').addEventListener('click', function () { step(1); });
    el('speed').addEventListener('change', function () { state.speed = Number(el('speed').value); });
    el('show-grid').addEventListener('change', function () { grid.visible = axes.visible = el('show-grid').checked; });
    el('scrubber').addEventListener('input', function () { showFrame(Number(el('scrubber').value)); });
  }

  function chooseClip(index) {
    var playing = state.playing;
    selectClip(index);
    el('clip-select').value = String(index);
    if (index >= 0) el('loop').checked = state.clips[index].loop;
    showTimeline();
    showFrame(0);
    state.playing = playing;
    buildPanel();
  }

  function showTimeline() {
    var markers = el('markers');
    markers.innerHTML = '';
    var scrubber = el('scrubber');
    if (state.clip < 0) {
      scrubber.max = '0';
      scrubber.disabled = true;
      return;
    }
    var c = state.clips[state.clip];
    scrubber.disabled = false;
    scrubber.max = String(c.frames - 1);
    c.events.forEach(function (e) {
      var m = document.createElement('div');
      m.className = 'marker';
      var span = c.duration > 0 ? c.duration : 1;
      m.style.left = (Math.min(1, Math.max(0, e.time / span)) * 100) + '%';
      m.textContent = e.name;
      m.title = e.name + ' at ' + e.time.toFixed(3) + ' s (frame ' + Math.round(e.time * c.rate) + ')' +
        (e.params && e.params.length ? ', params ' + JSON.stringify(e.params) : '');
      m.addEventListener('click', function () { pause(); showFrame(Math.round(e.time * c.rate)); });
      markers.appendChild(m);
    });
  }

  function key(e) {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') && e.target.type !== 'range') return;
    if (e.code === 'Space') { el('play').click(); e.preventDefault(); }
    if (e.code === 'ArrowLeft') { step(-1); e.preventDefault(); }
    if (e.code === 'ArrowRight') { step(1); e.preventDefault(); }
  }

  // The joint nearest the pointer on screen (within 12 px) names itself.
  function hover(e) {
    var rect = renderer.domElement.getBoundingClientRect();
    var x = e.clientX - rect.left, y = e.clientY - rect.top;
    var best = -1, bestDistance = 144, v = new THREE.Vector3();
    state.joints.forEach(function (j, i) {
      v.copy(jointDots[i].position).project(camera);
      if (v.z > 1) return;
      var dx = (v.x + 1) / 2 * rect.width - x, dy = (1 - v.y) / 2 * rect.height - y;
      if (dx * dx + dy * dy < bestDistance) { bestDistance = dx * dx + dy * dy; best = i; }
    });
    var tip = el('tooltip');
    jointDots.forEach(function (d, i) { d.material = i === best ? hoverMaterial : dotMaterial; });
    if (best < 0) { tip.hidden = true; return; }
    var j = state.joints[best];
    tip.textContent = j.name + (j.parent >= 0 ? '  \u2190 ' + state.joints[j.parent].name : '  (root)');
    tip.style.left = (x + 14) + 'px';
    tip.style.top = (y + 10) + 'px';
    tip.hidden = false;
  }

  // ---- side panel ------------------------------------------------------------------------------
  function text(value) {
    if (value === null || value === undefined) return '\u2013';
    if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toPrecision(6).replace(/\.?0+$/, '');
    return typeof value === 'string' ? value : JSON.stringify(value);
  }

  function node(tag, attrs, children) {
    var n = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { n.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return n;
  }

  function table(rows, head) {
    var t = node('table');
    if (head) t.appendChild(node('tr', {}, head.map(function (h) { return node('th', h[1] ? { class: 'n' } : {}, [h[0]]); })));
    rows.forEach(function (r) { t.appendChild(r); });
    return t;
  }

  function buildPanel() {
    var info = data.info || {};
    var panel = el('panel');
    panel.innerHTML = '';
    panel.appendChild(node('h1', {}, [data.file]));
    panel.appendChild(node('div', {}, [data.format + ': ' + data.description]));
    var skeletonName = info.skeleton_file ? String(info.skeleton_file).split(/[\\/]/).pop() : 'none';
    var facts = [['version', info.version], ['skeleton file', skeletonName],
                 ['joints', (info.joints || []).length], ['clips', (info.clips || []).length],
                 ['events', (info.events || []).length], ['up axis', data.up]];
    if (info.skeleton_note) facts.splice(2, 0, ['', info.skeleton_note]);
    panel.appendChild(table(facts.map(function (f) {
      return node('tr', {}, [node('td', {}, [f[0]]), node('td', {}, [text(f[1])])]);
    })));
    if (info.decode_error) panel.appendChild(node('p', { class: 'warning' }, [info.decode_error]));
    (info.warnings || []).forEach(function (w) { panel.appendChild(node('p', { class: 'warning' }, ['warning: ' + text(w)])); });

    panel.appendChild(node('h2', {}, ['Clips']));
    var clips = info.clips || [];
    if (!clips.length) panel.appendChild(node('p', { class: 'dim' }, ['none: the rest pose is shown']));
    else {
      panel.appendChild(table(clips.map(function (c, i) {
        var row = node('tr', { class: 'clip' + (i === state.clip ? ' current' : '') }, [
          node('td', {}, [c.name]), node('td', { class: 'n' }, [text(c.frames)]), node('td', { class: 'n' }, [text(c.rate)]),
          node('td', { class: 'n' }, [text(c.duration)]), node('td', {}, [c.loop ? 'yes' : 'no']),
          node('td', { class: 'n' }, [text((c.joints || []).length)]), node('td', { class: 'n' }, [text(c.events)])]);
        row.addEventListener('click', function () { if (state.clips.length === clips.length) chooseClip(i); });
        return row;
      }), [['clip'], ['frames', 1], ['fps', 1], ['s', 1], ['loop'], ['joints', 1], ['events', 1]]));
    }

    var events = (info.events || []).filter(function (e) { return state.clip < 0 || !clips[state.clip] || e.clip === clips[state.clip].name; });
    if (events.length) {
      panel.appendChild(node('h2', {}, ['Events' + (state.clip >= 0 && clips[state.clip] ? ' of ' + clips[state.clip].name : '')]));
      panel.appendChild(table(events.map(function (e) {
        return node('tr', {}, [node('td', { class: 'n' }, [text(e.time)]), node('td', {}, [e.name]),
                              node('td', {}, [e.params && e.params.length ? JSON.stringify(e.params) : ''])]);
      }), [['s', 1], ['event'], ['params']]));
    }

    var fields = info.fields || {};
    var plain = Object.keys(fields).filter(function (k) { return fields[k] === null || typeof fields[k] !== 'object'; });
    panel.appendChild(node('h2', {}, ['Header']));
    panel.appendChild(table(plain.map(function (k) {
      return node('tr', {}, [node('td', {}, [k]), node('td', {}, [text(fields[k])])]);
    })));
    if (info.fields_cut) panel.appendChild(node('p', { class: 'dim' }, [info.fields_cut]));
    var details = node('details', {}, [node('summary', {}, ['all fields (JSON)']), node('pre', {}, [JSON.stringify(fields, null, 1)])]);
    panel.appendChild(details);
    if ((info.joints || []).length) {
      panel.appendChild(node('details', {}, [node('summary', {}, ['joints (' + info.joints.length + ')']),
                                             node('pre', {}, [info.joints.join('\n')])]));
    }
  }

  try {
    start();
  } catch (e) {
    fail(e.message);
  }
  if (window.animkitPreview.error === null) showTimelineWhenReady();
  function showTimelineWhenReady() { ready.then(showTimeline, function () {}); }
})();
