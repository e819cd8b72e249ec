// Private links, invitations, sign-in and unsubscribe links carry their secret after
// "#token=".  Browsers never send the fragment to a server, so the secret is in no
// access log and no Referer; this script hands it to the server in a form post and
// takes it out of the address bar.  (A link opened over the same page changes only the
// fragment, without loading the page again: hence the hashchange too.)
(function () {
  "use strict";
  function handOver() {
    var match = /(?:^#|&)token=([A-Za-z0-9_.-]+)/.exec(window.location.hash);
    var form = document.getElementById("token-form");
    if (!match || !form) {
      return;
    }
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
    form.elements.token.value = match[1];
    if (form.dataset.autosubmit === "true") {
      form.submit();
    }
  }
  // "?welcome=1" opens the private link's card once, just seated: out of the address, so
  // that a reload, or a return by the browser's history, shows it folded as later visits do.
  function forgetWelcome() {
    var params = new URLSearchParams(window.location.search);
    if (!params.has("welcome")) {
      return;
    }
    params.delete("welcome");
    var query = params.toString();
    window.history.replaceState(null, "", window.location.pathname + (query ? "?" + query : "") +
                                window.location.hash);
  }
  window.addEventListener("hashchange", handOver);
  handOver();
  forgetWelcome();
})();
