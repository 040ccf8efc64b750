// Keeps the phone's screen on while a scoreboard is open (Screen Wake Lock, where the browser
// has it). The lock is let go when the page is hidden, so it is asked for again on return.
(function () {
  "use strict";
  if (!("wakeLock" in navigator) || !document.querySelector("[data-keep-awake]")) {
    return;
  }
  var lock = null;
  function keepAwake() {
    if (document.visibilityState !== "visible" || lock) {
      return;
    }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      lock.addEventListener("release", function () {
        lock = null;
      });
    }).catch(function () {
      // refused (battery saver, no user gesture yet): the screen simply may sleep
    });
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("click", keepAwake, { once: true });
  keepAwake();
})();

// A "Print" button on printable pages.
document.addEventListener("click", function (event) {
  if (event.target.closest && event.target.closest("[data-print]")) {
    window.print();
  }
});

// htmx sends Django's CSRF token (from its cookie) with every request that changes something,
// also from a button outside a form. Forms carry the token themselves, so they work without
// JavaScript; pages that only show things carry none, so they can be served from the cache.
document.addEventListener("htmx:configRequest", function (event) {
  if (event.detail.verb === "get") {
    return;
  }
  var found = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (found) {
    event.detail.headers["X-CSRFToken"] = decodeURIComponent(found[1]);
  }
});
