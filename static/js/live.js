// Live pages follow a stream (server-sent events, htmx's SSE extension): docs/live.md, "In the
// browser". An event ("changed", "clock") makes the page's polls ask ("live:changed"), unless
// it carries the new board for the page (putInPlace) or names the version the page shows.
(function () {
  "use strict";
  var SAFETY = 30000;
  var CUTS = 2;
  var CUT_WINDOW = 60000;
  var IDLE = 60000;
  var AGAIN_AFTER = 300000;
  // after the entries are sent, the time their answers have to be put in place
  var SENT_GRACE = 300;

  var open = false;
  var cuts = [];
  var sources = new WeakSet();
  var lastAsked = Date.now();
  var hiddenTimer = null;
  // the EventSource last opened (the extension keeps it to itself)
  var current = null;

  function holder() {
    return document.querySelector("[sse-connect], [data-live-connect]");
  }

  // times each name was told, in all and when each poll asked; what is owed to a poll not
  // yet in place (owe)
  var told = { changed: 0, clock: 0 };
  var toldWhenAsked = new WeakMap();
  var owed = {};

  function tell(name, shows) {
    told[name] += 1;
    if (sending()) {
      // most likely of the phone's own entry (offline.js), whose answer brings the new board
      owe(name, shows);
      return;
    }
    var polls = document.querySelectorAll("[hx-trigger*='live:" + name + "']");
    for (var i = 0; i < polls.length; i++) {
      if (polls[i].classList.contains(htmx.config.addedClass)) {
        owe(name, shows);
      } else {
        htmx.trigger(polls[i], "live:" + name);
      }
    }
  }

  // owed to the next poll of that name: the newest version named, or true (ask in any case)
  function owe(name, shows) {
    var before = owed[name];
    owed[name] = before === true || !shows ? true : isOlder(shows, before) ? before : shows;
  }

  // the poll asks what it is owed, unless it shows that version (or newer) already; kept while
  // the phone sends, whose answer is yet to come
  function pay(name, poll) {
    var owes = owed[name];
    var shown = poll ? shownBy(poll) : "";
    if (owes !== true && poll && (shown === owes || isOlder(owes, shown))) {
      delete owed[name];
    } else if (!sending()) {
      delete owed[name];
      tell(name);
    }
  }

  function sending() {
    return document.body.hasAttribute("data-outbox-sending");
  }

  function shownBy(poll) {
    var asked = poll.getAttribute("hx-get") || "";
    return new URL(asked, window.location.href).searchParams.get("v") || "";
  }

  function listen(source) {
    if (!source || sources.has(source)) {
      return;
    }
    sources.add(source);
    source.addEventListener("changed", function (event) {
      var data = String(event.data || "");
      if (!putInPlace(data)) {
        var head = data.split("\n")[0].split(" ");
        tell("changed", head.length === 3 ? head[2] : "");
      }
    });
    source.addEventListener("clock", function () {
      tell("clock");
    });
  }

  // An entry's event: "<topic> <after> <shows>", then (for a watcher) the answer the poll would
  // be given, put in place when the page shows <after> ("-": any older version) and the poll
  // is not asking. A page that shows <shows> or newer already asks nothing.
  function putInPlace(data) {
    var end = data.indexOf("\n");
    var poll = document.getElementById("live-poll");
    if (!poll) {
      return false;
    }
    var head = data.slice(0, end < 0 ? data.length : end).split(" ");
    var shown = shownBy(poll);
    if (head.length !== 3 || shown === head[2] || isOlder(head[2], shown)) {
      return head.length === 3;
    }
    var fits = head[1] === "-" ? isOlder(shown, head[2]) : shown === head[1];
    if (end < 0 || !fits || poll.classList.contains(htmx.config.requestClass) ||
        poll.classList.contains(htmx.config.addedClass)) {
      return false;
    }
    htmx.swap(poll, data.slice(end + 1), { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 20 });
    // as a poll's answer would (offline.js keeps a copy)
    document.dispatchEvent(new CustomEvent("live:drawn"));
    return true;
  }

  function isOlder(shown, version) {
    return /^[0-9]+$/.test(shown) && /^[0-9]+$/.test(version) && Number(shown) < Number(version);
  }

  // let the stream go (sse-connect moved aside); open it again later, unless for good
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

  // data-live-open on the holder: its stream is open
  function said(isOpen) {
    var element = holder();
    open = isOpen;
    if (element) {
      element.toggleAttribute("data-live-open", isOpen);
    }
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    if (navigator.onLine === false) {
      // asked for just before the phone went offline: let go until it is back (below)
      letGo(event.detail.source, 0);
      return;
    }
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

  // a poll a stream tells (of that name, or any)
  function isLivePoll(element, name) {
    var trigger = (element && element.getAttribute("hx-trigger")) || "";
    return trigger.indexOf("live:" + (name || "")) >= 0;
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
      toldWhenAsked.set(event.detail.elt, Object.assign({}, told));
    }
  });

  // unanswered (offline): asked again at the next tick. Told while it asked, and replaced by
  // the answer: owed to the new poll.
  document.addEventListener("htmx:afterRequest", function (event) {
    var asked = event.detail.requestConfig;
    var element = (asked && asked.elt) || event.detail.elt;
    if (!isLivePoll(element)) {
      return;
    }
    if (!event.detail.successful) {
      lastAsked = 0;
    }
    var then = toldWhenAsked.get(element);
    if (!then || document.body.contains(element)) {
      return;
    }
    Object.keys(told).forEach(function (name) {
      if (told[name] > then[name] && isLivePoll(element, name)) {
        owed[name] = true;
      }
    });
  });

  document.addEventListener("htmx:load", function (event) {
    Object.keys(owed).forEach(function (name) {
      if (isLivePoll(event.target, name)) {
        pay(name, event.target);
      }
    });
  });

  // the entries sent: what is still owed (no answer brought a new poll) is paid now
  document.addEventListener("outbox:sent", function () {
    window.setTimeout(function () {
      Object.keys(owed).forEach(function (name) {
        pay(name, document.querySelector("[hx-trigger*='live:" + name + "']"));
      });
    }, SENT_GRACE);
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
