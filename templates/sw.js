// The service worker (served by scorekeeper/table_pages/offline.py, version {{ version }}).
//
// - The app's static files are kept when it is installed, and served from the phone.
// - Pages are asked of the network first. Each scoreboard this phone opens is kept (and kept up
//   to date by static/js/offline.js as the board changes); with no network that copy is shown,
//   marked as a copy, or for any other page a short "no network" page.
// - Background Sync: when the network is back, the outbox (static/js/outbox.js) is sent even if
//   no scoreboard is open.
"use strict";
importScripts({% for name in worker_scripts %}"{{ name }}"{% if not forloop.last %}, {% endif %}{% endfor %});

var APP = "app-{{ version }}";
var APP_FILES = {{ app_files|safe }};
var OFFLINE_PAGE = "{{ offline_page }}";
var STATIC_URL = "{{ static_url }}";
// how long a page may take before the phone's copy is shown instead
var PATIENCE = 5000;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(APP).then(function (cache) {
      return cache.addAll(APP_FILES.concat([OFFLINE_PAGE]));
    }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("app-") === 0 && name !== APP;
      }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () {
      return self.clients.claim();
    })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) {
    return;
  }
  if (url.pathname.indexOf(STATIC_URL) === 0) {
    event.respondWith(keptFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(request, url));
  }
});

function keptFirst(request) {
  return caches.match(request).then(function (kept) {
    return kept || fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(APP).then(function (cache) {
          cache.put(request, copy);
        });
      }
      return response;
    });
  });
}

function networkFirst(request, url) {
  var board = outbox.isBoard(url.pathname);
  var answer = fetch(request).then(function (response) {
    if (board && response.ok) {
      var copy = response.clone();
      caches.open(outbox.BOARDS).then(function (cache) {
        cache.put(url.pathname, copy);
      });
    }
    return response;
  });
  var late = new Promise(function (resolve, reject) {
    setTimeout(function () {
      reject(new Error("no answer yet"));
    }, PATIENCE);
  });
  return Promise.race([answer, late]).catch(function () {
    return copyOf(url.pathname, board).then(function (copy) {
      return copy || answer;
    });
  }).catch(function () {
    return caches.match(OFFLINE_PAGE).then(function (page) {
      return page || Response.error();
    });
  });
}

// The phone's copy of a board, marked so that the page says it is a copy ("Offline: as of").
function copyOf(path, board) {
  if (!board) {
    return Promise.resolve(null);
  }
  return caches.open(outbox.BOARDS).then(function (cache) {
    return cache.match(path);
  }).then(function (kept) {
    if (!kept) {
      return null;
    }
    return kept.text().then(function (html) {
      return new Response(html.replace('data-served="network"', 'data-served="copy"'), {
        headers: { "Content-Type": "text/html; charset=utf-8" },
      });
    });
  });
}

self.addEventListener("sync", function (event) {
  if (event.tag === outbox.SYNC_TAG) {
    event.waitUntil(outbox.flush().then(function (state) {
      if (state === "retry") {
        // still no network: the browser tries again later
        throw new Error("The outbox is still waiting for the network.");
      }
    }));
  }
});
