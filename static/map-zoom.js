// Zoom and pan for the map: the + and - buttons, Ctrl+wheel, a two-finger pinch, and a
// drag with the mouse (a finger scrolls natively).  Zooming widens the map inside its
// scrolling frame and keeps the point under the pointer (or the frame's centre) still;
// a drag that moved the map is not also a click.  A zoom the player chose is kept for this
// tab and this game (another game's map opens framed on its own counters).
(function () {
  "use strict";
  var MIN = 0.6, MAX = 12, STEP = 1.25;  // (a phone shows the Pacific Battles map 390 px wide: a counter 3 px at 1)
  var PINCH_FROM = 24;  // px between two fingers before a pinch is measured (from less, it jumped to the most)
  var LEGIBLE = { desk: 28, phone: 32 };  // CSS px: a counter's width at the board's first view (a phone: its text some 9 px)
  var zoom = 1;

  function frame() { return document.querySelector(".map-wrap"); }
  // the map's unzoomed width: 900 px on a wide screen, the frame's width on a phone
  function baseWidth() { return window.matchMedia("(max-width: 600px)").matches ? frame().clientWidth : 900; }
  function stack() { return document.querySelector(".map-wrap .map-stack"); }
  // the key of this game's kept zoom (a board, its moments and its replay share it)
  var KEY = "map-zoom:" + ((/^\/games\/([^/?#]+)/.exec(window.location.pathname) || [])[1] || "");

  // ``chosen``: the player's zoom, kept; the board's own framing is not
  function apply(next, clientX, clientY, chosen) {
    var w = frame(), s = stack();
    if (!w || !s || !isFinite(next)) { return; }  // (a pinch measured from nothing: no zoom at all)
    next = Math.max(MIN, Math.min(MAX, next));
    var box = w.getBoundingClientRect();
    var px = clientX === undefined ? box.width / 2 : clientX - box.left;
    var py = clientY === undefined ? box.height / 2 : clientY - box.top;
    var fx = (w.scrollLeft + px) / s.offsetWidth, fy = (w.scrollTop + py) / s.offsetHeight;
    zoom = next;
    s.style.width = (zoom * 100) + "%";
    s.style.minWidth = zoom === 1 ? "" : (baseWidth() * zoom) + "px";
    w.scrollLeft = fx * s.offsetWidth - px;
    w.scrollTop = fy * s.offsetHeight - py;
    var label = document.getElementById("zoom-level");
    if (label) { label.textContent = Math.round(zoom * 100) + "%"; }
    if (chosen !== false) {
      try { window.sessionStorage.setItem(KEY, String(zoom)); } catch (e) { /* private mode */ }
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-zoom]") : null;
    if (!button) { return; }
    var how = button.dataset.zoom;
    apply(how === "in" ? zoom * STEP : how === "out" ? zoom / STEP : 1);
  });

  document.addEventListener("wheel", function (event) {
    if (!event.ctrlKey || !event.target.closest || !event.target.closest(".map-wrap")) { return; }
    event.preventDefault();
    apply(event.deltaY < 0 ? zoom * 1.15 : zoom / 1.15, event.clientX, event.clientY);
  }, { passive: false });

  // dragging with the mouse pans; two touching fingers pinch
  var drag = null, moved = false, touches = {}, pinch = null;
  document.addEventListener("pointerdown", function (event) {
    var w = event.target.closest ? event.target.closest(".map-wrap") : null;
    if (!w) { return; }
    if (event.pointerType === "touch") {
      touches[event.pointerId] = { x: event.clientX, y: event.clientY };
      var ids = Object.keys(touches);
      if (ids.length === 2) {
        var a = touches[ids[0]], b = touches[ids[1]];
        pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), zoom: zoom };
      }
      return;
    }
    if (event.button === 0) {
      drag = { x: event.clientX, y: event.clientY, left: w.scrollLeft, top: w.scrollTop, frame: w };
      moved = false;
    }
  });
  document.addEventListener("pointermove", function (event) {
    if (touches[event.pointerId]) {
      touches[event.pointerId] = { x: event.clientX, y: event.clientY };
      var ids = Object.keys(touches);
      if (pinch && ids.length === 2) {
        var a = touches[ids[0]], b = touches[ids[1]], d = Math.hypot(a.x - b.x, a.y - b.y);
        if (pinch.d < PINCH_FROM) {  // fingers put down together: the pinch is measured once they part
          if (d >= PINCH_FROM) { pinch = { d: d, zoom: zoom }; }
          return;
        }
        apply(pinch.zoom * d / pinch.d, (a.x + b.x) / 2, (a.y + b.y) / 2);
      }
      return;
    }
    if (!drag) { return; }
    var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!moved && Math.abs(dx) + Math.abs(dy) < 6) { return; }
    moved = true;
    drag.frame.scrollLeft = drag.left - dx;
    drag.frame.scrollTop = drag.top - dy;
  });
  function release(event) {
    delete touches[event.pointerId];
    if (Object.keys(touches).length < 2) { pinch = null; }
    drag = null;
  }
  document.addEventListener("pointerup", release);
  document.addEventListener("pointercancel", release);
  document.addEventListener("click", function (event) {  // capture: before the board's handler
    if (moved) {
      moved = false;
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  // A board opens framed on where the counters are, each one legible: zoomed so that the
  // counters' median width is at least LEGIBLE px (up to half as large again while all the
  // counters still fit the frame), and scrolled to the median counter: where most of them are.
  function median(values) {
    values.sort(function (a, b) { return a - b; });
    return values[Math.floor(values.length / 2)];
  }

  function frameCounters(kept) {
    var w = frame(), s = stack();
    if (!w || !s) { return; }
    var counters = s.querySelectorAll("g.counter"), origin = s.getBoundingClientRect();
    var widths = [], xs = [], ys = [], x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (var i = 0; i < counters.length; i++) {
      var b = counters[i].getBoundingClientRect();
      if (!b.width) { continue; }
      widths.push(b.width);
      xs.push((b.left + b.right) / 2 - origin.left);
      ys.push((b.top + b.bottom) / 2 - origin.top);
      x0 = Math.min(x0, b.left - origin.left); x1 = Math.max(x1, b.right - origin.left);
      y0 = Math.min(y0, b.top - origin.top); y1 = Math.max(y1, b.bottom - origin.top);
    }
    if (!widths.length || !origin.width) {
      if (kept) { apply(kept, undefined, undefined, false); }
      return;
    }
    var size = median(widths);
    var phone = window.matchMedia("(max-width: 600px)").matches;
    var legible = (phone ? LEGIBLE.phone : LEGIBLE.desk) / size;
    var fits = Math.min(w.clientWidth / (x1 - x0 + 2 * size), w.clientHeight / (y1 - y0 + 2 * size));
    // no closer than half as large again as legible: a small cluster keeps its surroundings
    // a zoom the player chose for this game stands
    apply(kept || Math.max(1, legible, Math.min(fits, legible * 1.5, MAX)), undefined, undefined, false);
    var scale = s.offsetWidth / origin.width;
    w.scrollLeft = median(xs) * scale - w.clientWidth / 2;
    w.scrollTop = median(ys) * scale - w.clientHeight / 2;
  }

  // On "load", not "DOMContentLoaded": only then are the style sheets applied and the
  // counters measurable, so the board opens the same way however fast the sheets arrive.
  function openFramed() {
    var kept = 1;
    try { kept = parseFloat(window.sessionStorage.getItem(KEY) || "1") || 1; } catch (e) { kept = 1; }
    frameCounters(kept !== 1 ? kept : 0);
  }
  if (document.readyState === "complete") { openFramed(); } else { window.addEventListener("load", openFramed); }
})();
