// Live pages follow a stream (server-sent events) instead of asking every few seconds.
//
// The element carrying sse-connect (htmx's SSE extension, bundled with django-htmx) holds the
// stream; the extension opens it, and opens it again when it is cut. Each event names what
// moved: "changed" (the page draws it afresh) or "clock" (the round clock's line). This file
// turns it into "live:changed" or "live:clock" on the page's polls (hx-trigger "every 2s,
// live:changed"), found when the event comes: a poll swapped in since is told too. The poll
// then asks its address as ever, naming the version it shows (a 304 when it shows it already).
//
// While the stream is open, a poll's timer asks only once every SAFETY ms (in case an event
// was lost on the way); while it is not (no EventSource, a proxy that holds events back, a
// stream refused or cut twice within a minute) the polls ask as before. A page hidden for
// IDLE ms lets its stream go, and opens it again when it is shown. Offline, nothing is asked;
// back online, the stream opens again and the page asks once. When a round's clock runs out
// on the page (clock.js), the page asks too: nobody announces the time running out.
(function () {
  "use strict";
  var SAFETY = 30000;
  var CUTS = 2;
  var CUT_WINDOW = 60000;
  var IDLE = 60000;
  var AGAIN_AFTER = 300000;

  var open = false;
  var cuts = [];
  var sources = typeof WeakSet === "function" ? new WeakSet() : null;
  var lastAsked = Date.now();
  var hiddenTimer = null;
  // the extension keeps its EventSource to itself: the last one it said it opened
  var current = null;

  function holder() {
    return document.querySelector("[sse-connect], [data-live-connect]");
  }

  function tell(name) {
    var polls = document.querySelectorAll("[hx-trigger*='live:" + name + "']");
    for (var i = 0; i < polls.length; i++) {
      htmx.trigger(polls[i], "live:" + name);
    }
  }

  function listen(source) {
    if (!source || (sources && sources.has(source))) {
      return;
    }
    if (sources) {
      sources.add(source);
    }
    source.addEventListener("changed", function () {
      tell("changed");
    });
    source.addEventListener("clock", function () {
      tell("clock");
    });
  }

  // let the stream go (the attribute moves aside, so that the extension does not open it
  // again), and, unless it is for good, open it again later
  function letGo(source, reopenAfter) {
    var element = holder();
    said(false);
    if (source) {
      source.close();
    }
    if (element && element.hasAttribute("sse-connect")) {
      element.setAttribute("data-live-connect", element.getAttribute("sse-connect"));
      element.removeAttribute("sse-connect");
    }
    if (reopenAfter) {
      window.setTimeout(reopen, reopenAfter);
    }
  }

  function reopen() {
    var element = holder();
    if (!element || element.hasAttribute("sse-connect") || document.hidden) {
      return;
    }
    cuts = [];
    element.setAttribute("sse-connect", element.getAttribute("data-live-connect"));
    element.removeAttribute("data-live-connect");
    htmx.process(element);
  }

  // the holder says whether its stream is open (data-live-open), for whoever looks
  function said(isOpen) {
    var element = holder();
    open = isOpen;
    if (element) {
      element.toggleAttribute("data-live-open", isOpen);
    }
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    said(true);
    current = event.detail.source;
    listen(current);
  });

  document.addEventListener("htmx:sseError", function (event) {
    var source = event.detail.source;
    var now = Date.now();
    said(false);
    cuts = cuts.filter(function (at) {
      return now - at < CUT_WINDOW;
    });
    cuts.push(now);
    // refused (429, 503), or cut twice within a minute: the polls take over for a while
    if ((source && source.readyState === 2) || cuts.length >= CUTS) {
      letGo(source, AGAIN_AFTER);
    }
  });

  function isLivePoll(element) {
    return Boolean(element) && (element.getAttribute("hx-trigger") || "").indexOf("live:") >= 0;
  }

  document.addEventListener("htmx:confirm", function (event) {
    if (!isLivePoll(event.detail.elt)) {
      return;
    }
    if (navigator.onLine === false) {
      // offline: asked again when the phone is back (below)
      event.preventDefault();
      return;
    }
    var told = event.detail.triggeringEvent;
    if (told && String(told.type).indexOf("live:") === 0) {
      return;
    }
    // a poll's timer: asked only when the stream is not there to tell (or for safety)
    if (window.scorekeeperPolls === false || (open && Date.now() - lastAsked < SAFETY)) {
      event.preventDefault();
    }
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isLivePoll(event.detail.elt)) {
      lastAsked = Date.now();
    }
  });

  // a question that went unanswered (the phone offline, the server away) is asked again at
  // the poll's next tick, stream or no stream
  document.addEventListener("htmx:afterRequest", function (event) {
    if (isLivePoll(event.detail.elt) && !event.detail.successful) {
      lastAsked = 0;
    }
  });

  window.addEventListener("offline", function () {
    letGo(current, 0);
  });
  window.addEventListener("online", function () {
    reopen();
    tell("changed");
  });

  // the round's time is up on this page's clock: a moment later the server says so too
  document.addEventListener("clock:up", function () {
    window.setTimeout(function () {
      tell("clock");
      tell("changed");
    }, 1000);
  });

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      hiddenTimer = window.setTimeout(function () {
        letGo(current, 0);
      }, IDLE);
    } else {
      window.clearTimeout(hiddenTimer);
      reopen();
    }
  });
})();
