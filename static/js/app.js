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

// A change the server could not take just now (503: the database was busy, nothing was saved),
// such as a rematch or a hand's deletion, is sent again as it was, entry key included, after the
// pause the server asks for: the server records it once however often it arrives. A few tries,
// then the error shows as any other. (Entries on the board go through the outbox: offline.js.)
document.addEventListener("htmx:responseError", function (event) {
  var xhr = event.detail.xhr;
  var config = event.detail.requestConfig;
  if (!xhr || xhr.status !== 503 || !config || config.verb === "get") {
    return;
  }
  var elt = event.detail.elt;
  var tries = Number(elt.dataset.busyTries || 0);
  if (tries >= 5) {
    delete elt.dataset.busyTries;
    return;
  }
  elt.dataset.busyTries = String(tries + 1);
  var pause = 1000 * (Number(xhr.getResponseHeader("Retry-After")) || 1);
  var values = {};
  config.formData.forEach(function (value, name) {
    values[name] = value;
  });
  setTimeout(function () {
    htmx.ajax(config.verb.toUpperCase(), config.path, {
      source: elt,
      target: config.target,
      values: values,
      headers: config.headers,
    }).then(function () {
      delete elt.dataset.busyTries;
    });
  }, pause);
});

// Opening "End the hand" brings the whole panel into view: who went out, the pips and Save.
document.addEventListener("toggle", function (event) {
  var panel = event.target;
  if (panel.id === "end-hand" && panel.open) {
    panel.scrollIntoView({ block: "start", behavior: "instant" });
  }
}, true);

// Tapping who went out brings the rest of that form into view: the pips, then Save.
document.addEventListener("change", function (event) {
  var form = event.target.closest && event.target.closest(".chips.out") && event.target.form;
  if (form) {
    form.scrollIntoView({ block: "start", behavior: "instant" });
  }
});

// A board's poll asked before another answer replaced its element answers for a board no longer
// shown: its answer is dropped (it would put older totals back, and find none of the places it
// fills). The other pages' polls fill only their own element.
document.addEventListener("htmx:beforeCleanupElement", function (event) {
  var poll = event.target;
  if (poll.id === "live-poll") {
    poll.addEventListener("htmx:beforeOnLoad", function (answer) {
      answer.preventDefault();
    });
  }
});
