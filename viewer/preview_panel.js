// The preview viewer's side panel (the file's `info`), then the viewer's start.
// A part of the viewer: src/preview/preview_page.cpp (ViewerScript) says how the page joins them.

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

  // The page's clip (index into state.clips) that is info's clip `i`, or -1.
  function pageClip(i) {
    for (var k = 0; k < state.clips.length; k++) if (state.clips[k].info === i) return k;
    return -1;
  }

  // info's events of its clip `i`: info lists them clip after clip, each clip giving its count.
  function eventsOf(info, i) {
    var clips = info.clips || [], all = info.events || [], from = 0;
    for (var k = 0; k < i; k++) from += clips[k].events || 0;
    return all.slice(from, from + (clips[i].events || 0));
  }

  function buildPanel() {
    var info = data.info || {};
    var panel = el('panel');
    panel.innerHTML = '';
    panel.appendChild(node('h1', {}, [data.file]));
    panel.appendChild(node('div', {}, [data.format + ': ' + data.description]));
    var skeletonName = info.skeleton_file ? String(info.skeleton_file).split(/[\\/]/).pop() : 'none';
    var facts = [['version', info.version], ['skeleton file', skeletonName],
                 ['joints', (info.joints || []).length || state.joints.length], ['clips', (info.clips || []).length],
                 ['events', (info.events || []).length], ['up axis', data.up]];
    if (info.skeleton_note) facts.splice(2, 0, ['', info.skeleton_note]);
    panel.appendChild(table(facts.map(function (f) {
      return node('tr', {}, [node('td', {}, [f[0]]), node('td', {}, [text(f[1])])]);
    })));
    if (info.decode_error) panel.appendChild(node('p', { class: 'warning' }, [info.decode_error]));
    // Damaged parts (no clip from them), then warnings (textures or meshes left out among
    // them): the first few, then the rest folded (a moveset can have hundreds).
    var damaged = (info.damaged || []).map(function (d) {
      return node('p', { class: 'warning damaged' }, ['damaged, no clip from it: ' + text(d)]);
    });
    var warnings = damaged.concat((info.warnings || []).map(function (w) {
      return node('p', { class: 'warning' }, ['warning: ' + text(w)]);
    }));
    warnings.slice(0, 3).forEach(function (w) { panel.appendChild(w); });
    if (warnings.length > 3) {
      panel.appendChild(node('details', { class: 'warnings' },
                             [node('summary', {}, [(warnings.length - 3) + ' more warnings'])].concat(warnings.slice(3))));
    }

    panel.appendChild(node('h2', {}, ['Clips']));
    var clips = info.clips || [];
    // The clip shown, as a row of info's clips (the page's clips are the glb's: with --clip, one).
    var current = state.clip >= 0 ? state.clips[state.clip].info : -1;
    if (!clips.length) panel.appendChild(node('p', { class: 'dim' }, ['none: the rest pose is shown']));
    else {
      // Fits the panel: the name cut with an ellipsis (whole in its tooltip), the duration
      // and loop in the tooltip too. A clip the page does not carry (--clip) is dimmed.
      var clipTable = table(clips.map(function (c, i) {
        var joints = c.joint_count !== undefined ? c.joint_count : (c.joints || []).length;
        var at = pageClip(i);
        var row = node('tr', { class: 'clip' + (i === current ? ' current' : '') + (at < 0 ? ' absent' : ''),
                               title: c.name + ': ' + text(c.frames) + ' frames at ' + rateText(c) + ' fps, ' + text(c.duration) +
                                      ' s' + (c.loop ? ', loops' : '') + ', ' + joints + ' joints, ' + text(c.events) + ' events' +
                                      (at < 0 ? ' (not on this page: it was made with --clip ' + data.clip + ')' : '') }, [
          node('td', { class: 'name' }, [c.name]), node('td', { class: 'n' }, [text(c.frames)]), node('td', { class: 'n' }, [rateText(c)]),
          node('td', { class: 'n' }, [String(joints)]), node('td', { class: 'n' }, [text(c.events)])]);
        row.addEventListener('click', function () { if (at >= 0) chooseClip(at); });
        return row;
      }), [['clip'], ['frames', 1], ['fps', 1], ['joints', 1], ['events', 1]]);
      clipTable.className = 'clips';
      panel.appendChild(clipTable);
    }

    var events = current >= 0 && clips[current] ? eventsOf(info, current) : info.events || [];
    if (events.length) {
      panel.appendChild(node('h2', {}, ['Events' + (current >= 0 && clips[current] ? ' of ' + clips[current].name : '')]));
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
