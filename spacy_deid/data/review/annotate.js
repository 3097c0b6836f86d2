// The review page's annotation view (spacy-deid, MIT). Inlined into the page
// by spacy_deid/review/page.py; the page's Content-Security-Policy allows this
// script by its hash and forbids every request, so nothing leaves the machine.
//
// State: one list of spans per note, each {start, end, label, state, was,
// score, provenance}; offsets count Unicode code points, as Python and the
// i2b2 2014 files do. States: pending (removed by the pipeline, not yet
// reviewed), suggested (scored, not removed), accepted, rejected, added.
// Progress is kept in localStorage: offsets, labels and states only, never
// note text. Export: a ZIP of i2b2 2014 XML files, one per note, or JSONL
// (one line per note: id, text, review mark and spans, spacy_deid/corpus/jsonl.py).
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("review-data").textContent);
  var STORE_KEY = "spacy-deid-review/" + DATA.page;
  var EXPORTED = { pending: "unreviewed", accepted: "accepted", added: "added" };
  var notes = DATA.notes.map(function (n) {
    return { id: n.id, text: n.text, cps: Array.from(n.text), done: !!n.done,
      spans: n.spans.map(function (s) { return Object.assign({}, s); }) };
  });
  var focus = null; // {note, span}
  var lastNote = 0;
  var history = [];
  var addLabel = DATA.subtypes[0];

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function slice(note, a, b) { return note.cps.slice(a, b).join(""); }
  function categoryOf(label) { return DATA.category_of[label] || "OTHER"; }

  // --- saving -------------------------------------------------------------
  function snapshot() {
    return JSON.stringify(notes.map(function (n) {
      return { done: n.done, spans: n.spans.map(function (s) {
        return { start: s.start, end: s.end, label: s.label, state: s.state, was: s.was || null,
          score: s.score, provenance: s.provenance };
      }) };
    }));
  }
  function restore(text) {
    var saved = JSON.parse(text);
    if (!Array.isArray(saved) || saved.length !== notes.length) return false;
    saved.forEach(function (s, i) { notes[i].done = !!s.done; notes[i].spans = s.spans; });
    return true;
  }
  function save() {
    try {
      localStorage.setItem(STORE_KEY, snapshot());
      status("saved in this browser");
    } catch (err) {
      status("NOT saved: this browser refuses local storage; export to keep your work");
    }
  }
  function change(fn) {
    history.push(snapshot());
    if (history.length > 200) history.shift();
    fn();
    save();
    renderAll();
  }
  function undo() {
    if (!history.length) return;
    restore(history.pop());
    save();
    renderAll();
  }

  // --- drawing ------------------------------------------------------------
  function markFor(note, ni, si) {
    var span = note.spans[si];
    var classes = ["phi", "cat-" + categoryOf(span.label).toLowerCase(), "st-" + span.state];
    if (span.state === "suggested" || span.state === "rejected") classes.push("rejected");
    if (focus && focus.note === ni && focus.span === si) classes.push("focused");
    var mark = el("mark", {
      "class": classes.join(" "), "data-note": ni, "data-span": si, "data-label": span.label,
      "data-state": span.state, "data-removed": String(span.state !== "suggested" &&
        span.state !== "rejected"), tabindex: "-1",
      title: span.label + (span.was ? " (was " + span.was + ")" : "") + " · " + span.state +
        (span.score === null || span.score === undefined ? "" : " · score " +
          Number(span.score).toFixed(2)) + (span.provenance ? " · " + span.provenance : "")
    });
    if (span.state !== "rejected" && span.state !== "suggested")
      mark.style.background = DATA.colours[categoryOf(span.label)];
    mark.appendChild(el("span", { "class": "t", "data-start": span.start }, slice(note, span.start, span.end)));
    mark.appendChild(el("span", { "class": "phi-label" }, span.label));
    var flags = { pending: "", suggested: "?", accepted: "✓", rejected: "✗", added: "+" };
    if (flags[span.state]) mark.appendChild(el("span", { "class": "phi-flag" }, flags[span.state]));
    return mark;
  }
  function renderNote(ni) {
    var note = notes[ni];
    var box = document.querySelector('#note-' + ni + ' .text');
    box.textContent = "";
    note.spans.sort(function (a, b) { return a.start - b.start || a.end - b.end; });
    var position = 0;
    note.spans.forEach(function (span, si) {
      if (span.start < position) return; // overlaps are never drawn twice
      if (span.start > position)
        box.appendChild(el("span", { "class": "t", "data-start": position }, slice(note, position, span.start)));
      box.appendChild(markFor(note, ni, si));
      position = span.end;
    });
    if (position < note.cps.length)
      box.appendChild(el("span", { "class": "t", "data-start": position }, slice(note, position)));
    var done = document.querySelector('#note-' + ni + ' input.done');
    done.checked = note.done;
  }
  function renderAll() {
    notes.forEach(function (_, ni) { renderNote(ni); });
    var decided = 0, total = 0;
    notes.forEach(function (n) {
      n.spans.forEach(function (s) {
        total += 1;
        if (s.state !== "pending" && s.state !== "suggested") decided += 1;
      });
    });
    $("progress").textContent = decided + " of " + total + " spans decided; " +
      notes.filter(function (n) { return n.done; }).length + " of " + notes.length + " notes done";
    showFocus();
  }
  function showFocus() {
    var info = $("focus-info");
    if (!focus) { info.textContent = "No span selected (click one, or press j)."; return; }
    var span = notes[focus.note].spans[focus.span];
    info.textContent = notes[focus.note].id + ": " + span.label + " · " + span.state;
    $("label-select").value = span.label;
    var mark = document.querySelector('mark[data-note="' + focus.note + '"][data-span="' + focus.span + '"]');
    if (mark) mark.scrollIntoView({ block: "nearest" });
  }
  function status(text) { $("status").textContent = text; }

  // --- actions --------------------------------------------------------------
  function allSpans() {
    var out = [];
    notes.forEach(function (n, ni) { n.spans.forEach(function (_, si) { out.push({ note: ni, span: si }); }); });
    return out;
  }
  function move(step) {
    var order = allSpans();
    if (!order.length) return;
    var at = focus ? order.findIndex(function (p) { return p.note === focus.note && p.span === focus.span; }) : -1;
    var next = at < 0 ? (step > 0 ? 0 : order.length - 1) : Math.min(order.length - 1, Math.max(0, at + step));
    focus = order[next];
    lastNote = focus.note;
    renderAll();
  }
  function setState(state) {
    if (!focus) return;
    change(function () { notes[focus.note].spans[focus.span].state = state; });
  }
  function relabel(label) {
    if (!focus || DATA.subtypes.indexOf(label) < 0) return;
    change(function () {
      var span = notes[focus.note].spans[focus.span];
      if (span.label === label) return;
      if (!span.was && span.state !== "added") span.was = span.label;
      span.label = label;
      if (span.state === "pending" || span.state === "suggested") span.state = "accepted";
    });
  }
  function boundary(node, offset, isEnd) {
    // The code-point offset of a DOM selection boundary inside a note's text.
    if (node.nodeType === 3 && node.parentElement.classList.contains("t"))
      return Number(node.parentElement.dataset.start) + Array.from(node.data.slice(0, offset)).length;
    var box = (node.nodeType === 3 ? node.parentElement : node).closest(".text");
    if (!box) return null;
    var point = document.createRange();
    point.setStart(node, offset);
    var pieces = Array.from(box.querySelectorAll(".t"));
    if (!isEnd) {
      for (var i = 0; i < pieces.length; i++)
        if (point.comparePoint(pieces[i], 0) >= 0) return Number(pieces[i].dataset.start);
    } else {
      for (var j = pieces.length - 1; j >= 0; j--)
        if (point.comparePoint(pieces[j], pieces[j].childNodes.length) <= 0)
          return Number(pieces[j].dataset.start) + Array.from(pieces[j].textContent).length;
    }
    return null;
  }
  function selectionSpan() {
    var sel = window.getSelection();
    if (!sel || sel.isCollapsed || !sel.rangeCount) return null;
    var range = sel.getRangeAt(0);
    var box = range.commonAncestorContainer;
    box = (box.nodeType === 3 ? box.parentElement : box).closest("section.note");
    if (!box) return null;
    var ni = Number(box.dataset.index);
    var start = boundary(range.startContainer, range.startOffset, false);
    var end = boundary(range.endContainer, range.endOffset, true);
    if (start === null || end === null || end <= start) return null;
    var cps = notes[ni].cps;
    while (start < end && /\s/.test(cps[start])) start += 1;
    while (end > start && /\s/.test(cps[end - 1])) end -= 1;
    return end > start ? { note: ni, start: start, end: end } : null;
  }
  function addSelection() {
    var picked = selectionSpan();
    if (!picked) { status("Select the missed text in a note first."); return; }
    var note = notes[picked.note];
    var clash = note.spans.some(function (s) {
      return s.start < picked.end && picked.start < s.end && s.state !== "rejected" && s.state !== "suggested";
    });
    if (clash) { status("The selection overlaps a span: reject that span first."); return; }
    change(function () {
      note.spans = note.spans.filter(function (s) { return !(s.start < picked.end && picked.start < s.end); });
      note.spans.push({ start: picked.start, end: picked.end, label: addLabel, state: "added",
        was: null, score: null, provenance: "reviewer" });
      note.spans.sort(function (a, b) { return a.start - b.start; });
      focus = { note: picked.note, span: note.spans.findIndex(function (s) { return s.start === picked.start; }) };
    });
    window.getSelection().removeAllRanges();
  }
  function toggleDone(ni) {
    if (ni === null || ni === undefined) return;
    change(function () { notes[ni].done = !notes[ni].done; });
  }

  // --- export: i2b2 2014 XML files in a ZIP ----------------------------------
  function escapeData(text) { return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }
  function textBody(text) {
    // As spacy_deid/corpus/xml_text.text_element_body: CDATA unless the text holds a CR.
    if (text.indexOf("\r") < 0) return "<![CDATA[" + text.split("]]>").join("]]]]><![CDATA[>") + "]]>";
    return escapeData(text).replace(/\r/g, "&#13;");
  }
  function attribute(value) {
    var map = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;" };
    return '"' + String(value).replace(/[&<>"\n\r\t]/g, function (c) { return map[c]; }) + '"';
  }
  function noteXml(note) {
    var lines = ['<?xml version="1.0" encoding="UTF-8" ?>',
      "<!-- spacy-deid review: " + (note.done ? "done" : "in progress") + " -->",
      "<deIdi2b2>", "<TEXT>" + textBody(note.text) + "</TEXT>", "<TAGS>"];
    var kept = note.spans.filter(function (s) { return EXPORTED[s.state]; });
    kept.forEach(function (s, i) {
      var comment = "review=" + EXPORTED[s.state] + (s.was ? " was=" + s.was : "") +
        (s.score === null || s.score === undefined ? "" : " score=" + Number(s.score).toFixed(3));
      lines.push("<" + categoryOf(s.label) + " id=" + attribute("P" + i) + " start=" + attribute(s.start) +
        " end=" + attribute(s.end) + " text=" + attribute(slice(note, s.start, s.end)) + " TYPE=" +
        attribute(s.label) + " comment=" + attribute(comment) + " />");
    });
    lines.push("</TAGS>", "</deIdi2b2>", "");
    return lines.join("\n");
  }
  var CRC_TABLE = (function () {
    var table = [];
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table.push(c >>> 0);
    }
    return table;
  })();
  function crc32(bytes) {
    var c = 0xffffffff;
    for (var i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  }
  function zip(files) {
    // A ZIP archive of stored (uncompressed) entries with UTF-8 names.
    var encoder = new TextEncoder(), parts = [], central = [], offset = 0;
    function header(size) { var b = new DataView(new ArrayBuffer(size)); return b; }
    files.forEach(function (f) {
      var name = encoder.encode(f.name), data = encoder.encode(f.text), crc = crc32(data);
      var local = header(30);
      [[0, 0x04034b50, 4], [4, 20, 2], [6, 0x0800, 2], [8, 0, 2], [10, 0, 2], [12, 0x21, 2],
        [14, crc, 4], [18, data.length, 4], [22, data.length, 4], [26, name.length, 2], [28, 0, 2]]
        .forEach(function (p) { p[2] === 4 ? local.setUint32(p[0], p[1], true) : local.setUint16(p[0], p[1], true); });
      var entry = header(46);
      [[0, 0x02014b50, 4], [4, 20, 2], [6, 20, 2], [8, 0x0800, 2], [10, 0, 2], [12, 0, 2], [14, 0x21, 2],
        [16, crc, 4], [20, data.length, 4], [24, data.length, 4], [28, name.length, 2], [30, 0, 2],
        [32, 0, 2], [34, 0, 2], [36, 0, 2], [38, 0, 4], [42, offset, 4]]
        .forEach(function (p) { p[2] === 4 ? entry.setUint32(p[0], p[1], true) : entry.setUint16(p[0], p[1], true); });
      parts.push(local, name, data);
      central.push(entry, name);
      offset += 30 + name.length + data.length;
    });
    var size = central.reduce(function (t, p) { return t + p.byteLength; }, 0);
    var end = header(22);
    [[0, 0x06054b50, 4], [4, 0, 2], [6, 0, 2], [8, files.length, 2], [10, files.length, 2],
      [12, size, 4], [16, offset, 4], [20, 0, 2]]
      .forEach(function (p) { p[2] === 4 ? end.setUint32(p[0], p[1], true) : end.setUint16(p[0], p[1], true); });
    return new Blob(parts.concat(central, [end]), { type: "application/zip" });
  }
  function fileName(id, taken) {
    var base = id.replace(/\.(txt|xml|jsonl|csv)$/i, "").replace(/[^A-Za-z0-9._-]+/g, "_") || "note";
    var name = base, i = 2;
    while (taken[name.toLowerCase()]) name = base + "-" + i++;
    taken[name.toLowerCase()] = true;
    return name + ".xml";
  }
  // --- export: JSONL, one note per line ---------------------------------------
  function noteJson(note) {
    var spans = note.spans.filter(function (s) { return EXPORTED[s.state]; }).map(function (s) {
      var span = { start: s.start, end: s.end, label: s.label, text: slice(note, s.start, s.end),
        review: EXPORTED[s.state] };
      if (s.was) span.was = s.was;
      if (s.score !== null && s.score !== undefined) span.score = Number(Number(s.score).toFixed(3));
      return span;
    });
    // JSON.stringify escapes line breaks in strings: one line per note (the reader
    // splits at "\n" only, so U+2028 inside a string is no break).
    return JSON.stringify({ note_id: note.id, text: note.text,
      review: note.done ? "done" : "in progress", spans: spans });
  }
  function exportNotes() {
    var doneOnly = $("done-only").checked, taken = {};
    var jsonl = $("export-format").value === "jsonl";
    var chosen = notes.filter(function (n) { return n.done || !doneOnly; });
    if (!chosen.length) { status("No notes to export (none is marked done)."); return; }
    var name = jsonl ? DATA.export_name.replace(/\.zip$/i, "") + ".jsonl" : DATA.export_name;
    var blob = jsonl
      ? new Blob([chosen.map(noteJson).join("\n") + "\n"], { type: "application/x-ndjson" })
      : zip(chosen.map(function (n) { return { name: fileName(n.id, taken), text: noteXml(n) }; }));
    var link = el("a", { download: name });
    link.href = URL.createObjectURL(blob); // a local object URL: the file never leaves the machine
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
    status("Exported " + chosen.length + " notes to " + name + " (it holds note text).");
  }

  // --- events ---------------------------------------------------------------
  document.addEventListener("click", function (event) {
    var mark = event.target.closest("mark.phi");
    var section = event.target.closest("section.note");
    if (section) lastNote = Number(section.dataset.index);
    if (mark && window.getSelection().isCollapsed) {
      focus = { note: Number(mark.dataset.note), span: Number(mark.dataset.span) };
      renderAll();
    }
  });
  document.addEventListener("keydown", function (event) {
    var tag = event.target.tagName;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      if (event.target.id === "label-input" && event.key === "Enter") {
        var value = event.target.value.trim().toUpperCase();
        event.target.value = "";
        $("label-box").hidden = true;
        relabel(value);
        event.preventDefault();
      } else if (event.key === "Escape") { event.target.blur(); $("label-box").hidden = true; }
      return;
    }
    var actions = {
      j: function () { move(1); }, k: function () { move(-1); },
      a: function () { setState("accepted"); }, x: function () { setState("rejected"); },
      Delete: function () { setState("rejected"); },
      l: function () { if (focus) { $("label-box").hidden = false; $("label-input").focus(); } },
      m: addSelection, u: undo,
      d: function () { toggleDone(focus ? focus.note : lastNote); },
      e: exportNotes
    };
    if (actions[event.key]) { event.preventDefault(); actions[event.key](); }
  });
  $("accept").addEventListener("click", function () { setState("accepted"); });
  $("reject").addEventListener("click", function () { setState("rejected"); });
  $("label-select").addEventListener("change", function (e) { relabel(e.target.value); });
  $("add-label").addEventListener("change", function (e) { addLabel = e.target.value; });
  $("add").addEventListener("mousedown", function (e) { e.preventDefault(); }); // keep the selection
  $("add").addEventListener("click", addSelection);
  $("undo").addEventListener("click", undo);
  $("export").addEventListener("click", exportNotes);
  $("forget").addEventListener("click", function () {
    localStorage.removeItem(STORE_KEY);
    status("Saved progress removed from this browser (the page keeps what it shows until reloaded).");
  });
  document.querySelectorAll("input.done").forEach(function (box) {
    box.addEventListener("change", function () { toggleDone(Number(box.dataset.note)); });
  });

  [$("label-select"), $("add-label")].forEach(function (select) {
    Object.keys(DATA.subtypes_by_category).forEach(function (category) {
      var group = el("optgroup", { label: category });
      DATA.subtypes_by_category[category].forEach(function (s) { group.appendChild(el("option", { value: s }, s)); });
      select.appendChild(group);
    });
  });
  var saved = null;
  try { saved = localStorage.getItem(STORE_KEY); } catch (err) { saved = null; }
  if (saved && restore(saved)) status("Progress restored from this browser.");
  document.body.classList.add("annotating");
  renderAll();
})();
