// Copy buttons: <button data-copy="ID"> copies the value of the input with that id.
// The clipboard API needs a secure context; elsewhere the text is selected for Ctrl+C.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
    if (!button) {
      return;
    }
    var input = document.getElementById(button.dataset.copy);
    if (!input) {
      return;
    }
    var done = function (text) {
      button.textContent = text;
      window.setTimeout(function () { button.textContent = "Copy"; }, 2000);
    };
    input.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(function () { done("Copied"); },
                                                      function () { done("Press Ctrl+C"); });
    } else {
      done(document.execCommand && document.execCommand("copy") ? "Copied" : "Press Ctrl+C");
    }
  });
})();
