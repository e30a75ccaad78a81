// The preview viewer's playback and controls: clips posed frame by frame, the clock,
// the control row, the timeline's event markers, keys and the joint under the pointer.
// A part of the viewer: src/preview/preview_page.cpp (ViewerScript) says how the page joins them.

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
    besideSelect(index);
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
    besidePose(time);
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
        c.duration.toFixed(3) + ' s  \u00b7  ' + rateText((data.info.clips || [])[c.info]) + ' fps';
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
    el('show-skeleton').addEventListener('change', function () { overlay.visible = el('show-skeleton').checked; });
    el('show-hidden').addEventListener('change', function () {
      state.hiddenMeshes.forEach(function (o) { o.visible = el('show-hidden').checked; });
    });
    el('scrubber').addEventListener('input', function () { showFrame(Number(el('scrubber').value)); });
  }

  // Shows a clip from the interface: parsed first when it has not been (loadClip).
  function chooseClip(index) {
    if (index >= 0 && !state.clips[index].clip) {
      el('frame-label').textContent = 'loading ' + state.clips[index].name + '\u2026';
      loadClip(index).then(function () { chooseClip(index); }, function (e) { fail(e.message); });
      return;
    }
    var playing = state.playing;
    selectClip(index);
    if (index >= 0 && tracePaths(index).length) {
      selectClip(index);
      drawPaths();
    }
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
    // Every event is a tick on a strip over the scrubber; its label goes to the first of
    // three lanes above where it clears the labels already there, marked by a line in that
    // lane only (no line crosses another label). A label starts at its tick, or ends there
    // when it would run past the strip's right end (.flip); one wider than the room on
    // either side is cut with an ellipsis; every label stays within the strip. One that
    // fits no lane is left out (the tick's tooltip names the event).
    var width = markers.clientWidth, lanes = [[], [], []], used = 0, placed = [], GAP = 3;
    var span = c.duration > 0 ? c.duration : 1;
    c.events.slice().sort(function (a, b) { return a.time - b.time; }).forEach(function (e) {
      var at = Math.min(1, Math.max(0, e.time / span));
      var title = e.name + ' at ' + e.time.toFixed(3) + ' s (frame ' + Math.round(e.time * c.rate) + ')' +
        (e.params && e.params.length ? ', params ' + JSON.stringify(e.params) : '');
      var go = function () { pause(); showFrame(Math.round(e.time * c.rate)); };
      var tick = document.createElement('div');
      tick.className = 'tick';
      tick.style.left = (at * 100) + '%';
      tick.title = title;
      tick.addEventListener('click', go);
      markers.appendChild(tick);
      var m = document.createElement('div');
      m.className = 'marker';
      m.title = title;
      m.textContent = e.name;
      m.addEventListener('click', go);
      markers.appendChild(m);
      var x = at * width, w = Math.ceil(m.getBoundingClientRect().width);
      var flip = x + w > width && x > width - x;
      if (w > (flip ? x : width - x)) {
        w = Math.max(0, Math.floor(flip ? x : width - x));
        m.style.width = w + 'px';
      }
      if (flip) m.classList.add('flip');
      var left = flip ? x - w : x, right = left + w;
      var lane = lanes.findIndex(function (spans) {
        return spans.every(function (s) { return right + GAP <= s[0] || left >= s[1] + GAP; });
      });
      if (lane < 0 || w < 12) {
        markers.removeChild(m);
        return;
      }
      m.style.left = left + 'px';
      lanes[lane].push([left, right]);
      used = Math.max(used, lane + 1);
      placed.push([m, lane]);
    });
    placed.forEach(function (p) { p[0].style.top = (p[1] * 14) + 'px'; });
    markers.querySelectorAll('.tick').forEach(function (t) { t.style.top = (used * 14) + 'px'; });
    markers.style.height = (used * 14 + 6) + 'px';
    el('timeline').style.paddingTop = (c.events.length ? used * 14 + 6 : 0) + 'px';
  }

  function key(e) {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') && e.target.type !== 'range') return;
    if (e.code === 'Space') { el('play').click(); e.preventDefault(); }
    if (e.code === 'ArrowLeft') { step(-1); e.preventDefault(); }
    if (e.code === 'ArrowRight') { step(1); e.preventDefault(); }
    if (e.code === 'KeyK') { el('show-skeleton').click(); e.preventDefault(); }
  }

  // The joint nearest the pointer on screen (within 12 px) names itself.
  function hover(e) {
    var rect = renderer.domElement.getBoundingClientRect();
    var x = e.clientX - rect.left, y = e.clientY - rect.top;
    var best = -1, bestDistance = 144, v = new THREE.Vector3();
    var at = dots.geometry.attributes.position, hovered = dots.geometry.attributes.hovered;
    state.joints.forEach(function (j, i) {
      v.fromBufferAttribute(at, i).project(camera);
      if (v.z > 1) return;
      var dx = (v.x + 1) / 2 * rect.width - x, dy = (1 - v.y) / 2 * rect.height - y;
      if (dx * dx + dy * dy < bestDistance) { bestDistance = dx * dx + dy * dy; best = i; }
    });
    var tip = el('tooltip');
    for (var i = 0; i < state.joints.length; i++) hovered.setX(i, i === best ? 1 : 0);
    hovered.needsUpdate = true;
    if (best < 0) { tip.hidden = true; return; }
    var j = state.joints[best];
    tip.textContent = j.name + (j.parent >= 0 ? '  \u2190 ' + state.joints[j.parent].name : '  (root)');
    tip.style.left = (x + 14) + 'px';
    tip.style.top = (y + 10) + 'px';
    tip.hidden = false;
  }

