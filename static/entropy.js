// A player's part of the dice: a random text made in this browser with the Web Crypto
// API (32 hex digits), put in each empty field marked data-entropy.  The player may keep
// it or type their own; the server never made it, and commits to its seeds before it sees it.
(function () {
  "use strict";
  function fill() {
    var fields = document.querySelectorAll("input[data-entropy]");
    for (var i = 0; i < fields.length; i++) {
      if (!fields[i].value && window.crypto && window.crypto.getRandomValues) {
        var bytes = new Uint8Array(16);
        window.crypto.getRandomValues(bytes);
        fields[i].value = Array.prototype.map.call(bytes, function (b) {
          return ("0" + b.toString(16)).slice(-2);
        }).join("");
      }
    }
  }
  document.addEventListener("DOMContentLoaded", fill);
  document.addEventListener("htmx:afterSettle", fill);
})();
