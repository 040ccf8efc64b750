// The round clock's line (templates/nights/_clock.html): while the clock runs, the time left is
// counted down each second to the instant in data-runs-out (seconds since 1970), written into
// the sentence of data-says at "{left}". The server's poll brings the line afresh when the clock
// is paused, resumed, ended or has run out (live.js asks it when the count reaches nought: the
// event "clock:up"); without JavaScript the line says the time left when the page was drawn.
(function () {
  "use strict";

  function written(seconds) {
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = seconds % 60;
    var two = function (n) {
      return (n < 10 ? "0" : "") + n;
    };
    return hours ? hours + ":" + two(minutes) + ":" + two(rest) : minutes + ":" + two(rest);
  }

  function tick() {
    var now = Date.now() / 1000;
    document.querySelectorAll("[data-runs-out][data-says]").forEach(function (line) {
      var text = line.querySelector("[data-clock-text]");
      if (!text) {
        return;
      }
      var left = Math.max(0, Math.round(Number(line.dataset.runsOut) - now));
      text.textContent = line.dataset.says.replace("{left}", written(left));
      if (left === 0 && !line.dataset.up) {
        line.dataset.up = "said";
        document.dispatchEvent(new CustomEvent("clock:up"));
      }
    });
  }

  tick();
  window.setInterval(tick, 1000);
})();
