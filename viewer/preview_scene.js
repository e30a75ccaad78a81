// The preview viewer's scene: three.js set up from the embedded glb, the skeleton
// overlay (bones, joint dots, camera paths), and the box and camera that frame it.
// A part of the viewer: src/preview/preview_page.cpp (ViewerScript) says how the page joins them.

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

    // Skinned meshes (a node with a mesh and a skin: one SkinnedMesh per primitive), each
    // with the glTF mesh and primitive it draws; never culled (their box is the bind pose's).
    (json.nodes || []).forEach(function (n, i) {
      if (n.mesh === undefined || n.skin === undefined) return;
      var parts = nodes[i].isSkinnedMesh ? [nodes[i]] : nodes[i].children.filter(function (o) { return o.isSkinnedMesh; });
      parts.forEach(function (m, k) {
        m.frustumCulled = false;
        state.skinned.push({ node: i, mesh: n.mesh, primitive: k, object: m });
      });
    });

    buildOverlay(json);
    measure();
    // The skeleton is drawn over a skinned character only when asked (the checkbox, K).
    el('show-skeleton').checked = overlay.visible = state.skinned.length === 0;
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

