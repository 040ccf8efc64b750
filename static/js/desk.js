// The director's desk (templates/nights/desk.html): a short sound when the number of disputes
// goes up. Browsers let a page make sound only after a tap on it, so the desk shows a button that
// turns the sound on; the tone is made with the Web Audio API, so there is no file to load.
(function () {
  "use strict";
  var button = document.querySelector("[data-desk-sound]");
  var audio = null;
  var AudioContext = window.AudioContext || window.webkitAudioContext;

  function disputes() {
    var desk = document.getElementById("desk");
    return desk ? Number(desk.dataset.disputes || 0) : 0;
  }

  // says whether it sounded (the page records that it did: data-dispute-sound on <html>)
  function beep() {
    if (!audio) {
      return false;
    }
    var tone = audio.createOscillator();
    var volume = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.2, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.6);
    tone.connect(volume);
    volume.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.6);
    return true;
  }

  if (button && AudioContext) {
    button.hidden = false;
    button.addEventListener("click", function () {
      if (!audio) {
        audio = new AudioContext();
      }
      audio.resume();
      button.setAttribute("aria-pressed", "true");
      beep();
    });
  }

  var seen = disputes();
  document.addEventListener("htmx:afterSwap", function () {
    var now = disputes();
    if (now > seen && beep()) {
      document.documentElement.dataset.disputeSound = String(now);
    }
    seen = now;
  });
})();
