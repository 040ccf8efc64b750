// The scoreboard through a Wi-Fi drop: entries go through the outbox (outbox.js), waiting ones
// are shown on the board, and the phone keeps a copy of the board. docs/offline.md explains it.
(function () {
  "use strict";
  var first = document.getElementById("board");
  if (!first || typeof outbox === "undefined" || !window.indexedDB) {
    return;
  }
  var match = Number(first.dataset.match);
  var game = first.dataset.game;
  var here = location.pathname;
  var offline = first.dataset.served === "copy";
  var lastContact = offline ? Date.parse(first.dataset.asOf) : Date.now();
  var flushing = false;
  var flushAgain = false;
  var retryTimer = null;
  var retryPause = 0;
  // the pause the server asked for (Retry-After) with its last "busy, try again"
  var askedPause = 0;
  // taps not yet in the outbox: counted as waiting
  var beingKept = 0;
  // how many entries the board showed as waiting when it was last drawn
  var drawnWaiting = 0;
  // the entries whose refusal this board heard, by key: the server's words (null for the rules':
  // those are on the board)
  var reasons = {};

  function board() {
    return document.getElementById("board");
  }

  if ("serviceWorker" in navigator && first.dataset.worker) {
    navigator.serviceWorker.register(first.dataset.worker).catch(function () {
      // no service worker (a private window, plain http): the outbox still works
    });
  }

  // -- tapping

  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;
    var data = event.detail.formData;
    if (!form.matches("form[data-outbox]") || event.detail.verb !== "post" || data.has("preview")) {
      return;
    }
    event.preventDefault();
    touched = {};
    var fields = [];
    data.forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && name !== "entry_key" && typeof value === "string") {
        fields.push([name, value]);
      }
    });
    tapped({
      match: match,
      url: event.detail.path,
      kind: form.dataset.outbox,
      says: describe(form, fields),
      fields: fields,
      // a tap's answer gives Undo no token of its own: the play buttons carry the page's
      csrf: data.get("csrfmiddlewaretoken") || pageToken(),
      doubleBlank: Number(form.dataset.doubleBlank) || 0,
    });
    moveOn(form, fields);
  });

  function pageToken() {
    var field = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return field ? field.value : null;
  }

  // The form as the server would draw it next: the lead played, the double down, the end closed.
  function moveOn(form, fields) {
    var lead = form.querySelector(".lead-toggle input");
    if (lead) {
      lead.checked = false;
    }
    if (form.dataset.outbox === "play" && game === "straight") {
      form.querySelectorAll(".chips input:checked").forEach(function (picked) {
        picked.checked = false;
      });
    }
    var tile = valuesOf(fields).tile;
    var double = tile && form.querySelector('.btn-double[value="' + tile + '"]');
    if (double) {
      double.disabled = true;
      double.dataset.waiting = "";
    }
    if (form.dataset.outbox === "end") {
      form.reset();
      var panel = form.closest("details");
      if (panel) {
        panel.open = false;
      }
    }
  }

  function tapped(entry) {
    beingKept += 1;
    document.body.dataset.outbox = "waiting";
    outbox.entries(match).then(function (waiting) {
      var head = waiting[0];
      if (head && head.refused && head.refused.status === 422 && head.url === entry.url) {
        // the fix of an entry the rules refused takes its place in the queue
        delete reasons[head.key];
        return outbox.replace(head, entry);
      }
      if (entry.kind === "undo") {
        // a waiting entry is simply taken back; else the undo goes to the server
        return outbox.takeBack(match).then(function (done) {
          return done || outbox.add(entry);
        });
      }
      return outbox.add(entry);
    }).then(function () {
      beingKept -= 1;
      render();
      send();
    });
  }

  // What the entry says, in the board's own words: "Ana 15", "Bo 4-4", "End of the hand: Ana".
  function describe(form, fields) {
    var value = valuesOf(fields);
    var chosen = form.querySelector(".chips input:checked");
    var who = chosen ? chosen.closest("label").textContent.trim() : value.player || "";
    if (form.dataset.outbox === "play") {
      return [who, value.points || value.other_points || value.tile || value.other_tile].join(" ");
    }
    return form.dataset.says + (who ? ": " + who : "");
  }

  function valuesOf(fields) {
    var value = {};
    fields.forEach(function (field) {
      value[field[0]] = field[1];
    });
    return value;
  }

  // -- sending

  function send() {
    if (flushing) {
      flushAgain = true;
      return;
    }
    flushing = true;
    sending(true);
    clearTimeout(retryTimer);
    outbox.flush(heard).then(function (state) {
      flushing = false;
      sending(false);
      if (state === "retry") {
        tryLater(askedPause);
      } else {
        retryPause = 0;
      }
      if (flushAgain) {
        flushAgain = false;
        send();
      }
      render();
    }, function () {
      flushing = false;
      sending(false);
      tryLater();
    });
  }

  // The page says while it sends its entries (data-outbox-sending), and when it is done
  // ("outbox:sent"): a stream's event told meanwhile, of this phone's own entry, waits for the
  // entry's answer, which brings the new board (live.js), instead of asking for it again.
  function sending(now) {
    document.body.toggleAttribute("data-outbox-sending", now);
    if (!now) {
      document.dispatchEvent(new CustomEvent("outbox:sent"));
    }
  }

  function tryLater(asked) {
    retryPause = Math.min(retryPause ? retryPause * 2 : 1000, 15000);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(send, Math.max(asked || 0, retryPause));
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.ready.then(function (registration) {
        return registration.sync && registration.sync.register(outbox.SYNC_TAG);
      }).catch(function () {
        // no Background Sync here: the timer and the "online" event do it
      });
    }
  }

  // Each answer the server gave to one of this phone's entries.
  function heard(entry, result) {
    if (result.outcome === "retry") {
      askedPause = result.pause || 0;
      if (!result.status) {
        wentOffline();
      }
      return;
    }
    cameOnline();
    if (entry.match !== match) {
      return;
    }
    if (result.outcome === "saved") {
      outbox.entries(match).then(function (waiting) {
        // once nothing else waits (the poll keeps the totals meanwhile)
        if (!waiting.length) {
          show(result.html, false, result.target);
        }
      });
    } else if (result.outcome === "settled") {
      refusedForGood(result.html);
    } else if (result.status === 422) {
      reasons[entry.key] = null;
      refusedByTheRules(entry, result.html);
    } else {
      reasons[entry.key] = refusal(result.html);
      render();
    }
  }

  // Refused by the rules: one just tapped, alone, is answered with the board and the reasons;
  // one that waited holds up the rest until fixed, kept or dropped.
  function refusedByTheRules(entry, html) {
    outbox.entries(match).then(function (waiting) {
      var alone = waiting.length === 1 && Date.now() - entry.tappedAt < 10000;
      return alone ? outbox.drop(waiting[0]) : null;
    }).then(function () {
      show(html, true);
    });
  }

  // Refused for good (a result signed meanwhile, say): it has left the outbox; the board as the
  // server has it now, with the server's words over it.
  function refusedForGood(html) {
    var said = refusal(html);
    refresh(true).then(function () {
      var messages = document.getElementById("board-messages");
      if (messages) {
        messages.textContent = "";
        messages.append(said);
      }
    });
  }

  // The server's own words (table_pages/refusals.py), with its sign-in link where there is one.
  function refusal(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var said = document.createElement("div");
    said.append.apply(said, page.body.childNodes);
    return said;
  }

  // Puts the server's board (or the part it names) in place, unless someone is typing in it,
  // keeping what the player did since their last entry (a pick, an open panel, pips typed).
  function show(html, always, target) {
    var typing = document.activeElement;
    var typed = 'input[type="number"], input[type="text"], textarea, select';
    if (!always && typing && typing.matches(typed) && board().contains(typing)) {
      return;
    }
    var part = target ? document.querySelector(target) : null;
    if (target && !part) {
      refresh();
      return;
    }
    htmx.swap(part || board(), html, { swapStyle: "outerHTML" });
    if (!always) {
      Object.keys(touched).forEach(function (id) {
        var field = document.getElementById(id);
        if (field && field.matches("details")) {
          field.open = touched[id].open;
        } else if (field && (field.type === "radio" || field.type === "checkbox")) {
          field.checked = touched[id].checked;
        } else if (field) {
          field.value = touched[id].value;
        }
      });
    }
    render();
    keepCopy();
  }

  // what the player changed on the board since their last entry, by element id
  var touched = {};
  ["change", "input", "toggle"].forEach(function (kind) {
    document.addEventListener(kind, function (event) {
      var field = event.target;
      if (field.id && field.closest && field.closest("#board")) {
        touched[field.id] = { checked: field.checked, value: field.value, open: field.open };
      }
    }, true);
  });

  // -- online, offline

  function wentOffline() {
    if (!offline) {
      offline = true;
      render();
    }
  }

  function cameOnline() {
    lastContact = Date.now();
    // an answer to a question asked before the drop, landing after it: the phone is offline
    // still (its "online" event says when it is back)
    if (offline && navigator.onLine !== false) {
      offline = false;
      render();
      send();
      catchUp();
    }
  }

  // After a drop, the whole board again (the poll has brought the totals and hands already).
  function catchUp() {
    outbox.entries(match).then(function (waiting) {
      if (!waiting.length) {
        refresh();
      }
    });
  }

  // The board as the server has it now, put in place as an answer is (``always``: as a refused
  // one is).
  function refresh(always) {
    return fetch(here, { headers: { "HX-Request": "true" }, credentials: "same-origin" }).then(function (response) {
      return response.ok && response.text().then(function (html) {
        show(html, Boolean(always));
      });
    }).catch(wentOffline).then(render);
  }

  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", send);
  document.addEventListener("htmx:sendError", wentOffline);
  document.addEventListener("htmx:timeout", wentOffline);
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status > 0 && xhr.status < 500) {
      cameOnline();
      if (xhr.status === 200) {
        keepCopy();
      }
    }
  });
  document.addEventListener("htmx:afterSettle", render);
  // a board put in place from its stream's event (live.js): heard from the server, kept too
  document.addEventListener("live:drawn", function () {
    cameOnline();
    keepCopy();
  });
  if (outbox.channel) {
    // another tab or the service worker sent entries: the board is fetched once all are sent
    outbox.channel.onmessage = function () {
      var before = drawnWaiting;
      outbox.entries(match).then(function (waiting) {
        draw(waiting);
        var head = waiting[0];
        if (head && head.refused && !(head.key in reasons)) {
          // refused while sent by the service worker: asked again here, to show why
          outbox.retry(head).then(send);
        } else if (before && !waiting.length) {
          document.body.dataset.outbox = "waiting";
          refresh();
        }
      });
    };
  }

  // -- the board: waiting entries, provisional totals, refusals, "Offline: as of"

  function render() {
    outbox.entries(match).then(draw);
  }

  function draw(waiting) {
    var section = document.getElementById("outbox");
    var note = document.getElementById("offline-note");
    if (!section || !note) {
      return;
    }
    // "waiting" or "empty": for whoever checks that everything was sent
    document.body.dataset.outbox = waiting.length || beingKept ? "waiting" : "empty";
    drawnWaiting = waiting.length;
    note.hidden = !offline;
    note.textContent = note.dataset.says.replace("%(time)s", clock(lastContact));
    section.hidden = waiting.length === 0;
    var list = section.querySelector(".outbox-list");
    list.textContent = "";
    waiting.forEach(function (entry) {
      var item = document.createElement("li");
      item.className = entry.refused ? "refused" : "waiting";
      var mark = document.createElement("strong");
      mark.textContent = entry.refused ? section.dataset.refused : section.dataset.pending;
      item.append(mark, " ", entry.says);
      if (entry.kind === "end" && game !== "chickenfoot" && !entry.refused) {
        item.append(" (" + section.dataset.later + ")");
      }
      list.append(item);
    });
    drawTotals(section, provisional(waiting));
    drawRefusal(section, waiting[0]);
  }

  // The time as the board's own times are told ("Last change: ..., 02:30."): hours and minutes
  // on 24 hours in the hall's time zone (the board's data-time-zone, one Django knows), not the
  // phone's.
  function clock(time) {
    var zone = board() && board().dataset.timeZone;
    var format = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone || undefined };
    return new Intl.DateTimeFormat("en-GB", format).format(new Date(time));
  }

  // What the waiting entries add by plain addition, by seat, up to a refused entry or an undo.
  function provisional(waiting) {
    var added = {};
    var doubles = doublesDown();
    function add(seat, points) {
      added[seat] = (added[seat] || 0) + points;
    }
    for (var i = 0; i < waiting.length; i++) {
      var entry = waiting[i];
      var value = valuesOf(entry.fields);
      if (entry.refused || entry.kind === "undo") {
        break;
      }
      if (entry.kind === "play" && game === "sedma") {
        add(value.player, sedmaPoints(value.tile || value.other_tile, doubles));
      } else if (entry.kind === "play") {
        add(value.player, Number(value.points || value.other_points) || 0);
      } else if (game === "chickenfoot") {
        seats().forEach(function (seat) {
          add(seat, Number(value["pips_" + seat]) || 0);
        });
        if (value.double_blank) {
          add(value.double_blank, entry.doubleBlank);
        }
      } else if (game === "sedma") {
        doubles = [];
      }
    }
    return added;
  }

  // Sedma: a double scores 1 plus 1 for each lighter double down (0-0: for every double down).
  function sedmaPoints(tile, doubles) {
    var halves = String(tile || "").split("-");
    if (halves.length !== 2 || halves[0] !== halves[1]) {
      return 0;
    }
    var pips = Number(halves[0]);
    var points = 1 + doubles.filter(function (down) {
      return pips === 0 || down < pips;
    }).length;
    doubles.push(pips);
    if (doubles.length === 7) {
      doubles.length = 0;
    }
    return points;
  }

  function doublesDown() {
    return Array.prototype.map.call(board().querySelectorAll(".btn-double[disabled]:not([data-waiting])"), function (button) {
      return Number(button.value.split("-")[0]);
    });
  }

  function seats() {
    var all = [];
    board().querySelectorAll(".total[data-seats]").forEach(function (side) {
      all.push.apply(all, side.dataset.seats.split(" "));
    });
    return all;
  }


  function drawTotals(section, added) {
    board().querySelectorAll(".total[data-seats]").forEach(function (side) {
      var total = side.querySelector(".side-total");
      var extra = side.dataset.seats.split(" ").reduce(function (sum, seat) {
        return sum + (added[seat] || 0);
      }, 0);
      var old = side.querySelector(".provisional-note");
      if (old) {
        old.remove();
      }
      total.textContent = Number(total.dataset.total) + extra;
      total.classList.toggle("provisional", extra !== 0);
      if (extra !== 0) {
        // "+15" in the box's corner (it takes no room); "+15 waiting" for a screen reader
        var note = document.createElement("small");
        var shown = document.createElement("span");
        var said = document.createElement("span");
        note.className = "provisional-note";
        shown.setAttribute("aria-hidden", "true");
        shown.textContent = "+" + extra;
        said.className = "visually-hidden";
        said.textContent = section.dataset.provisional.replace("%(points)s", extra);
        note.append(shown, said);
        total.after(note);
      }
    });
  }

  function drawRefusal(section, head) {
    var refused = Boolean(head && head.refused);
    var why = section.querySelector(".outbox-refusal");
    var actions = section.querySelector(".outbox-actions");
    why.hidden = actions.hidden = !refused;
    why.textContent = "";
    if (!refused) {
      return;
    }
    var byRules = head.refused.status === 422;
    var reason = reasons[head.key];
    if (reason && !byRules) {
      why.append(document.importNode(reason, true));
    }
    var advice = document.createElement("p");
    advice.textContent = byRules ? section.dataset.fix : section.dataset.kept;
    why.append(advice);
    actions.querySelector("[data-outbox-retry]").hidden = byRules;
    actions.querySelector("[data-outbox-export]").hidden = byRules;
  }

  // -- the player's say on a refused entry

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-outbox-drop], [data-outbox-retry], [data-outbox-export]");
    if (!button) {
      return;
    }
    outbox.entries(match).then(function (waiting) {
      var head = waiting[0];
      if (button.dataset.outboxExport) {
        saveAsFile(button.dataset.outboxExport, waiting);
      } else if (head && head.refused) {
        var done = "outboxDrop" in button.dataset ? outbox.drop(head) : outbox.retry(head);
        done.then(function () {
          render();
          send();
        });
      }
    });
  });

  // The match as stored with this phone's waiting entries after it, as a match file.
  function saveAsFile(address, waiting) {
    var entries = waiting.map(function (entry) {
      var fields = {};
      entry.fields.forEach(function (field) {
        fields[field[0]] = field[0] in fields ? [].concat(fields[field[0]], field[1]) : field[1];
      });
      return { kind: entry.kind, fields: fields };
    });
    outbox.csrfToken(waiting[0] || {}).then(function (token) {
      return fetch(address, {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-CSRFToken": token || "" },
        body: new URLSearchParams({ entries: JSON.stringify(entries) }),
      });
    }).then(function (response) {
      if (!response.ok) {
        throw new Error(response.statusText);
      }
      var named = /filename="?([^";]+)"?/.exec(response.headers.get("Content-Disposition") || "");
      return response.blob().then(function (file) {
        var link = document.createElement("a");
        link.href = URL.createObjectURL(file);
        link.download = named ? named[1] : "match.json";
        document.body.append(link);
        link.click();
        link.remove();
      });
    }).catch(function () {
      // the file is written by the server, from the entries as it reads them
      var section = document.getElementById("outbox");
      var said = document.createElement("p");
      said.setAttribute("role", "alert");
      said.textContent = section.dataset.needsNetwork;
      section.querySelector(".outbox-refusal").append(said);
    });
  }

  // -- the phone's copy of the board

  var copyTimer = null;

  // Keeps the board as it stands (without what waits) for the service worker to show offline.
  function keepCopy() {
    if (!("caches" in window)) {
      return;
    }
    clearTimeout(copyTimer);
    copyTimer = setTimeout(function () {
      var page = document.documentElement.cloneNode(true);
      var kept = page.querySelector("#board");
      if (!kept) {
        return;
      }
      kept.dataset.served = "network";
      kept.dataset.asOf = new Date(lastContact).toISOString();
      page.querySelectorAll(".side-total[data-total]").forEach(function (total) {
        total.textContent = total.dataset.total;
        total.classList.remove("provisional");
      });
      page.querySelectorAll(".provisional-note, #outbox li, .outbox-refusal > *").forEach(function (added) {
        added.remove();
      });
      page.querySelectorAll("#outbox, #offline-note").forEach(function (hidden) {
        hidden.hidden = true;
      });
      var html = "<!doctype html>\n" + page.outerHTML;
      caches.open(outbox.BOARDS).then(function (cache) {
        return cache.put(here, new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
      });
    }, 300);
  }

  // -- on opening the board

  outbox.entries(match).then(function (waiting) {
    // the plays waiting decide the form, as if just tapped
    var form = first.querySelector('form[data-outbox="play"]');
    if (form && waiting.some(function (entry) { return entry.kind === "play"; })) {
      moveOn(form, []);
    }
    // an entry refused before is asked about again: the server says why (or takes it now)
    return waiting[0] && waiting[0].refused ? outbox.retry(waiting[0]) : null;
  }).then(function () {
    render();
    send();
  });
  if (!offline) {
    keepCopy();
  }
})();
