// The outbox: entries this phone made that the server has not recorded yet, in IndexedDB
// (idb-keyval), each with a key made on the phone, sent in the order tapped. Used by the board
// (offline.js) and the service worker, so it touches no page. docs/offline.md explains it.
var outbox = (function () {
  "use strict";

  var store = idbKeyval.createStore("domino-scorekeeper", "outbox");
  // one page or worker sends at a time (Web Locks)
  var LOCK = "domino-scorekeeper-outbox";
  // every page and the worker hear when the outbox changes
  var channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(LOCK) : null;
  var TIMEOUT = 5000;
  var lastId = 0;

  function changed() {
    if (channel) {
      channel.postMessage("changed");
    }
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (byte) {
      return (byte + 256).toString(16).slice(1);
    }).join("");
  }

  function withLock(work, options) {
    if (typeof navigator !== "undefined" && navigator.locks) {
      return navigator.locks.request(LOCK, options || {}, work);
    }
    return work(true);
  }

  // The entries waiting, oldest first; only one match's when ``match`` is given.
  function entries(match) {
    return idbKeyval.values(store).then(function (all) {
      return all.filter(function (entry) {
        return !match || entry.match === match;
      }).sort(function (a, b) {
        return a.id - b.id;
      });
    });
  }

  // Keeps a tapped entry: {match, url, kind, says, fields: [[name, value], ...], csrf}.
  function add(entry) {
    lastId = Math.max(Date.now() * 1000, lastId + 1);
    entry.id = lastId;
    entry.key = newKey();
    entry.tappedAt = Date.now();
    entry.refused = null;
    return idbKeyval.set(entry.id, entry, store).then(function () {
      changed();
      return entry;
    });
  }

  // An entry that takes the place of one the server refused: same position in the queue.
  function replace(refused, entry) {
    entry.id = refused.id;
    entry.key = newKey();
    entry.tappedAt = Date.now();
    entry.refused = null;
    return withLock(function () {
      return idbKeyval.set(entry.id, entry, store);
    }).then(function () {
      changed();
      return entry;
    });
  }

  function drop(entry) {
    return withLock(function () {
      return idbKeyval.del(entry.id, store);
    }).then(changed);
  }

  // Takes back a match's newest entry if it is not being sent: true if it did.
  function takeBack(match) {
    return withLock(function (lock) {
      if (!lock) {
        return false;
      }
      return entries(match).then(function (waiting) {
        var last = waiting[waiting.length - 1];
        if (!last || last.refused || last.kind === "undo") {
          return false;
        }
        return idbKeyval.del(last.id, store).then(function () {
          return true;
        });
      });
    }, { ifAvailable: true }).then(function (done) {
      if (done) {
        changed();
      }
      return done;
    });
  }

  // Django's CSRF token as it is now (it changes on signing in), else the one the entry's form had.
  function csrfToken(entry) {
    if (typeof document !== "undefined") {
      var found = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
      return Promise.resolve(found ? decodeURIComponent(found[1]) : entry.csrf);
    }
    if (self.cookieStore) {
      return self.cookieStore.get("csrftoken").then(function (cookie) {
        return cookie ? cookie.value : entry.csrf;
      }, function () {
        return entry.csrf;
      });
    }
    return Promise.resolve(entry.csrf);
  }

  // Sends one entry as htmx would: "saved" (now or before), "refused" (with the server's page:
  // it waits for the player's say), "settled" (refused for good, with the server's page: it
  // leaves the outbox) or "retry" (no answer).
  function send(entry) {
    return csrfToken(entry).then(function (token) {
      var body = new URLSearchParams(entry.fields);
      body.set("entry_key", entry.key);
      var controller = typeof AbortController === "function" ? new AbortController() : null;
      var timer = setTimeout(function () {
        if (controller) {
          controller.abort();
        }
      }, TIMEOUT);
      return fetch(entry.url, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        redirect: "manual",
        headers: { "HX-Request": "true", "X-CSRFToken": token || "" },
        signal: controller ? controller.signal : undefined,
      }).then(function (response) {
        return response.text().then(function (html) {
          clearTimeout(timer);
          return answer(response, html);
        });
      }).catch(function () {
        clearTimeout(timer);
        return { outcome: "retry", status: 0 };
      });
    });
  }

  function answer(response, html) {
    var status = response.type === "opaqueredirect" ? 403 : response.status;
    if (response.ok) {
      return { outcome: "saved", status: status, html: html, target: response.headers.get("HX-Retarget") };
    }
    if (status >= 500 || status === 429 || status === 408 || status === 0) {
      var pause = Number(response.headers.get("Retry-After")) || 0;
      return { outcome: "retry", status: status, pause: pause * 1000 };
    }
    if (settled(status, html)) {
      return { outcome: "settled", status: status, html: html };
    }
    return { outcome: "refused", status: status, html: html };
  }

  // A refusal no retry can change (a 4xx here, busy ones aside): a locked result (403 "locked":
  // signed or disputed), or any but the rules' 422 (the entry fixed in its place) and a 403 that
  // a sign-in or a new link lifts (table_pages/refusals.py's data-because).
  function settled(status, html) {
    return status === 403 ? /data-because="locked"/.test(html) : status !== 422;
  }

  // Sends each match's entries in the order tapped, up to one refused, and stops at the first
  // that got no answer; ``heard(entry, result)`` hears each. "done", "stopped" or "retry".
  function flush(heard) {
    return withLock(function () {
      var state = "done";
      function next() {
        return entries().then(function (waiting) {
          // each match's oldest entry may go, unless it was refused
          var entry = null;
          var seen = {};
          for (var i = 0; i < waiting.length && !entry; i++) {
            var oldest = !seen[waiting[i].match];
            seen[waiting[i].match] = true;
            if (oldest && waiting[i].refused) {
              state = "stopped";
            } else if (oldest) {
              entry = waiting[i];
            }
          }
          if (!entry) {
            return state;
          }
          return send(entry).then(function (result) {
            return keep(entry, result).then(function () {
              if (heard) {
                heard(entry, result);
              }
              return result.outcome === "retry" ? "retry" : next();
            });
          });
        });
      }
      return next();
    });
  }

  function keep(entry, result) {
    if (result.outcome === "saved" || result.outcome === "settled") {
      return idbKeyval.del(entry.id, store).then(changed);
    }
    if (result.outcome === "refused") {
      entry.refused = { status: result.status, at: Date.now() };
      return idbKeyval.set(entry.id, entry, store).then(changed);
    }
    return Promise.resolve();
  }

  // A refused entry is tried again (after signing in, say): it goes back in the queue.
  function retry(entry) {
    entry.refused = null;
    return withLock(function () {
      return idbKeyval.set(entry.id, entry, store);
    }).then(changed);
  }

  return {
    // the phone's copies of the boards it opened (the service worker's too)
    BOARDS: "boards",
    SYNC_TAG: "outbox",
    isBoard: function (path) {
      return /^\/matches\/\d+\/$/.test(path);
    },
    channel: channel,
    entries: entries,
    add: add,
    replace: replace,
    drop: drop,
    retry: retry,
    takeBack: takeBack,
    flush: flush,
    csrfToken: csrfToken,
  };
})();
