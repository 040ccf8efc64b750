// Live pages follow a stream (server-sent events); docs/live.md, "In the browser", says how.
// The element carrying sse-connect holds it (htmx's SSE extension). Each event ("changed",
// "clock") becomes "live:changed" or "live:clock" on the page's polls, which then ask their
// address as ever (a 304 when the page shows that version); but an event that carries the new
// board drawn for the version the page shows is put in place without asking (putInPlace).
(function () {
  "use strict";
  var SAFETY = 30000;
  var CUTS = 2;
  var CUT_WINDOW = 60000;
  var IDLE = 60000;
  var AGAIN_AFTER = 300000;
  // after the entries are sent, how long their answers have to put the new board in place
  var SENT_GRACE = 300;

  var open = false;
  var cuts = [];
  var sources = new WeakSet();
  var lastAsked = Date.now();
  var hiddenTimer = null;
  // the extension keeps its EventSource to itself: the last one it said it opened
  var current = null;

  function holder() {
    return document.querySelector("[sse-connect], [data-live-connect]");
  }

  // times each name was told, in all and when each poll asked; names owed to a poll swapped
  // in but not yet listening (htmx settles it a moment later)
  var told = { changed: 0, clock: 0 };
  var toldWhenAsked = new WeakMap();
  var owed = {};

  // shows: the version the event says the page will show after it ("" when it does not say)
  function tell(name, shows) {
    told[name] += 1;
    if (document.body.hasAttribute("data-outbox-sending")) {
      // the phone is sending its entries (offline.js): the event is most likely of its own,
      // whose answer brings the new board and its poll; owed to that poll
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

  // owed to the next poll of that name: the newest version told, or true (ask whatever it shows)
  function owe(name, shows) {
    var before = owed[name];
    if (before === true || !shows) {
      owed[name] = true;
      return;
    }
    // two versions owed: the newer (a page that shows it has seen both)
    owed[name] = before && isOlder(shows, before) ? before : shows;
  }

  // tell a poll what it is owed: nothing when it shows the version owed already (the answer to
  // the phone's own entry brought it)
  function pay(name, poll) {
    var owes = owed[name];
    delete owed[name];
    if (owes !== true && poll && shownBy(poll) === owes) {
      return;
    }
    tell(name);
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

  // An event that carries its drawing (a table's entry, drawn for its watchers): its first
  // line "<topic> <after> <shows>", then the answer the scoreboard's poll would be given. Put
  // in place of the poll as its answer would be, when the page shows the version it was drawn
  // for ("-": any older one) and the poll is not asking; else the poll asks, as ever. A page
  // the drawing does not fit (the scorekeeper's) is sent that first line alone: showing
  // <shows> already (its own entry's answer brought it), it asks nothing.
  function putInPlace(data) {
    var end = data.indexOf("\n");
    var poll = document.getElementById("live-poll");
    if (!poll) {
      return false;
    }
    var head = data.slice(0, end < 0 ? data.length : end).split(" ");
    var shown = shownBy(poll);
    if (head.length !== 3 || shown === head[2]) {
      return head.length === 3;
    }
    var fits = head[1] === "-" ? isOlder(shown, head[2]) : shown === head[1];
    if (end < 0 || !fits || poll.classList.contains(htmx.config.requestClass) ||
        poll.classList.contains(htmx.config.addedClass)) {
      return false;
    }
    htmx.swap(poll, data.slice(end + 1), { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 20 });
    // as a poll's answer would be: the phone heard from the server, and keeps a copy of the
    // board (offline.js)
    document.dispatchEvent(new CustomEvent("live:drawn"));
    return true;
  }

  function isOlder(shown, version) {
    return /^[0-9]+$/.test(shown) && /^[0-9]+$/.test(version) && Number(shown) < Number(version);
  }

  // let the stream go (the attribute moved aside, the extension opens it no more); unless for
  // good, open it again later
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
    if (navigator.onLine === false) {
      // asked for just before the phone went offline, and opened after: let go, as a stream
      // open then would have been; opened again when the phone is back (below)
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

  // a poll a stream tells (of that name, or of any)
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

  // unanswered (offline): asked again at the next tick. Told again while it asked: htmx keeps
  // that for the element that asked (the request's), which the answer replaced; owed to the
  // new one.
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

  // the entries sent: what is still owed (no answer brought a new poll: it was refused, or the
  // player was typing in the board) is told now
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
