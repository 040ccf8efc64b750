// The Share button beside a link (templates/access/_share_link.html): the phone's share sheet
// (Web Share API) where the browser has one, else the link copied to the clipboard, with a word
// that it was. Without JavaScript the button stays hidden and the link is there to select.
(function () {
  "use strict";

  function say(box, message) {
    box.querySelector("[data-share-status]").textContent = message;
  }

  function said(box, which) {
    return box.querySelector("[data-share-status]").dataset[which];
  }

  // Served over plain HTTP (a hall's own network) a browser has no navigator.clipboard: the
  // older copy command copies the selected link, and where even that is refused the link is
  // left selected for the phone's own Copy.
  function copyTheOldWay(box) {
    var shown = box.querySelector("code");
    var range = document.createRange();
    range.selectNodeContents(shown);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    say(box, said(box, copied ? "copied" : "selected"));
  }

  function copy(box) {
    if (!navigator.clipboard || typeof navigator.clipboard.writeText !== "function") {
      copyTheOldWay(box);
      return;
    }
    navigator.clipboard.writeText(box.dataset.shareUrl).then(
      function () {
        say(box, said(box, "copied"));
      },
      function () {
        copyTheOldWay(box);
      }
    );
  }

  function share(box) {
    say(box, "");
    if (typeof navigator.share !== "function") {
      copy(box);
      return;
    }
    var data = { title: box.dataset.shareTitle || document.title, url: box.dataset.shareUrl };
    navigator.share(data).catch(function (error) {
      // closing the share sheet is no failure: nothing more to do
      if (!error || error.name !== "AbortError") {
        copy(box);
      }
    });
  }

  document.querySelectorAll("[data-share]").forEach(function (box) {
    var button = box.querySelector("[data-share-button]");
    button.hidden = false;
    button.addEventListener("click", function () {
      share(box);
    });
  });
})();
