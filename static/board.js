// The game board: one handler for every click (and Enter or Space) on the map.
// A click on a counter stands for its unit, on a box, an entry point or an air strip
// status box for that place, anywhere else for the hex under it; the server decides
// what that means (a move, an attack, a new selection) and answers with the parts of
// the board that changed.  No inline script, no eval: the page's CSP forbids both.
(function () {
  "use strict";

  function state() {
    return document.getElementById("board-state");
  }

  // ``hex``: the hex a click fell in, where the map is one picture (hexAt); else what the
  // clicked element names
  function send(target, hex) {
    var s = state();
    if (!s || !window.htmx) {
      return;
    }
    var values = { seq: s.dataset.seq, select: s.dataset.select, hex: "", unit: "" };
    if (hex) {
      values.hex = hex;
    } else if (target.dataset.unit) {
      values.unit = target.dataset.unit;
      // (Pacific Battles: a counter picked out of a fanned stack, or a piece picked from
      // the list of those with orders, comes with its hex, and its stack stays folded)
      if (target.closest(".pb-map .fan, .choosers")) {
        values.hex = target.dataset.hex || "";
      }
      // a piece's button in the list selects that piece, whatever is selected (a counter
      // on the map, where the selected piece may go, stands for that move)
      if (target.closest(".choosers")) {
        values.select = target.dataset.unit;
      }
    } else {
      values.hex = target.dataset.loc || target.dataset.hex;
    }
    window.htmx.ajax("POST", "/games/" + s.dataset.game + "/click",
                     { source: target, values: values, swap: "none" });
  }

  function clickable(event) {
    var listed = event.target.closest && event.target.closest(".choosers button[data-unit]");
    if (listed) {
      return listed;  // (Pacific Battles: a piece picked from the list, as if on the map)
    }
    var map = event.target.closest && event.target.closest(".map-stack");
    // (First Blood: a hex the player may act on; Pacific Battles: any element of its map
    // that names a hex, e.g. a highlighted hex)
    return map ? event.target.closest("[data-unit], [data-loc], g.hex-state[role=button], .pb-map [data-hex]") : null;
  }

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  // Both games draw their terrain as one picture (a file the browser keeps), with the
  // hex grid on the map (data-grid: hex row r, column c is centred at ox + c * sx
  // (+ half on an odd row), oy + r * sy; radius: centre to corner; First Blood's steps
  // are negative, its columns growing west and its rows north): the hex of a click is
  // the one whose centre is nearest, as anywhere inside a hex is nearest its centre.
  function hexAt(event) {
    var stack = event.target.closest && event.target.closest(".map-stack");
    // (First Blood: the grid is on the base layer, under the layers clicked through)
    var svg = stack && (event.target.closest("svg[data-grid]") || stack.querySelector("svg[data-grid]"));
    if (!svg || !svg.getScreenCTM()) {
      return null;
    }
    var g = svg.getAttribute("data-grid").split(" ").map(Number);
    var pt = svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    var p = pt.matrixTransform(svg.getScreenCTM().inverse());
    var best = null, nearest = g[5] * g[5];
    var row0 = Math.round((p.y - g[1]) / g[3]);
    for (var r = Math.max(0, row0 - 1); r <= row0 + 1; r++) {
      var shift = r % 2 ? g[4] : 0;
      var col0 = Math.round((p.x - g[0] - shift) / g[2]);
      for (var c = Math.max(0, col0 - 1); c <= col0 + 1; c++) {
        var dx = g[0] + c * g[2] + shift - p.x, dy = g[1] + r * g[3] - p.y;
        if (dx * dx + dy * dy <= nearest && r < 100 && c < 100) {
          nearest = dx * dx + dy * dy;
          best = pad(r) + pad(c);
        }
      }
    }
    return best;
  }

  // A piece picked from the list stays where the finger was: the answer adds the
  // Selected card above the list, which would push it down the page under the finger.
  var picked = null;

  function keepPicked() {
    var again = picked && document.querySelector('.choosers button[data-unit="' + CSS.escape(picked.unit) + '"]');
    if (again && again !== picked.button) {  // (the list swapped in anew, not the one clicked)
      window.scrollBy(0, again.getBoundingClientRect().top - picked.top);
      picked = null;
    }
  }

  // (an answer's parts are swapped in out of band: the list comes back in the panel's cards)
  document.addEventListener("htmx:oobAfterSwap", keepPicked);
  document.addEventListener("htmx:afterSettle", function () {
    keepPicked();
    picked = null;
  });

  document.addEventListener("click", function (event) {
    var target = clickable(event);
    if (target) {
      event.preventDefault();
      if (target.closest(".choosers")) {
        picked = { button: target, unit: target.dataset.unit, top: target.getBoundingClientRect().top };
      }
      send(target);
      return;
    }
    var hex = hexAt(event);
    if (hex) {
      event.preventDefault();
      send(event.target, hex);
    }
  });

  // A plain hex says what it is under the mouse (a hex the player can act on is a button
  // with a tooltip of its own): its terrain from the game's map, read once (GET
  // /api/games/{id}/map, which the browser keeps).
  var hexes = null, loading = false, tip = null, lastHex = null, pointer = null;
  function board() {
    return document.getElementById("board");
  }
  function hideTip() {
    if (tip) {
      tip.hidden = true;
    }
    lastHex = null;
  }
  function showTip(event, hex) {
    var h = hexes && hexes[hex];
    if (!h) {
      hideTip();
      return;
    }
    if (!tip) {
      tip = document.createElement("div");
      tip.className = "hex-tip";
      tip.setAttribute("aria-hidden", "true");  // the mouse's: a keyboard reaches the buttons and their names
      document.body.appendChild(tip);
    }
    if (hex !== lastHex) {
      tip.textContent = "Hex " + hex + ": " + (h.label ? h.label + ", " : "") + h.terrain.replace(/_/g, " ");
      lastHex = hex;
    }
    tip.hidden = false;
    // by the pointer, kept inside the window (near its right edge: to the pointer's left)
    var left = event.clientX + 14;
    if (left + tip.offsetWidth > window.innerWidth - 4) {
      left = Math.max(4, event.clientX - 14 - tip.offsetWidth);
    }
    tip.style.left = left + "px";
    tip.style.top = (event.clientY + 14) + "px";
  }
  // the mouse's only: a finger's tap sends a pointer move too, and a tip shown for it
  // stayed where the finger had been
  document.addEventListener("pointermove", function (event) {
    if (event.pointerType !== "mouse") {
      hideTip();
      return;
    }
    var hex = clickable(event) ? null : hexAt(event);
    pointer = hex ? {clientX: event.clientX, clientY: event.clientY, hex: hex} : null;
    if (!hex) {
      hideTip();
      return;
    }
    if (hexes === null && !loading && board()) {
      loading = true;
      fetch("/api/games/" + board().getAttribute("data-game") + "/map").then(function (r) {
        return r.ok ? r.json() : {hexes: []};
      }).then(function (map) {
        hexes = {};
        map.hexes.forEach(function (h) { hexes[h.id] = h; });
        if (pointer) {
          showTip(pointer, pointer.hex);  // where the mouse is now, the map read
        }
      });
    }
    showTip(event, hex);
  });
  document.addEventListener("mouseleave", hideTip);
  document.addEventListener("pointerdown", function (event) {
    if (event.pointerType !== "mouse") {
      hideTip();
    }
  });
  window.addEventListener("scroll", hideTip, true);  // (the page or the map's frame: the tip would lag)

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") {
      return;
    }
    var target = clickable(event);
    if (target && target.getAttribute("role") === "button") {
      event.preventDefault();
      send(target);
    }
  });

  // Every request for the board's changes says which parts of the map's layers the page
  // shows (their digests, in order), then which of its kept cards ([data-kept]), read from
  // the page itself, so that the answer sends only the parts that differ, even when two
  // answers crossed.
  document.addEventListener("htmx:configRequest", function (event) {
    var layers = document.querySelector("svg.map-layers[id]");  // (either game's board)
    if (!layers || !/^\/games\/[^/?]+\/(command|click|board|poll)([?]|$)/.test(event.detail.path)) {
      return;
    }
    var shown = [];
    for (var i = 0; i < layers.children.length; i++) {
      var digest = layers.children[i].getAttribute("data-d");
      if (digest) {
        shown.push(digest);
      }
    }
    var kept = document.querySelectorAll("[data-kept][data-d]");
    for (var k = 0; k < kept.length; k++) {
      shown.push(kept[k].getAttribute("data-d"));
    }
    event.detail.parameters.parts = shown.join(".");
  });

  // While the seat's WebSocket is open (#socket, htmx's WebSocket extension), a command
  // form goes over it as one message of its fields, parts included, instead of a post; its
  // answer, the post's HTML, is swapped in as a post's is (out of band, parts and all).  A
  // quarter less time a command (benchmarks/ws_vs_post.py).  Closed, or not yet open: the post.
  var socket = null;
  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    event.target.dataset.open = "true";  // (what a test waits for)
  });
  document.addEventListener("htmx:wsClose", function (event) {
    socket = null;
    delete event.target.dataset.open;
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    if (!socket || !config || config.verb !== "post" || !/^\/games\/[^/?]+\/command$/.test(config.path)) {
      return;
    }
    var fields = {};
    config.formData.forEach(function (value, name) {
      fields[name] = value;
    });
    event.preventDefault();
    socket.send(JSON.stringify(fields), event.detail.elt);
  });
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    event.preventDefault();  // (the extension would swap only the message's outer elements)
    window.htmx.swap(document.body, event.detail.message, { swapStyle: "none" });
    bringErrorIntoView();
    if (event.detail.message.lastIndexOf('<p id="net-error"', 0) !== 0) {  // (not an error line: all went well)
      show("");
    }
  });

  // The opponent took their seat (the stream's "seats"): a page still showing the
  // invitation is drawn again, with the players, the clock and the game as it now stands.
  document.addEventListener("sse:seats", function () {
    if (document.getElementById("invite")) {
      window.location.reload();
    }
  });

  // A refusal the player cannot see answers nothing: one an answer brought (a refused
  // command or click) is scrolled into view when it is off the screen (on a phone the
  // status card is above the map, the commands below it).  A poll brings none.
  function bringErrorIntoView() {
    var box = document.querySelector(".error[role=alert]:not([hidden])");
    if (!box || !box.textContent.trim()) {
      return;
    }
    var r = box.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) {
      box.scrollIntoView({ block: "center" });
    }
  }
  document.addEventListener("htmx:afterSettle", function (event) {
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!elt || elt.id !== "poller") {
      bringErrorIntoView();
    }
  });

  // Requests that fail (a refused form, a rate limit, no network) say so on the page.
  function show(message) {
    var box = document.getElementById("net-error");
    if (box) {
      box.textContent = message;
      box.hidden = !message;
      if (message) {
        bringErrorIntoView();
      }
    }
  }
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var message = "The server refused that (" + xhr.status + ").";
    try {
      message = JSON.parse(xhr.responseText).detail || message;
    } catch (ignored) {
      var doc = new DOMParser().parseFromString(xhr.responseText, "text/html");
      var detail = doc.getElementById("error-detail");
      if (detail) {
        message = detail.textContent;
      }
    }
    show(message);
  });
  document.addEventListener("htmx:sendError", function () {
    show("The server cannot be reached; the page will catch up when it can.");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) {
      show("");
    }
  });

  // A log line is added once: an answer and a poll that crossed (the poll asked from an
  // older moment) may both bring it.  Each line carries its event number (value); the
  // first one in the list, the newest copy, stays.
  function dedupeLog() {
    var lists = document.querySelectorAll("#log, .log ol");
    for (var i = 0; i < lists.length; i++) {
      var seen = {};
      var items = lists[i].querySelectorAll(":scope > li[value]");
      for (var j = 0; j < items.length; j++) {
        var key = items[j].getAttribute("value");
        if (seen[key]) {
          items[j].remove();
        } else {
          seen[key] = true;
        }
      }
    }
  }
  document.addEventListener("htmx:afterSettle", dedupeLog);
  document.addEventListener("htmx:oobAfterSwap", dedupeLog);

  // The board's poll (#poller, in every game page's live part: asked when the stream says
  // the game moved, or now and then) asks from the moment the board shows (#board-state,
  // which every answer replaces).  The poller itself is never replaced, so that a "moved"
  // that comes while a poll is on its way is kept (its "queue last") and asked once the
  // poll is back: the computer's commands come milliseconds apart.
  document.addEventListener("htmx:configRequest", function (event) {
    var s = state();
    if (event.detail.elt && event.detail.elt.id === "poller" && s) {
      event.detail.parameters.seq = s.dataset.seq;
      event.detail.parameters.select = s.dataset.select || "";
    }
  });

  // A poll (asked when the stream says the game moved, or now and then) that comes back
  // after the page already shows that moment or a later one, for instance after the
  // player's own command, is dropped: swapping it in would undo what the player did since
  // (a unit just selected).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    var s = state();
    if (!elt || elt.id !== "poller" || !s) {
      return;
    }
    var found = /id="board-state"[^>]*data-seq="(\d+)"/.exec(event.detail.serverResponse || "");
    if (found && parseInt(found[1], 10) <= parseInt(s.dataset.seq, 10)) {
      event.detail.shouldSwap = false;
    }
  });
})();
