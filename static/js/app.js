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
