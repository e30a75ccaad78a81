// The preview viewer's scene: three.js set up from the embedded glb, the skeleton
// overlay (bones, joint dots, camera paths), and the box and camera that frame it.
// A part of the viewer: src/preview/preview_page.cpp (ViewerScript) says how the page joins them.

  // ---- set-up ----------------------------------------------------------------------------------
  // Colour: the scene is lit in linear light, as glTF has it (base colour factors and vertex
  // colours linear; the loader marks base colour textures sRGB, so three.js decodes them),
  // and every built-in material's output is encoded to sRGB for the canvas. r111 encodes a
  // canvas only by a power (gammaOutput, 2.2 by default), so the page replaces the chunk each
  // such shader ends with by the exact sRGB curve. The overlay's colours are given as they
  // show (sRGB), so they are decoded to linear (shown()).
  THREE.ShaderChunk.encodings_fragment = 'gl_FragColor = LinearTosRGB( gl_FragColor );';
  function shown(hex) { return new THREE.Color(hex).convertSRGBToLinear(); }

  // three.js skins 4 influences (JOINTS_0/WEIGHTS_0); a vertex of more has the rest in
  // JOINTS_1/WEIGHTS_1, which the loader keeps as the attributes joints_1 and weights_1. A
  // mesh that has them draws with a copy of its material whose vertex shader blends those 4
  // too (the same sum the library's skinning makes; skinnedVertices mirrors it). The loader
  // scaled each vertex's set 0 to sum to 1; glTF has all sets together sum to 1, so set 0
  // gets back its share (1 minus set 1's). A JOINTS_2 on is not drawn (more than 8: none known).
  var MORE_INFLUENCES_POSITION = '\tskinned += getBoneMatrix( joints_1.x ) * skinVertex * weights_1.x;\n' +
    '\tskinned += getBoneMatrix( joints_1.y ) * skinVertex * weights_1.y;\n' +
    '\tskinned += getBoneMatrix( joints_1.z ) * skinVertex * weights_1.z;\n' +
    '\tskinned += getBoneMatrix( joints_1.w ) * skinVertex * weights_1.w;\n';
  var MORE_INFLUENCES_NORMAL = '\tskinMatrix += weights_1.x * getBoneMatrix( joints_1.x );\n' +
    '\tskinMatrix += weights_1.y * getBoneMatrix( joints_1.y );\n' +
    '\tskinMatrix += weights_1.z * getBoneMatrix( joints_1.z );\n' +
    '\tskinMatrix += weights_1.w * getBoneMatrix( joints_1.w );\n';

  function blendMoreInfluences(shader) {
    var position = THREE.ShaderChunk.skinning_vertex.replace('\ttransformed = ( bindMatrixInverse',
                                                            MORE_INFLUENCES_POSITION + '\ttransformed = ( bindMatrixInverse');
    var normal = THREE.ShaderChunk.skinnormal_vertex.replace('\tskinMatrix  = bindMatrixInverse',
                                                            MORE_INFLUENCES_NORMAL + '\tskinMatrix  = bindMatrixInverse');
    shader.vertexShader = 'attribute vec4 joints_1;\nattribute vec4 weights_1;\n' +
      shader.vertexShader.replace('#include <skinning_vertex>', position).replace('#include <skinnormal_vertex>', normal);
  }

  function skinEveryInfluence(mesh, copies) {
    var g = mesh.geometry, more = g.attributes.weights_1, weight = g.attributes.skinWeight;
    if (!more || !g.attributes.joints_1 || !weight) return;
    for (var i = 0; i < more.count; i++) {
      var rest = more.getX(i) + more.getY(i) + more.getZ(i) + more.getW(i);
      if (rest > 0) weight.setXYZW(i, weight.getX(i) * (1 - rest), weight.getY(i) * (1 - rest),
                                   weight.getZ(i) * (1 - rest), weight.getW(i) * (1 - rest));
    }
    weight.needsUpdate = true;
    var material = mesh.material;
    if (!copies.has(material)) {
      var copy = material.clone();
      copy.onBeforeCompile = blendMoreInfluences;
      copies.set(material, copy);
    }
    mesh.material = copies.get(material);
  }

  function start() {
    var view = el('view');
    try {
      renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    } catch (e) {
      fail('WebGL is not available (' + e.message + ')');
      return;
    }
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    renderer.setClearColor(0x1d2128);  // as it is: the clear colour is not encoded
    view.appendChild(renderer.domElement);
    scene = new THREE.Scene();
    camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
    camera.up.copy(UP);
    // The lights: a surface facing up gets 1 in all (the sky's 0.8 and the sun's 0.2), so
    // a texel facing up is drawn its own colour; one facing the front about 0.72, below 0.44.
    var sky = new THREE.HemisphereLight(0xffffff, new THREE.Color(0.55, 0.55, 0.6), 0.8);
    sky.position.copy(UP);  // the sky above, as the source's up axis has it
    scene.add(sky);
    var sun = new THREE.DirectionalLight(0xffffff, 0);
    sun.position.set(1, 0, 1).addScaledVector(UP, 2);
    sun.intensity = 0.2 / sun.position.clone().normalize().dot(UP);
    scene.add(sun);
    overlay = new THREE.Group();
    overlay.renderOrder = 10;
    scene.add(overlay);
    window.addEventListener('resize', resize);
    if (window.ResizeObserver) new ResizeObserver(resize).observe(view);
    resize();
    var failed = function (e) { fail(e && e.message ? e.message : e); };
    unpackText('animkit-info', data.info_gzip_bytes).then(function (text) {
      data.info = JSON.parse(text);
      buildPanel();
    }).catch(failed);
    // The glb is parsed without its animations; each clip is parsed when first shown (loadClip).
    mark('start');
    unpack('animkit-glb', data.glb_gzip_bytes).then(function (buffer) {
      mark('glb unpacked');
      var split = setAnimationsAside(buffer);
      mark('animations set aside');
      new THREE.GLTFLoader().parse(split.glb, '', function (gltf) {
        mark('glb parsed');
        gltf.parser.json.animations = split.animations;
        loaded(gltf);
      }, failed);
    }).catch(failed);
  }

  function resize() {
    var view = el('view');
    var w = Math.max(1, view.clientWidth), h = Math.max(1, view.clientHeight);
    renderer.setSize(w, h);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    if (dots) sizeDots();
    if (state.clip >= 0) showTimeline();  // the event labels' lanes depend on the width
  }

  function loaded(gltf) {
    state.gltf = gltf;
    gltf.parser.getDependencies('node').then(function (nodes) {
      try {
        setUp(gltf, nodes);
      } catch (e) {
        fail(e.message);
        return;
      }
      var first = state.clips.length ? 0 : -1;
      if (data.clip) first = clipIndex(data.clip);
      return (first >= 0 ? loadClip(first) : Promise.resolve()).then(loadBeside).then(function () {
        mark('first clip parsed');
        show(first);
        mark('ready');
      });
    }).catch(function (e) { fail(e.message); });
  }

  // A promise of the clip's AnimationClip, parsed from the glb on the first call. Its tracks
  // are bound by node: three.js binds by name, and a game's names need not be unique (nor
  // survive its name sanitizing), so every node has a unique name and every track the node
  // its glTF channel names. The loader makes one track per channel, in order.
  function loadClip(index) {
    var c = state.clips[index];
    if (!c.loading) {
      c.loading = state.gltf.parser.getDependency('animation', index).then(function (clip) {
        var channels = state.gltf.parser.json.animations[index].channels;
        if (clip.tracks.length !== channels.length) throw new Error('animation ' + index + ': tracks do not match channels');
        var samplers = state.gltf.parser.json.animations[index].samplers;
        channels.forEach(function (ch, k) {
          var property = clip.tracks[k].name.slice(clip.tracks[k].name.lastIndexOf('.') + 1);
          clip.tracks[k].name = 'animkit_node_' + ch.target.node + '.' + property;
          if (property === 'quaternion' && samplers[ch.sampler].interpolation === 'CUBICSPLINE') normalizeSpline(clip.tracks[k]);
        });
        c.clip = clip;
        return clip;
      });
    }
    return c.loading;
  }

  // A cubic-spline rotation gives a unit quaternion only once normalized (glTF says so);
  // r111's interpolant leaves it as the spline has it, which would scale the joint.
  function normalizeSpline(track) {
    var make = track.createInterpolant;
    track.createInterpolant = function (result) {
      var interpolant = make.call(this, result);
      var spline = interpolant.interpolate_;
      interpolant.interpolate_ = function (i1, t0, t, t1) {
        var q = spline.call(this, i1, t0, t, t1);
        var length = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
        for (var i = 0; i < 4; i++) q[i] /= length;
        return q;
      };
      return interpolant;
    };
    track.createInterpolant.isInterpolantFactoryMethodGLTFCubicSpline = true;  // as the loader marks it
  }

  // The view once the first clip is loaded: framed on the rest pose, the meshes and that clip.
  function show(first) {
    measure(first);
    placeBeside();  // a retarget's page: the target beside the file's character
    // The skeleton is drawn over a skinned character only when asked (the checkbox, K).
    el('show-skeleton').checked = overlay.visible = state.skinned.length === 0;
    frameCamera();
    buildControls();
    selectClip(first);
    buildPanel();  // after selectClip: the panel marks the clip shown
    showFrame(0);
    el('loop').checked = first >= 0 && state.clips[first].loop;
    renderer.domElement.addEventListener('pointermove', hover);
    renderer.domElement.addEventListener('pointerleave', function () { el('tooltip').hidden = true; });
    window.addEventListener('keydown', key);
    requestAnimationFrame(tick);
    resolveReady(window.animkitPreview);
  }

  function setUp(gltf, nodes) {
    var json = gltf.parser.json;
    state.nodes = nodes;
    scene.add(gltf.scene);
    state.root = nodes[json.scenes[json.scene || 0].nodes[0]];
    nodes.forEach(function (n, i) { n.name = 'animkit_node_' + i; });  // the names tracks bind by (loadClip)

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
      var rate = extras.frame_rate > 0 ? extras.frame_rate : 30;
      var duration = extras.duration !== undefined ? extras.duration : inputEnd(json, a);
      var frames = extras.frame_count > 0 ? extras.frame_count : Math.round(duration * rate) + 1;
      var animated = {};
      a.channels.forEach(function (ch) { animated[ch.target.node] = true; });
      // The glb's clips are info's, or with --clip the one at data.clip_index.
      var info = typeof data.clip_index === 'number' ? data.clip_index : k;
      state.clips.push({ name: a.name !== undefined ? a.name : 'animation_' + k, index: k, info: info, clip: null, rate: rate,
                         frames: frames, duration: duration, loop: !!extras.loop, space: extras.space || 'local',
                         events: extras.events || [], placeholder: !!extras.placeholder, animated: animated });
    });

    // Skinned meshes (a node with a mesh and a skin: one SkinnedMesh per primitive), each
    // with the glTF mesh and primitive it draws; never culled (their box is the bind pose's).
    var moreInfluences = new Map();  // material -> its copy that blends JOINTS_1/WEIGHTS_1 too
    (json.nodes || []).forEach(function (n, i) {
      if (n.mesh === undefined || n.skin === undefined) return;
      var parts = nodes[i].isSkinnedMesh ? [nodes[i]] : nodes[i].children.filter(function (o) { return o.isSkinnedMesh; });
      parts.forEach(function (m, k) {
        m.frustumCulled = false;
        skinEveryInfluence(m, moreInfluences);
        state.skinned.push({ node: i, mesh: n.mesh, primitive: k, object: m });
      });
    });

    // Meshes the file marks hidden (extras.animkit.metadata.hidden: KH2's shadow model) start
    // hidden; the "hidden meshes" checkbox shows them.
    state.hiddenMeshes = [];
    (json.nodes || []).forEach(function (n, i) {
      var mesh = n.mesh !== undefined && json.meshes ? json.meshes[n.mesh] : null;
      var extras = mesh && mesh.extras && mesh.extras.animkit;
      if (!extras || !extras.metadata || extras.metadata.hidden !== true) return;
      nodes[i].visible = false;
      state.hiddenMeshes.push(nodes[i]);
    });
    el('show-hidden-label').hidden = state.hiddenMeshes.length === 0;

    buildOverlay(json);
  }

  // A clip's last key time, from its accessors' max (what the loader would compute), for a
  // clip whose extras do not give its duration.
  function inputEnd(json, animation) {
    var end = 0;
    animation.samplers.forEach(function (s) {
      var accessor = json.accessors[s.input];
      if (accessor && accessor.max) end = Math.max(end, accessor.max[0]);
    });
    return end;
  }

  // Bones as lines from each joint to its parent, over thin sticks whose width follows
  // their own length (a short bone never hides its neighbours); joints as round points
  // sized from the skeleton (bone lengths), drawn in screen space within a few pixels
  // (dotMaterial), so zooming in does not grow them. Drawn over meshes. Cameras as a
  // small pyramid, and the path their clip moves them along as a tube.
  function buildOverlay(json) {
    var pairs = state.joints.filter(function (j) { return j.parent >= 0; }).length;
    var geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(Math.max(1, pairs) * 6), 3));
    bones = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: shown(0xffb347), depthTest: false, transparent: true }));
    bones.frustumCulled = false;
    bones.renderOrder = 12;
    overlay.add(bones);
    var points = new THREE.BufferGeometry();
    points.setAttribute('position', new THREE.BufferAttribute(new Float32Array(Math.max(1, state.joints.length) * 3), 3));
    var tint = new Float32Array(Math.max(1, state.joints.length));
    points.setAttribute('hovered', new THREE.BufferAttribute(tint, 1));
    points.setDrawRange(0, state.joints.length);
    dots = new THREE.Points(points, dotMaterial());
    dots.frustumCulled = false;
    dots.renderOrder = 13;
    overlay.add(dots);
    var stickGeometry = new THREE.CylinderBufferGeometry(0.35, 1, 1, 8, 1).translate(0, 0.5, 0);
    var stickMaterial = new THREE.MeshBasicMaterial({ color: shown(0xc9822a), depthTest: false, transparent: true, opacity: 0.55 });
    state.joints.forEach(function (j) {
      if (j.parent < 0) return;
      var stick = new THREE.Mesh(stickGeometry, stickMaterial);
      stick.renderOrder = 11;
      stick.frustumCulled = false;
      overlay.add(stick);
      boneSticks.push({ joint: j, mesh: stick });
    });
    json.nodes.forEach(function (n, i) {
      if (n.camera === undefined) return;
      var path = new THREE.Mesh(new THREE.BufferGeometry(), new THREE.MeshBasicMaterial({ color: shown(0x6fc3ff) }));
      path.frustumCulled = false;
      overlay.add(path);
      var pyramid = new THREE.Mesh(new THREE.ConeBufferGeometry(0.6, 1, 4).rotateX(Math.PI / 2).translate(0, 0, -0.5),
                                   new THREE.MeshBasicMaterial({ color: shown(0x6fc3ff), wireframe: false, transparent: true, opacity: 0.8 }));
      pyramid.userData.overlay = true;  // not part of the model: left out of its box
      state.nodes[i].add(pyramid);
      state.cameraPaths.push({ node: i, object: state.nodes[i], path: path, pyramid: pyramid, points: [] });
    });
  }

  // Joint markers: discs of a world diameter (`diameter`: from the skeleton) in perspective,
  // kept between `least` and `most` pixels; the hovered one red. A dark rim sets them off
  // from the bones and meshes.
  function dotMaterial() {
    return new THREE.ShaderMaterial({
      uniforms: { diameter: { value: 1 }, pixelsPerUnit: { value: 1 }, least: { value: 4 }, most: { value: 12 } },
      vertexShader: [
        'uniform float diameter, pixelsPerUnit, least, most;',
        'attribute float hovered;',
        'varying float vHovered;',
        'void main() {',
        '  vHovered = hovered;',
        '  vec4 mv = modelViewMatrix * vec4(position, 1.0);',
        '  gl_Position = projectionMatrix * mv;',
        '  gl_PointSize = clamp(diameter * pixelsPerUnit / max(-mv.z, 1e-6), least, most);',
        '}'].join('\n'),
      fragmentShader: [
        'varying float vHovered;',
        'void main() {',
        '  vec2 d = gl_PointCoord - 0.5;',
        '  float r = dot(d, d);',
        '  if (r > 0.25) discard;',
        '  vec3 fill = vHovered > 0.5 ? vec3(1.0, 0.353, 0.212) : vec3(1.0, 0.945, 0.788);',
        '  gl_FragColor = vec4(r > 0.12 ? vec3(0.11, 0.12, 0.15) : fill, 1.0);',
        '}'].join('\n'),
      depthTest: false,
      transparent: true
    });
  }

  // The joint markers' size: a third of the median bone of the rest pose (joints at one
  // place left out); without bones, a tenth of the view's box; over meshes, smaller. On
  // screen at most 36 px (up to 8 joints), 24 (16), 12 (more) or 8 (over meshes), at least 3.
  function sizeDots() {
    var u = dots.material.uniforms;
    var diameter = state.boneLength > 0 ? state.boneLength / 3 : state.size / 10;
    u.diameter.value = diameter * (state.hasMeshes ? 0.6 : 1);
    var few = state.joints.length <= 8 ? 36 : state.joints.length <= 16 ? 24 : 12;
    u.most.value = (state.hasMeshes ? 8 : few) * renderer.getPixelRatio();
    u.least.value = 3 * renderer.getPixelRatio();
    // A unit at distance 1 spans this many pixels (the drawing buffer's, as gl_PointSize).
    u.pixelsPerUnit.value = renderer.getDrawingBufferSize(new THREE.Vector2()).y / 2 /
      Math.tan(camera.fov / 2 * Math.PI / 180);
  }

  function updateOverlay() {
    scene.updateMatrixWorld(true);
    var positions = bones.geometry.attributes.position, at = dots.geometry.attributes.position;
    var a = new THREE.Vector3(), b = new THREE.Vector3(), k = 0;
    state.joints.forEach(function (j, i) {
      j.object.getWorldPosition(a);
      at.setXYZ(i, a.x, a.y, a.z);
      if (j.parent < 0) return;
      state.joints[j.parent].object.getWorldPosition(b);
      positions.setXYZ(k++, b.x, b.y, b.z);
      positions.setXYZ(k++, a.x, a.y, a.z);
    });
    positions.needsUpdate = true;
    at.needsUpdate = true;
    var from = new THREE.Vector3(), to = new THREE.Vector3(), dir = new THREE.Vector3(), axis = new THREE.Vector3(0, 1, 0);
    var widest = (state.boneLength > 0 ? state.boneLength : state.size / 10) * (state.hasMeshes ? 0.04 : 0.08);
    boneSticks.forEach(function (s) {
      state.joints[s.joint.parent].object.getWorldPosition(from);
      s.joint.object.getWorldPosition(to);
      var length = dir.subVectors(to, from).length();
      s.mesh.visible = length > 1e-9 * state.size;
      if (!s.mesh.visible) return;
      s.mesh.position.copy(from);
      s.mesh.quaternion.setFromUnitVectors(axis, dir.divideScalar(length));
      var width = Math.min(widest, length * 0.08);
      s.mesh.scale.set(width, length, width);
    });
    overlay.updateMatrixWorld(true);
  }

  // The box the view is framed on and the grid laid under: every joint and mesh in the rest
  // pose and over (up to 120 of) the first clip's frames, with its cameras' paths. Other
  // clips are not sampled for it (a moveset has a hundred). The bones' median length in
  // the rest pose sizes the joint markers.
  function measure(first) {
    var box = new THREE.Box3(), v = new THREE.Vector3();
    var visit = function () {
      scene.updateMatrixWorld(true);
      state.joints.forEach(function (j) { box.expandByPoint(j.object.getWorldPosition(v)); });
      state.gltf.scene.traverse(function (o) {
        if (o.isMesh && o.geometry && !o.userData.overlay) {
          state.hasMeshes = true;
          if (!o.geometry.boundingBox) o.geometry.computeBoundingBox();
          // A skinned mesh's vertices are in the model's space at the bind pose: the root's,
          // which may turn the file up (its own node is a scene root, as glTF wants).
          box.union(o.geometry.boundingBox.clone().applyMatrix4(o.isSkinnedMesh ? state.root.matrixWorld : o.matrixWorld));
        }
      });
    };
    selectClip(-1);
    visit();
    state.restBox = box.clone();  // the rest pose's alone: a retarget page's heights (placeBeside)
    state.boneLength = medianBoneLength();
    if (first >= 0) {
      var c = state.clips[first];
      selectClip(first);
      var step = Math.max(1, Math.ceil(c.frames / 120));
      for (var f = 0; f < c.frames; f += step) { showPose(f); visit(); }
      showPose(c.frames - 1);
      visit();
      tracePaths(first).forEach(function (p) { box.expandByPoint(p); });
    }
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
      p.pyramid.scale.setScalar(size * 0.06 / Math.max(1e-9, p.object.getWorldScale(new THREE.Vector3()).x));
    });
    drawPaths();
  }

  function medianBoneLength() {
    scene.updateMatrixWorld(true);
    var a = new THREE.Vector3(), b = new THREE.Vector3();
    var lengths = [];
    state.joints.forEach(function (j) {
      if (j.parent < 0) return;
      var length = j.object.getWorldPosition(a).distanceTo(state.joints[j.parent].object.getWorldPosition(b));
      if (length > 0) lengths.push(length);
    });
    lengths.sort(function (x, y) { return x - y; });
    return lengths.length ? lengths[Math.floor(lengths.length / 2)] : 0;
  }

  // The positions, at every frame of the clip (selected), of the cameras it moves; returns them all.
  function tracePaths(index) {
    var c = state.clips[index], all = [];
    state.cameraPaths.forEach(function (p) {
      if (!c.animated[p.node]) return;
      p.points = [];
      for (var g = 0; g < c.frames; g++) {
        showPose(g);
        scene.updateMatrixWorld(true);
        p.points.push(p.object.getWorldPosition(new THREE.Vector3()));
      }
      all = all.concat(p.points);
    });
    return all;
  }

  function drawPaths() {
    state.cameraPaths.forEach(function (p) {
      if (p.points.length > 1) {
        p.path.geometry.dispose();
        p.path.geometry = new THREE.TubeBufferGeometry(new THREE.CatmullRomCurve3(p.points), p.points.length * 4, state.size * 0.004, 6);
      }
    });
  }

  // Orbit camera on the box's centre, looking from the front and a little above (the
  // source's up axis up); a grid under the model, square to that axis; the axes at the origin.
  function frameCamera() {
    // Again (a retarget page's "same height"): the old controls, grid and axes go first,
    // the grid shown or hidden as it was.
    var gridShown = grid ? grid.visible : true;
    if (controls) controls.dispose();
    if (grid) scene.remove(grid);
    if (axes) scene.remove(axes);
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
    grid = new THREE.GridHelper(divisions * step, divisions, shown(0x4d5666), shown(0x343a45));
    var floor = UP.y < 0 ? state.box.max.y : state.box.min.y;
    grid.position.set(center.x, floor, center.z);
    scene.add(grid);
    sizeDots();
    axes = new THREE.AxesHelper(size * 0.15);
    scene.add(axes);
    grid.visible = axes.visible = gridShown;
    el('up-label').textContent = 'up: ' + data.up + (data.up === '-Y' ? ' (the PS1\u2019s Y points down)' : '') +
      (data.up === '+Z' ? ' (its glb turned to glTF\u2019s +Y)' : '') +
      '  \u00b7  axes: X red, Y green, Z blue';
  }

