// SPDX-License-Identifier: MIT
// The trace report's interactive parts (tools/tacet/trace/report.py inlines this file): the
// CPU share per thread over the whole trace, the timeline's lanes and the event list, all
// drawn from the JSON in #tl-data. Only what is on screen becomes SVG or list items (a lane's
// slices are summed per 2-pixel column, so a trace of any length draws a few shapes a lane;
// the event list draws the items in its scroll window).
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("tl-data").textContent);
  var svg = document.getElementById("tl-svg");
  var box = document.getElementById("tl-box");
  var ovSvg = document.getElementById("ov-svg");
  var ovBox = document.getElementById("ov-box");
  var tip = document.getElementById("tooltip");
  var rangeLabel = document.getElementById("tl-range");

  var STRIDE = 7, LABEL_W = 150, LANE_H = 26, AXIS_H = 20, PAD = 8, BUCKET = 2, SVC_H = 5;
  var STRIP = 12;  // the height of a way of waiting in a lane (running: the lane's height)
  var INV_H = D.inv.length ? 14 : 0;
  var OV_SHARE_H = 150, OV_GAP = 10, OV_RATE_H = 40, OV_AXIS_H = 16, OV_TOP = 8;
  var lanes = D.lanes, states = D.states, NS = states.length;
  var RUN = states.indexOf("running"), HELD = states.indexOf("held");
  var DEFERRED = states.indexOf("deferred");
  var dur = D.duration > 0 ? D.duration : 1;
  var MIN_SPAN = Math.max(dur * 1e-9, 0.001);
  var v0 = 0, v1 = dur, highlight = -1, plotW = 100, cursor = -1;

  // The timeline's rows, top down: the interrupt handlers (when there are any), then a lane
  // each context, in the analysis's order (HISRs, threads by priority, idle).
  var rows = [];
  if (D.isr.length) rows.push({isr: true, lane: -1});
  for (var li = 0; li < lanes.length; li++) rows.push({isr: false, lane: li});
  var rowOfLane = {};
  rows.forEach(function (r, i) { if (!r.isr) rowOfLane[r.lane] = i; });
  var isrRow = D.isr.length ? 0 : -1;

  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c];
    });
  }
  function fmt(us) {
    var a = Math.abs(us);
    if (a >= 1e6) return (us / 1e6).toFixed(3) + " s";
    if (a >= 1e3) return (us / 1e3).toFixed(3) + " ms";
    return us.toFixed(a >= 100 ? 1 : 2) + " µs";
  }
  function pct(x) { return (100 * x).toFixed(x >= 0.1 ? 0 : 1) + " %"; }
  function x(t) { return LABEL_W + (t - v0) / (v1 - v0) * plotW; }
  function clampView() {
    var span = Math.min(Math.max(v1 - v0, MIN_SPAN), dur);
    if (v0 < 0) v0 = 0;
    if (v0 + span > dur) v0 = dur - span;
    v1 = v0 + span;
  }
  // The first item of a flat list (`stride` numbers each, start and length first) that ends
  // after t.
  function firstAfter(s, t, stride) {
    var lo = 0, hi = s.length / stride;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (s[mid * stride] + s[mid * stride + 1] <= t) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
  // The first index of the sorted array a whose value is at least t.
  function lowerBound(a, t) {
    var lo = 0, hi = a.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (a[mid] < t) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
  function niceStep(raw) {
    var p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
    return p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10);
  }
  function rect(x0, y0, w, h) {
    return "M" + x0.toFixed(1) + "," + y0.toFixed(1) + "h" + w.toFixed(1) + "v" + h.toFixed(1) +
           "h" + (-w).toFixed(1) + "z";
  }
  function laneName(l) { return l >= 0 && l < lanes.length ? lanes[l].name : "?"; }
  function laneTitle(l) {
    var ln = lanes[l];
    var what = ln.kind === "hisr" ? "HISR" : ln.kind;
    var p = ln.prio === null ? "" : ", priority " + ln.prio +
            (ln.thr === null || ln.thr === undefined ? "" : ", threshold " + ln.thr);
    return "<b>" + esc(ln.name) + "</b> (" + esc(what) + p + ")";
  }
  function showTip(e, lines) {
    tip.innerHTML = lines.join("<br>");
    tip.hidden = false;
    var w = tip.offsetWidth, hgt = tip.offsetHeight;
    var left = e.clientX + 14, topPx = e.clientY + 14;
    if (left + w > window.innerWidth - 4) left = e.clientX - w - 14;
    if (topPx + hgt > window.innerHeight - 4) topPx = e.clientY - hgt - 14;
    tip.style.left = Math.max(left, 4) + "px";
    tip.style.top = Math.max(topPx, 4) + "px";
  }
  function axis(out, top, height, y) {
    var step = niceStep((v1 - v0) / Math.max(plotW / 110, 1));
    out.push('<g class="axis">');
    for (var t = Math.ceil(v0 / step) * step; t <= v1 + 1e-12; t += step) {
      var tx = x(t).toFixed(1), near = x(t) > LABEL_W + plotW - 32;  // the right edge: end there
      out.push('<line class="tick" x1="' + tx + '" x2="' + tx + '" y1="' + top + '" y2="' +
               height + '"/><text x="' + tx + '" y="' + y + '" text-anchor="' +
               (near ? "end" : "middle") + '">' + esc(fmt(t)) + "</text>");
    }
    out.push("</g>");
  }

  // ---- the event list's data, and each row's service calls --------------------------------
  var E = D.events, NE = E.t.length;
  var texts = E.texts, names = E.names;
  var kindIndex = {};
  E.kinds.forEach(function (k, i) { kindIndex[k] = i; });
  var SERVICE = kindIndex.service;
  var failed = texts.map(function (t) { return !/\u2192 TC_OK$/.test(t); });
  var svcByRow = rows.map(function () { return []; });
  for (var ei = 0; ei < NE; ei++) {
    if (E.kind[ei] !== SERVICE) continue;
    var r = E.irq[ei] && isrRow >= 0 ? isrRow : rowOfLane[E.lane[ei]];
    if (r !== undefined) svcByRow[r].push(ei);
  }

  // ---- the timeline -------------------------------------------------------------------------

  function render() {
    var width = Math.max(box.clientWidth, 320);
    plotW = width - LABEL_W - PAD;
    var top = AXIS_H + INV_H;
    var height = top + Math.max(rows.length, 1) * LANE_H + 4;
    var out = [], i, k;
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    for (i = 0; i < rows.length; i++) {
      if (i % 2 === 0) {
        out.push('<rect class="lane-bg" x="0" y="' + (top + i * LANE_H) + '" width="' + width +
                 '" height="' + LANE_H + '"/>');
      }
    }
    axis(out, AXIS_H - 4, height, AXIS_H - 8);
    if (!rows.length) {
      out.push('<text x="' + PAD + '" y="' + (top + 16) + '">No contexts in this trace.</text>');
    }
    var roles = {};
    if (highlight >= 0) {
      var h = D.inv[highlight];
      roles[h[2]] = "H"; roles[h[3]] = "M"; roles[h[4]] = "L";
    }
    for (i = 0; i < rows.length; i++) {
      var y = top + i * LANE_H, row = rows[i];
      if (row.isr) {
        out.push('<text class="lane-label" data-row="' + i + '" x="' + PAD + '" y="' +
                 (y + LANE_H / 2 + 4) + '">interrupts</text>');
        drawIsr(out, y);
      } else {
        var ln = lanes[row.lane], l = row.lane;
        var label = ln.name + (ln.kind === "hisr" ? " (HISR)" : ln.prio === null ? "" :
                                " (" + ln.prio + ")");
        out.push('<rect x="' + (PAD - 2) + '" y="' + (y + 6) + '" width="4" height="' +
                 (LANE_H - 12) + '" fill="' + ln.colour + '"/>');
        out.push('<text class="lane-label' + (roles[l] ? " hl-lane" : "") + '" data-lane="' +
                 l + '" data-ctx="' + esc(ln.id) + '" x="' + (PAD + 6) + '" y="' +
                 (y + LANE_H / 2 + 4) + '">' +
                 (roles[l] ? '<tspan class="role">' + roles[l] + " </tspan>" : "") +
                 esc(label.length > 22 ? label.slice(0, 21) + "…" : label) + "</text>");
        drawLane(out, l, y);
      }
      drawCalls(out, i, y);
    }
    for (k = 0; k < D.inv.length; k++) {
      var v = D.inv[k];
      if (v[1] < v0 || v[0] > v1) continue;
      var a = Math.max(x(v[0]), LABEL_W), b = Math.min(x(v[1]), LABEL_W + plotW);
      out.push('<rect class="inv-mark ' + (v[5] ? "inv-b" : "inv-u") + '" data-k="' + k +
               '" x="' + a.toFixed(1) + '" y="' + (AXIS_H + 2) + '" width="' +
               Math.max(b - a, 2).toFixed(1) + '" height="' + (INV_H - 5) + '"/>');
    }
    if (highlight >= 0) {
      var hv = D.inv[highlight];
      var ha = Math.max(x(hv[0]), LABEL_W), hb = Math.min(x(hv[1]), LABEL_W + plotW);
      out.push('<rect id="tl-highlight" class="hl" x="' + ha.toFixed(1) + '" y="' + AXIS_H +
               '" width="' + Math.max(hb - ha, 2).toFixed(1) + '" height="' +
               (height - AXIS_H) + '"/>');
      [hv[2], hv[3], hv[4]].forEach(function (l) {
        out.push('<rect class="hl-row" x="1" y="' + (top + rowOfLane[l] * LANE_H + 1) +
                 '" width="' + (width - 2) + '" height="' + (LANE_H - 2) + '"/>');
      });
    }
    if (cursor >= 0 && cursor >= v0 && cursor <= v1) {
      var cx = x(cursor).toFixed(1);
      out.push('<line id="tl-cursor" class="cursor" x1="' + cx + '" x2="' + cx + '" y1="' +
               AXIS_H + '" y2="' + height + '"/>');
    }
    svg.innerHTML = out.join("");
    svg.setAttribute("data-v0", v0);
    svg.setAttribute("data-v1", v1);
    // The layout, for whoever needs to point at a time and a row (the browser test).
    svg.setAttribute("data-plot", LABEL_W + " " + plotW + " " + top + " " + LANE_H);
    svg.setAttribute("data-dur", dur);
    rangeLabel.textContent = fmt(v0) + " \u2013 " + fmt(v1) + "  (" + fmt(v1 - v0) +
      " shown, \u00d7" + (dur / (v1 - v0)).toFixed(1) + ")";
    renderOverview();
    eventsChanged();
  }

  // A lane: each column's time per state. Where one slice fills the column it is drawn as
  // itself (running full height, a way of waiting as a strip); where several share it, the
  // running part is a column of that height over a strip of the way it waited most.
  function drawLane(out, l, y) {
    var s = lanes[l].s, n = s.length / STRIDE, idle = lanes[l].kind === "idle";
    var B = Math.max(1, Math.ceil(plotW / BUCKET)), bw = (v1 - v0) / B;
    var acc = new Float64Array(B * NS), k;
    for (var i = firstAfter(s, v0, STRIDE); i < n && s[i * STRIDE] < v1; i++) {
      var a = Math.max(s[i * STRIDE], v0), b = Math.min(s[i * STRIDE] + s[i * STRIDE + 1], v1);
      var st = s[i * STRIDE + 2];
      var k0 = Math.min(B - 1, Math.floor((a - v0) / bw));
      var k1 = Math.min(B - 1, Math.floor((b - v0) / bw));
      for (k = k0; k <= k1; k++) {
        var lo = Math.max(a, v0 + k * bw), hi = Math.min(b, v0 + (k + 1) * bw);
        if (hi > lo) acc[k * NS + st] += hi - lo;
      }
    }
    // The ways of waiting share the strip in proportion to their time in the column,
    // stacked down from its top in a fixed order; the running column grows up from the
    // lane's bottom. With these heights the two never overlap (12 w + 17 r <= 17 when
    // w + r <= 1). Equal neighbours merge into one rectangle.
    var TOP = y + SVC_H + 2, BOTTOM = y + LANE_H - 2, FULL = BOTTOM - TOP;
    var paths = {}, run = null, strips = {};
    function add(cls, d) { paths[cls] = (paths[cls] || "") + d; }
    function flushRun() {
      if (run) add(idle ? "s-idle" : "s-running",
                   rect(run.x0, BOTTOM - run.h, run.x1 - run.x0, run.h));
      run = null;
    }
    function flushStrip(q) {
      var p = strips[q];
      if (p) add("s-" + states[q], rect(p.x0, TOP + p.off, p.x1 - p.x0, p.h));
      strips[q] = null;
    }
    for (k = 0; k < B; k++) {
      var x0 = LABEL_W + k * BUCKET, x1 = Math.min(x0 + BUCKET, LABEL_W + plotW), off = 0;
      var ran = acc[k * NS + RUN];
      var hgt = ran > 0 ? Math.max(1, Math.round(FULL * ran / bw * 2) / 2) : 0;
      if (hgt > 0 && run && run.h === hgt && run.x1 >= x0) run.x1 = x1;
      else { flushRun(); if (hgt > 0) run = {x0: x0, x1: x1, h: hgt}; }
      for (var q = 0; q < NS; q++) {
        if (q === RUN) continue;
        var tq = acc[k * NS + q];
        var hq = tq > 0 ? Math.max(1, Math.round(STRIP * tq / bw * 2) / 2) : 0;
        var p = strips[q];
        if (hq > 0 && p && p.h === hq && p.off === off && p.x1 >= x0) p.x1 = x1;
        else { flushStrip(q); if (hq > 0) strips[q] = {x0: x0, x1: x1, h: hq, off: off}; }
        off += hq;
      }
    }
    flushRun();
    for (var fq = 0; fq < NS; fq++) if (fq !== RUN) flushStrip(fq);
    var order = states.filter(function (st, q) { return q !== RUN; }).map(function (st) {
      return "s-" + st;
    }).concat(["s-running", "s-idle"]);
    order.forEach(function (cls) {
      if (paths[cls]) {
        out.push('<path class="slice ' + cls + '" data-l="' + l + '" d="' + paths[cls] + '"/>');
      }
    });
    // A wide stretch held off by the running thread says by whom.
    for (i = firstAfter(s, v0, STRIDE); i < n && s[i * STRIDE] < v1; i++) {
      var stt = s[i * STRIDE + 2];
      if (stt !== HELD && stt !== DEFERRED) continue;
      var sx0 = Math.max(x(s[i * STRIDE]), LABEL_W);
      var sx1 = Math.min(x(s[i * STRIDE] + s[i * STRIDE + 1]), LABEL_W + plotW);
      if (sx1 - sx0 < 110 || s[i * STRIDE + 6] < 0) continue;
      out.push('<text class="held-label" x="' + ((sx0 + sx1) / 2).toFixed(1) + '" y="' +
               (y + SVC_H + 2 + STRIP / 2 + 3.5) + '" text-anchor="middle">held by ' +
               esc(laneName(s[i * STRIDE + 6])) + (stt === HELD ? "'s threshold" : "'s lock") +
               "</text>");
    }
  }

  // The interrupt handlers' row: each column's share of time in a handler.
  function drawIsr(out, y) {
    var s = D.isr, n = s.length / 3;
    var B = Math.max(1, Math.ceil(plotW / BUCKET)), bw = (v1 - v0) / B;
    var acc = new Float64Array(B), cnt = new Uint32Array(B), k, d = "";
    for (var i = firstAfter(s, v0, 3); i < n && s[i * 3] < v1; i++) {
      var a = Math.max(s[i * 3], v0), b = Math.min(s[i * 3] + s[i * 3 + 1], v1);
      var k0 = Math.min(B - 1, Math.floor((a - v0) / bw));
      var k1 = Math.min(B - 1, Math.floor((b - v0) / bw));
      cnt[k0]++;
      for (k = k0; k <= k1; k++) {
        var lo = Math.max(a, v0 + k * bw), hi = Math.min(b, v0 + (k + 1) * bw);
        if (hi > lo) acc[k] += hi - lo;
      }
    }
    var FULL = LANE_H - 6;
    for (k = 0; k < B; k++) {
      if (!cnt[k] && !acc[k]) continue;
      var hgt = Math.max(1, Math.round(FULL * acc[k] / bw * 2) / 2);
      d += rect(LABEL_W + k * BUCKET, y + 3 + FULL - hgt, BUCKET, hgt);
    }
    if (d) out.push('<path class="slice s-isr" data-row="0" d="' + d + '"/>');
  }

  // A row's service calls: a tick a pixel column along its top, red where one failed.
  function drawCalls(out, r, y) {
    var list = svcByRow[r];
    if (!list.length) return;
    var lo = 0, b = list.length;
    while (lo < b) { var m = (lo + b) >> 1; if (E.t[list[m]] < v0) lo = m + 1; else b = m; }
    var ok = "", bad = "", last = -1, lastBad = -1;
    for (var i = lo; i < list.length && E.t[list[i]] <= v1; i++) {
      var e = list[i], px = Math.floor(x(E.t[e])) + 0.5;
      if (failed[E.x[e]]) {
        if (px !== lastBad) { bad += "M" + px + "," + (y + 1) + "v" + (SVC_H + 1); lastBad = px; }
      } else if (px !== last) {
        ok += "M" + px + "," + (y + 1) + "v" + SVC_H;
        last = px;
      }
    }
    // Calls closer than every third pixel column on average are drawn faint: a band that
    // says "many calls" without hiding the lane under it.
    var dense = (i - lo) > plotW / 3 ? " dense" : "";
    if (ok) out.push('<path class="svc' + dense + '" d="' + ok + '"/>');
    if (bad) out.push('<path class="svc-err" d="' + bad + '"/>');
  }

  function timeAt(clientX) {
    var r = svg.getBoundingClientRect();
    return v0 + (clientX - r.left - LABEL_W) / plotW * (v1 - v0);
  }
  function rowAt(clientY) {
    var r = svg.getBoundingClientRect();
    var yy = clientY - r.top - AXIS_H - INV_H;
    return {row: Math.floor(yy / LANE_H), within: yy - Math.floor(yy / LANE_H) * LANE_H};
  }
  // What a lane was doing in the pixel column at t: one slice, or a summary of several.
  function laneTip(l, t) {
    var s = lanes[l].s, n = s.length / STRIDE, px = (v1 - v0) / plotW;
    var lo = t - px / 2, hi = t + px / 2, found = [], i;
    for (i = firstAfter(s, lo, STRIDE); i < n && s[i * STRIDE] <= hi; i++) found.push(i);
    if (!found.length) return null;
    if (found.length === 1) return sliceTip(l, found[0]);
    var per = {}, total = 0;
    found.forEach(function (j) {
      var a = Math.max(s[j * STRIDE], lo), b = Math.min(s[j * STRIDE] + s[j * STRIDE + 1], hi);
      var st = states[s[j * STRIDE + 2]];
      per[st] = (per[st] || 0) + Math.max(0, b - a);
      total += Math.max(0, b - a);
    });
    var parts = Object.keys(per).sort(function (a, b) { return per[b] - per[a]; })
      .map(function (st) { return esc(D.labels[st] || st) + " " + pct(per[st] / (total || 1)); });
    return [laneTitle(l), fmt(lo) + " \u2013 " + fmt(hi) + " (one pixel)",
            parts.join(", "), found.length + " slices: zoom in to see each"];
  }
  function sliceTip(l, i) {
    var s = lanes[l].s, o = i * STRIDE, st = states[s[o + 2]];
    var lines = [laneTitle(l)];
    var what = "state: " + esc(st);
    if ((st === "held" || st === "deferred") && s[o + 6] >= 0) {
      var hl = s[o + 6], hs = lanes[hl].s, j = firstAfter(hs, s[o], STRIDE), hp = "";
      if (j < hs.length / STRIDE && hs[j * STRIDE + 4] >= 0) {
        hp = " (" + esc(lanes[hl].name) + " at priority " + hs[j * STRIDE + 4] +
             (hs[j * STRIDE + 5] >= 0 ? ", threshold " + hs[j * STRIDE + 5] : "") + ")";
      }
      what = st === "held" ?
        "<b>held off by " + esc(lanes[hl].name) + "'s preemption threshold</b>" + hp +
        ": ready, more urgent than the running thread, but not above its threshold" :
        "<b>held off by " + esc(lanes[hl].name) + "'s scheduler lock</b>" + hp;
    } else if (s[o + 3] >= 0) {
      what += " on " + esc(D.objects[s[o + 3]]);
    }
    lines.push(what, "start: " + fmt(s[o]) + ", duration: " + fmt(s[o + 1]));
    if (s[o + 4] >= 0) {
      lines.push("at priority " + s[o + 4] + (s[o + 5] >= 0 ? ", threshold " + s[o + 5] : ""));
    }
    return lines;
  }
  function isrTip(t) {
    var s = D.isr, n = s.length / 3, px = (v1 - v0) / plotW, found = [];
    for (var i = firstAfter(s, t - px, 3); i < n && s[i * 3] <= t + px; i++) found.push(i);
    if (!found.length) return null;
    if (found.length === 1) {
      var o = found[0] * 3;
      return ["<b>interrupt handler</b>, IRQ " + s[o + 2], "start: " + fmt(s[o]) +
              ", duration: " + fmt(s[o + 1])];
    }
    return ["<b>interrupt handlers</b>", found.length + " in this pixel: zoom in to see each"];
  }
  function callTip(r, t) {
    var list = svcByRow[r], px = (v1 - v0) / plotW * 2, lines = [], n = 0;
    for (var i = 0; i < list.length; i++) {
      var te = E.t[list[i]];
      if (te < t - px) continue;
      if (te > t + px) break;
      if (n < 6) lines.push(fmt(te) + ": " + esc(texts[E.x[list[i]]]));
      n++;
    }
    if (!n) return null;
    if (n > 6) lines.push("… " + (n - 6) + " more: zoom in, or see the event list");
    return ["<b>service calls</b>"].concat(lines);
  }
  function invTip(k) {
    var v = D.inv[k];
    return ["<b>" + (v[5] ? "bounded" : "unbounded") + " priority inversion</b>",
            "high: " + esc(laneName(v[2])) + ", medium: " + esc(laneName(v[3])) +
            ", low: " + esc(laneName(v[4])), "object: " + esc(v[6]),
            "from " + fmt(v[0]) + " for " + fmt(v[1] - v[0]), "click to zoom"];
  }
  function focusInversion(k) {
    var v = D.inv[k], len = Math.max(v[1] - v[0], MIN_SPAN);
    highlight = k;
    v0 = v[0] - len * 0.5; v1 = v[1] + len * 0.5;
    clampView(); render();
    document.querySelectorAll("tr.inversion").forEach(function (r) {
      r.classList.toggle("selected", Number(r.getAttribute("data-k")) === k);
    });
    box.scrollIntoView({block: "center"});
  }
  function zoom(centre, factor) {
    var a = centre - (centre - v0) * factor, b = centre + (v1 - centre) * factor;
    v0 = a; v1 = b; clampView(); render();
  }
  function pan(fraction) {
    var d = (v1 - v0) * fraction; v0 += d; v1 += d; clampView(); render();
  }
  function show(a, b) { v0 = a; v1 = b; clampView(); render(); }

  var drag = null;
  svg.addEventListener("wheel", function (e) {
    e.preventDefault();
    zoom(Math.min(Math.max(timeAt(e.clientX), v0), v1), e.deltaY < 0 ? 1 / 1.3 : 1.3);
  }, {passive: false});
  svg.addEventListener("mousedown", function (e) {
    if (e.button !== 0) return;
    drag = {x: e.clientX, v0: v0, v1: v1, moved: false};
    svg.classList.add("dragging");
  });
  window.addEventListener("mousemove", function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x;
    if (Math.abs(dx) > 2) drag.moved = true;
    var dt = dx / plotW * (drag.v1 - drag.v0);
    v0 = drag.v0 - dt; v1 = drag.v1 - dt; clampView();
    window.requestAnimationFrame(render);
  });
  window.addEventListener("mouseup", function () {
    drag = null; svg.classList.remove("dragging");
  });
  svg.addEventListener("mousemove", function (e) {
    var t = e.target;
    if (drag && drag.moved) { tip.hidden = true; return; }
    if (t.classList && t.classList.contains("inv-mark")) {
      showTip(e, invTip(+t.getAttribute("data-k")));
      return;
    }
    var at = rowAt(e.clientY), time = timeAt(e.clientX), lines = null;
    if (at.row >= 0 && at.row < rows.length && time >= v0 && time <= v1) {
      if (at.within <= SVC_H + 2) lines = callTip(at.row, time);
      if (!lines) lines = rows[at.row].isr ? isrTip(time) : laneTip(rows[at.row].lane, time);
    }
    if (lines) showTip(e, lines); else tip.hidden = true;
  });
  svg.addEventListener("mouseleave", function () { tip.hidden = true; });
  svg.addEventListener("click", function (e) {
    var t = e.target;
    if (t.classList && t.classList.contains("inv-mark")) focusInversion(+t.getAttribute("data-k"));
  });
  document.getElementById("tl-in").addEventListener("click", function () {
    zoom((v0 + v1) / 2, 0.5);
  });
  document.getElementById("tl-out").addEventListener("click", function () {
    zoom((v0 + v1) / 2, 2);
  });
  document.getElementById("tl-left").addEventListener("click", function () { pan(-0.4); });
  document.getElementById("tl-right").addEventListener("click", function () { pan(0.4); });
  document.getElementById("tl-reset").addEventListener("click", function () {
    highlight = -1; show(0, dur);
    document.querySelectorAll("tr.inversion.selected").forEach(function (r) {
      r.classList.remove("selected");
    });
  });
  document.querySelectorAll("tr.inversion").forEach(function (row) {
    var k = Number(row.getAttribute("data-k"));
    row.addEventListener("click", function (e) { e.preventDefault(); focusInversion(k); });
    row.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); focusInversion(k); }
    });
  });

  // ---- the overview: CPU share per thread, switches per bin ------------------------------
  var S = D.share, band = null;
  function ovX(t) { return LABEL_W + t / dur * plotW; }
  function ovTime(clientX) {
    var r = ovSvg.getBoundingClientRect();
    return Math.min(Math.max((clientX - r.left - LABEL_W) / plotW * dur, 0), dur);
  }
  function renderOverview() {
    if (!ovSvg) return;
    var width = Math.max(ovBox.clientWidth, 320);
    var height = OV_TOP + OV_SHARE_H + OV_GAP + OV_RATE_H + OV_AXIS_H + 4;
    var out = [];
    ovSvg.setAttribute("width", width);
    ovSvg.setAttribute("height", height);
    ovSvg.setAttribute("viewBox", "0 0 " + width + " " + height);
    ovSvg.setAttribute("data-plot", LABEL_W + " " + plotW);
    if (!S || !S.rows.length) {
      out.push('<text x="' + PAD + '" y="20">No CPU share in this trace (its analysis has ' +
               "none, or the trace spans no time).</text>");
      ovSvg.innerHTML = out.join("");
      return;
    }
    var n = S.isr.length, bx = plotW / n, y0 = OV_TOP, k, base = new Float64Array(n);
    function stack(values, colour, cls) {
      var d = "";
      for (k = 0; k < n; k++) {
        var h = values[k] * OV_SHARE_H;
        if (h <= 0) continue;
        d += rect(LABEL_W + k * bx, y0 + OV_SHARE_H - base[k] - h, bx + 0.2, h);
        base[k] += h;
      }
      if (d) out.push('<path class="' + cls + '" fill="' + colour + '" d="' + d + '"/>');
    }
    stack(S.isr, "#30343a", "share share-isr");
    S.rows.forEach(function (row) {
      stack(row.v, lanes[row.lane].colour, "share share-" + row.lane);
    });
    // The axes: 0, 50 and 100 % of the CPU; the rate's peak.
    out.push('<g class="axis">');
    [0, 0.5, 1].forEach(function (f) {
      var yy = y0 + OV_SHARE_H * (1 - f);
      out.push('<line class="tick" x1="' + LABEL_W + '" x2="' + (LABEL_W + plotW) + '" y1="' +
               yy + '" y2="' + yy + '"/><text x="' + (LABEL_W - 6) + '" y="' + (yy + 3) +
               '" text-anchor="end">' + f * 100 + " %</text>");
    });
    out.push('<text x="' + PAD + '" y="' + (y0 + OV_SHARE_H / 2) + '">CPU share</text>');
    var ry = y0 + OV_SHARE_H + OV_GAP, peak = Math.max.apply(null, S.switches.concat([1]));
    var perMs = peak / (S.width / 1000);
    out.push('<text x="' + PAD + '" y="' + (ry + OV_RATE_H / 2 + 4) + '">switches</text>');
    out.push('<text x="' + (LABEL_W - 6) + '" y="' + (ry + 8) + '" text-anchor="end">' +
             (perMs >= 10 ? perMs.toFixed(0) : perMs.toPrecision(2)) + "/ms</text>");
    out.push('<text x="' + (LABEL_W - 6) + '" y="' + (ry + OV_RATE_H) +
             '" text-anchor="end">0</text>');
    out.push("</g>");
    var d = "", dp = "";
    for (k = 0; k < n; k++) {
      var hs = S.switches[k] / peak * OV_RATE_H, hp = (S.preemptions[k] || 0) / peak * OV_RATE_H;
      if (hs > 0) d += rect(LABEL_W + k * bx, ry + OV_RATE_H - hs, Math.max(bx - 0.6, 0.6), hs);
      if (hp > 0) dp += rect(LABEL_W + k * bx, ry + OV_RATE_H - hp, Math.max(bx - 0.6, 0.6), hp);
    }
    if (d) out.push('<path class="rate" d="' + d + '"/>');
    if (dp) out.push('<path class="rate-pre" d="' + dp + '"/>');
    // Time along the bottom, the whole trace.
    var step = niceStep(dur / Math.max(plotW / 110, 1)), ay = ry + OV_RATE_H + OV_AXIS_H - 3;
    out.push('<g class="axis">');
    for (var t = 0; t <= dur + 1e-12; t += step) {
      var near = ovX(t) > LABEL_W + plotW - 32;
      out.push('<text x="' + ovX(t).toFixed(1) + '" y="' + ay + '" text-anchor="' +
               (near ? "end" : "middle") + '">' + esc(fmt(t)) + "</text>");
    }
    out.push("</g>");
    if (v0 > 0 || v1 < dur) {
      out.push('<rect id="ov-window" class="window" x="' + ovX(v0).toFixed(1) + '" y="1" width="' +
               Math.max(ovX(v1) - ovX(v0), 2).toFixed(1) + '" height="' +
               (ry + OV_RATE_H + 2) + '"/>');
    }
    if (band) {
      var a = Math.min(band.a, band.b), b = Math.max(band.a, band.b);
      out.push('<rect class="band" x="' + ovX(a).toFixed(1) + '" y="1" width="' +
               Math.max(ovX(b) - ovX(a), 1).toFixed(1) + '" height="' + (ry + OV_RATE_H + 2) +
               '"/>');
    }
    ovSvg.innerHTML = out.join("");
  }
  function ovTip(e) {
    var t = ovTime(e.clientX), n = S.isr.length, k = Math.min(n - 1, Math.floor(t / dur * n));
    var a = S.start + k * S.width, parts = [];
    S.rows.forEach(function (row) {
      if (row.v[k] >= 0.0005) parts.push([row.v[k], laneName(row.lane)]);
    });
    if (S.isr[k] >= 0.0005) parts.push([S.isr[k], "interrupts"]);
    parts.sort(function (p, q) { return q[0] - p[0]; });
    var lines = ["<b>" + fmt(a) + " \u2013 " + fmt(a + S.width) + "</b>"];
    parts.forEach(function (p) { lines.push(esc(p[1]) + ": " + pct(p[0])); });
    lines.push(S.switches[k] + " context switches, " + (S.preemptions[k] || 0) + " preemptions");
    showTip(e, lines);
  }
  if (ovSvg) {
    ovSvg.addEventListener("mousedown", function (e) {
      if (e.button !== 0 || !S) return;
      band = {a: ovTime(e.clientX), b: ovTime(e.clientX), x: e.clientX};
      e.preventDefault();
    });
    window.addEventListener("mousemove", function (e) {
      if (!band) return;
      band.b = ovTime(e.clientX);
      window.requestAnimationFrame(renderOverview);
    });
    window.addEventListener("mouseup", function (e) {
      if (!band) return;
      var b = band;
      band = null;
      if (Math.abs(e.clientX - b.x) > 3) {
        highlight = -1;
        show(Math.min(b.a, b.b), Math.max(b.a, b.b));
      } else {
        var span = v1 - v0 < dur ? v1 - v0 : dur / 20;
        show(b.a - span / 2, b.a + span / 2);
      }
    });
    ovSvg.addEventListener("dblclick", function () { highlight = -1; show(0, dur); });
    ovSvg.addEventListener("mousemove", function (e) { if (S && !band) ovTip(e); });
    ovSvg.addEventListener("mouseleave", function () { tip.hidden = true; });
  }

  // ---- the event list ---------------------------------------------------------------------
  var list = document.getElementById("ev-list"), space = document.getElementById("ev-space");
  var filterBox = document.getElementById("ev-filter"), kindBox = document.getElementById("ev-kind");
  var windowBox = document.getElementById("ev-window"), countLabel = document.getElementById("ev-count");
  var ROW_H = 20, shown = null, shownFrom = 0, shownCount = 0, picked = -1, pending = false;
  var lowerTexts = texts.map(function (t) { return t.toLowerCase(); });
  var lowerNames = names.map(function (t) { return t.toLowerCase(); });
  var lowerLanes = lanes.map(function (ln) { return ln.name.toLowerCase(); });

  function eventsChanged() {
    if (!list || pending) return;
    pending = true;
    window.requestAnimationFrame(function () { pending = false; selectEvents(); });
  }
  function selectEvents() {
    var lo = 0, hi = NE;
    if (windowBox.checked) { lo = lowerBound(E.t, v0); hi = lowerBound(E.t, v1 + 1e-9); }
    var q = filterBox.value.trim().toLowerCase(), kind = kindBox.value;
    if (!q && !kind) {
      shown = null; shownFrom = lo; shownCount = hi - lo;
    } else {
      var tm = q ? lowerTexts.map(function (t) { return t.indexOf(q) >= 0; }) : null;
      var nm = q ? lowerNames.map(function (t) { return t.indexOf(q) >= 0; }) : null;
      var lm = q ? lowerLanes.map(function (t) { return t.indexOf(q) >= 0; }) : null;
      var want = kind ? kindIndex[kind] : -1, found = [];
      for (var i = lo; i < hi; i++) {
        if (want >= 0 && E.kind[i] !== want) continue;
        if (q && !(tm[E.x[i]] || nm[E.name[i]] || lm[E.lane[i]])) continue;
        found.push(i);
      }
      shown = found; shownFrom = 0; shownCount = found.length;
    }
    countLabel.textContent = shownCount.toLocaleString("en") + " of " + NE.toLocaleString("en") +
      " events" + (windowBox.checked && (v0 > 0 || v1 < dur) ? " (in the timeline's view)" : "");
    space.style.height = shownCount * ROW_H + "px";
    drawRows();
  }
  function eventAt(k) { return shown ? shown[k] : shownFrom + k; }
  function context(e) {
    var who = laneName(E.lane[e]);
    return E.irq[e] ? "IRQ " + E.irq[e] + " (on " + who + ")" : who;
  }
  function drawRows() {
    var first = Math.max(0, Math.floor(list.scrollTop / ROW_H) - 5);
    var last = Math.min(shownCount, first + Math.ceil(list.clientHeight / ROW_H) + 10);
    var out = [];
    for (var k = first; k < last; k++) {
      var e = eventAt(k), text = texts[E.x[e]];
      out.push('<div class="ev-row k-' + E.kinds[E.kind[e]] + (e === picked ? " picked" : "") +
               '" role="listitem" data-e="' + e + '" style="top:' + k * ROW_H + 'px"><span>' +
               esc(fmt(E.t[e])) + "</span><span>" + esc(context(e)) + "</span><span>" +
               esc(names[E.name[e]]) + '</span><span class="' +
               (text.indexOf("held off") >= 0 ? "held" : "") + '" title="' + esc(text) + '">' +
               esc(text) + "</span></div>");
    }
    if (!shownCount) {
      out.push('<div class="ev-row"><span></span><span class="none">no events</span></div>');
    }
    space.innerHTML = out.join("");
  }
  if (list) {
    list.addEventListener("scroll", function () { window.requestAnimationFrame(drawRows); });
    filterBox.addEventListener("input", selectEvents);
    kindBox.addEventListener("change", selectEvents);
    windowBox.addEventListener("change", selectEvents);
    space.addEventListener("click", function (e) {
      var row = e.target.closest ? e.target.closest(".ev-row") : null;
      if (!row || !row.hasAttribute("data-e")) return;
      picked = +row.getAttribute("data-e");
      cursor = E.t[picked];
      if (cursor < v0 || cursor > v1) {
        var span = v1 - v0;
        v0 = cursor - span / 2; v1 = cursor + span / 2; clampView();
      }
      render();
    });
  }

  window.addEventListener("resize", render);
  render();
  // For the screenshot command (--view): show a stretch, in µs from the trace's start.
  window.tacetReport = {show: function (a, b) { highlight = -1; show(a, b); }};
})();
