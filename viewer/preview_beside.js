// The preview viewer's second character: on a retarget's page (data.beside), the target
// playing the retargeted clips beside the file's character, in step with it (one clip list,
// one timeline: the clip of the same index at the same time), standing on the same floor in
// its own up axis, drawn at the first's height when theirs differ by more than twice ("same
// height"). A part of the viewer: src/preview/preview_page.cpp (ViewerScript) says how
// the page joins them.

  var beside = null;  // {gltf, group, root, joints: [{name, object, parentObject, rest}], clips: [AnimationClip], mixer, action, skinned}

  // A promise of the second character loaded (nothing without data.beside): its glb parsed
  // with its clips, every track bound to its node (as loadClip does for the file's).
  function loadBeside() {
    if (!data.beside) return Promise.resolve();
    return unpack('animkit-beside-glb', data.beside.glb_gzip_bytes).then(function (buffer) {
      return new Promise(function (resolve, reject) { new THREE.GLTFLoader().parse(buffer, '', resolve, reject); });
    }).then(function (gltf) {
      return gltf.parser.getDependencies('node').then(function (nodes) {
        var json = gltf.parser.json;
        nodes.forEach(function (n, i) { n.name = 'animkit_beside_node_' + i; });
        var b = { gltf: gltf, group: new THREE.Group(), root: nodes[json.scenes[json.scene || 0].nodes[0]], joints: [],
                  clips: [], spaces: [], animated: [], skinned: 0, action: null };
        (json.skins && json.skins.length ? json.skins[0].joints : []).forEach(function (n) {
          var o = nodes[n];
          b.joints.push({ name: json.nodes[n].name !== undefined ? json.nodes[n].name : 'node_' + n, object: o, parentObject: o.parent,
                          rest: { p: o.position.clone(), q: o.quaternion.clone(), s: o.scale.clone() } });
        });
        gltf.scene.traverse(function (o) { if (o.isSkinnedMesh) { o.frustumCulled = false; b.skinned++; } });
        (json.animations || []).forEach(function (a, k) {
          var clip = gltf.animations[k];
          a.channels.forEach(function (ch, t) {
            var property = clip.tracks[t].name.slice(clip.tracks[t].name.lastIndexOf('.') + 1);
            clip.tracks[t].name = 'animkit_beside_node_' + ch.target.node + '.' + property;
          });
          var animated = {};
          a.channels.forEach(function (ch) { animated[ch.target.node] = true; });
          b.clips.push(clip);
          b.spaces.push(((a.extras && a.extras.animkit) || {}).space || 'local');
          b.animated.push(animated);
        });
        // A -Y up character beside a +Y up one (or the other way): turned half about X.
        if ((data.beside.up === '-Y') !== (data.up === '-Y')) b.group.rotation.x = Math.PI;
        b.group.add(gltf.scene);
        scene.add(b.group);
        b.mixer = new THREE.AnimationMixer(gltf.scene);
        beside = b;
      });
    });
  }

  // The second character's box in the world: its joints and meshes at rest.
  function besideBox() {
    var box = new THREE.Box3(), v = new THREE.Vector3();
    scene.updateMatrixWorld(true);
    beside.joints.forEach(function (j) { box.expandByPoint(j.object.getWorldPosition(v)); });
    beside.gltf.scene.traverse(function (o) {
      if (!o.isMesh || !o.geometry) return;
      if (!o.geometry.boundingBox) o.geometry.computeBoundingBox();
      box.union(o.geometry.boundingBox.clone().applyMatrix4(o.isSkinnedMesh ? beside.root.matrixWorld : o.matrixWorld));
    });
    return box;
  }

  // Stands the second character at the right of the file's (+X), a little apart, its feet
  // on the same floor, centred in depth; the view's box then holds both. When their rest
  // heights (along up) differ by more than twice, it is drawn as tall as the file's ("same
  // height", on by default then): a uniform scale on its group alone, so its joints in its
  // own space (the test hook's, `animkit sample`'s) stay in its file's units.
  function placeBeside() {
    if (!beside) return;
    besideSelect(-1);
    var own = besideBox();  // at rest, its own size: the group is neither moved nor scaled yet
    if (own.isEmpty()) own.set(new THREE.Vector3(), new THREE.Vector3());
    var rest = state.restBox || state.box;
    var tall = own.max.y - own.min.y, mainTall = rest.max.y - rest.min.y;
    beside.own = own;
    beside.main = state.box.clone();
    beside.mainSize = state.size;
    beside.fit = tall > 0 && mainTall > 0 ? mainTall / tall : 1;
    var same = el('same-height');
    el('same-height-label').hidden = false;
    same.checked = beside.fit > 2 || beside.fit < 0.5;
    same.addEventListener('change', function () {
      besideScale(same.checked);
      frameCamera();
    });
    var label = document.createElement('span');
    label.id = 'beside-label';
    el('hud').appendChild(label);
    state.hasMeshes = state.hasMeshes || beside.skinned > 0;
    besideScale(same.checked);
  }

  // Draws the second character at the file's height (same) or its own, placed as placeBeside says.
  function besideScale(same) {
    var s = same ? beside.fit : 1, main = beside.main;
    // Scaling about the origin (where its box was measured) scales the box alike.
    var min = beside.own.min.clone().multiplyScalar(s), max = beside.own.max.clone().multiplyScalar(s);
    var gap = 0.15 * Math.max(main.max.x - main.min.x, max.x - min.x, beside.mainSize * 0.1);
    beside.group.scale.setScalar(s);
    beside.group.position.set(main.max.x + gap - min.x,
                              UP.y < 0 ? main.max.y - max.y : main.min.y - min.y,
                              (main.min.z + main.max.z) / 2 - (min.z + max.z) / 2);
    state.box = main.clone().union(new THREE.Box3(min, max).translate(beside.group.position));
    state.size = state.box.getSize(new THREE.Vector3()).length();
    el('beside-label').textContent = 'left: ' + data.file + '  \u00b7  right: ' + data.beside.file + ' (' +
      data.beside.format + '), the clips retargeted onto it' +
      (s !== 1 ? ', shown at x' + Number(s.toPrecision(2)) + ' to stand as tall as the left' : '');
  }

  // The second character shows clip `index` (-1: the rest pose), from its start.
  function besideSelect(index) {
    if (!beside) return;
    if (beside.action) {
      beside.action.stop();
      beside.mixer.uncacheAction(beside.action.getClip());
      beside.action = null;
    }
    beside.joints.forEach(function (j) {
      if (j.object.parent !== j.parentObject) j.parentObject.add(j.object);
      j.object.position.copy(j.rest.p);
      j.object.quaternion.copy(j.rest.q);
      j.object.scale.copy(j.rest.s);
    });
    var clip = index >= 0 ? beside.clips[state.clips[index].index] : null;
    if (!clip) return;
    if (beside.spaces[state.clips[index].index] === 'model') {
      var animated = beside.animated[state.clips[index].index];
      beside.gltf.parser.json.skins[0].joints.forEach(function (n, k) { if (animated[n]) beside.root.add(beside.joints[k].object); });
    }
    beside.action = beside.mixer.clipAction(clip);
    beside.action.setLoop(THREE.LoopOnce, 1);
    beside.action.clampWhenFinished = true;
    beside.action.play();
  }

  function besidePose(time) {
    if (!beside || !beside.action) return;
    beside.action.time = time;
    beside.mixer.update(0);
  }

  function besideNow(world) {
    if (!beside) return [];
    scene.updateMatrixWorld(true);
    var toModel = world ? new THREE.Matrix4() : new THREE.Matrix4().getInverse(beside.group.matrixWorld);
    var v = new THREE.Vector3();
    return beside.joints.map(function (j) {
      j.object.getWorldPosition(v).applyMatrix4(toModel);
      return { name: j.name, position: [v.x, v.y, v.z] };
    });
  }

  // The test hook's part: the characters on the page, and the second one's joints where its
  // glb has them (its scene's space, without the place it stands at beside the first).
  Object.assign(window.animkitPreview, {
    characters: function () {
      var list = [{ file: data.file, joints: state.joints.length, skinnedMeshes: state.skinned.length }];
      if (beside) list.push({ file: data.beside.file, joints: beside.joints.length, skinnedMeshes: beside.skinned });
      return list;
    },
    besideJoints: function () { return beside ? beside.joints.map(function (j) { return j.name; }) : []; },
    // The scale the second character is drawn at (1: its file's size; "same height" on: the file's height over its own).
    besideScale: function () { return beside ? beside.group.scale.x : 1; },
    // Turns "same height" on or off, as the checkbox does; returns the scale drawn at.
    setSameHeight: function (on) {
      if (!beside) return 1;
      el('same-height').checked = !!on;
      besideScale(!!on);
      frameCamera();
      return beside.group.scale.x;
    },
    // The pixels each character covers (not the background), drawn alone as the camera sees it:
    // [the file's, the second's].
    pixelsDrawn: function () {
      var count = function () {
        renderer.render(scene, camera);
        var canvas = renderer.domElement, copy = document.createElement('canvas');
        copy.width = canvas.width;
        copy.height = canvas.height;
        var g = copy.getContext('2d');
        g.drawImage(canvas, 0, 0);
        var pixels = g.getImageData(0, 0, copy.width, copy.height).data, n = 0;
        for (var i = 0; i < pixels.length; i += 4) {
          if (Math.abs(pixels[i] - 0x1d) + Math.abs(pixels[i + 1] - 0x21) + Math.abs(pixels[i + 2] - 0x28) > 12) n++;
        }
        return n;
      };
      var seen = [state.gltf.scene.visible, beside ? beside.group.visible : false];
      state.gltf.scene.visible = true;
      if (beside) beside.group.visible = false;
      var result = [count()];
      if (beside) {
        state.gltf.scene.visible = false;
        beside.group.visible = true;
        result.push(count());
        beside.group.visible = seen[1];
      }
      state.gltf.scene.visible = seen[0];
      renderer.render(scene, camera);
      return result;
    },
    // Shows the frame as worldPositions does; world: where they are drawn instead.
    besidePositions: function (clip, frame, world) {
      this.worldPositions(clip, frame);
      return besideNow(world);
    },
    // The pose shown now (playing, or stepped to): the frame and the second character's joints.
    besideNow: function (world) {
      return { frame: currentFrame(), time: state.time, positions: besideNow(world) };
    }
  });

