// The wall board for a TV (templates/leagues/wall.html): a Full screen button where the browser
// has the Fullscreen API (hidden while the board is full screen; Esc leaves it), and a word on
// the screen while its poll cannot reach the server, so that a TV showing old scores says so.
(function () {
  "use strict";
  var root = document.documentElement;
  var button = document.querySelector("[data-fullscreen]");
  if (button && document.fullscreenEnabled && typeof root.requestFullscreen === "function") {
    var showButton = function () {
      button.hidden = Boolean(document.fullscreenElement);
    };
    button.addEventListener("click", function () {
      root.requestFullscreen().catch(function () {
        // refused (no user gesture, a browser setting): the board stays as it is
      });
    });
    document.addEventListener("fullscreenchange", showButton);
    showButton();
  }

  var offline = document.querySelector("[data-wall-offline]");
  // the board's stream (live.js) says so too: cut, or back
  document.addEventListener("htmx:sseError", function () {
    if (offline) {
      offline.hidden = false;
    }
  });
  document.addEventListener("htmx:sseOpen", function () {
    if (offline) {
      offline.hidden = true;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    if (!offline || !elt || (elt.id !== "wall-board" && elt.id !== "wall-poll")) {
      return;
    }
    // a 304 (nothing new) is a success too: the board is as it should be
    offline.hidden = event.detail.successful === true;
  });
})();
