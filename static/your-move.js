// Telling a player it is their move while the board is open: "(Your move)" in the tab
// title, a red dot on the tab's icon, and, once the player has allowed it with a click,
// a browser notification when the move becomes theirs while the tab is in the background.
(function () {
  "use strict";
  var PREFIX = "(Your move) ";
  var wasMine = null;

  function icon(href) {
    var link = document.querySelector('link[rel="icon"]');
    if (link && link.dataset[href]) {
      link.href = link.dataset[href];
    }
  }

  function update() {
    var prompt = document.getElementById("prompt");
    if (!prompt || !document.getElementById("board")) {
      return;
    }
    var mine = prompt.classList.contains("yours");
    // the prompt, swapped in with every answer, says what the title is now (the turn moves on)
    var title = prompt.dataset.title ||
      (document.title.indexOf(PREFIX) === 0 ? document.title.slice(PREFIX.length) : document.title);
    document.title = mine ? PREFIX + title : title;
    icon(mine ? "yourMove" : "plain");
    if (mine && wasMine === false && document.hidden && window.Notification &&
        Notification.permission === "granted") {
      new Notification("Your move", { body: prompt.textContent.replace(/\s+/g, " ").trim(), tag: "your-move" });
    }
    wasMine = mine;
    var ask = document.getElementById("notify-me");
    if (ask) {
      ask.hidden = !(window.Notification && Notification.permission === "default");
    }
  }

  document.addEventListener("click", function (event) {
    if (event.target.id === "notify-me" && window.Notification) {
      Notification.requestPermission().then(update);  // asked only after this click
    }
  });
  document.addEventListener("htmx:afterSettle", update);
  document.addEventListener("htmx:oobAfterSwap", update);
  document.addEventListener("DOMContentLoaded", update);
})();
