// A moment of a game's history: the arrow keys follow the page's own links (rel=prev,
// rel=next), Home and End go to the first and last moment, and Play steps forward once
// a second until the last moment or until pressed again.
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  function go(rel) {
    var link = document.querySelector('nav.replay a[rel="' + rel + '"]');
    if (link) {
      window.location.assign(link.href + (rel === "next" && playing() ? "#play" : ""));
    }
    return Boolean(link);
  }

  function playing() {
    return window.location.hash === "#play";
  }

  document.addEventListener("keydown", function (event) {
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    if (KEYS[event.key] && go(KEYS[event.key])) {
      event.preventDefault();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("step-play");
    if (!button) {
      return;
    }
    if (playing()) {
      button.setAttribute("aria-pressed", "true");
      button.textContent = "\u23F8 Pause";
      window.setTimeout(function () {
        if (playing() && !go("next")) {
          history.replaceState(null, "", window.location.pathname + window.location.search);
        }
      }, 1000);
    }
    button.addEventListener("click", function () {
      if (playing()) {
        history.replaceState(null, "", window.location.pathname + window.location.search);
        button.setAttribute("aria-pressed", "false");
        button.textContent = "\u25B6 Play";
      } else {
        window.location.hash = "play";
        go("next");
      }
    });
  });
})();
