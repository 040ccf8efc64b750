// Starting a match: the picker of who leads or opens first names the players as they are typed
// (without JavaScript it says "Seat 1" ... and works the same). Names typed before this script
// arrived (it loads after the page shows, on a slow network) are taken up as it starts.
(function () {
  "use strict";
  function name(box) {
    var seat = box.name && box.name.match(/^seat_(\d+)$/);
    var picker = seat && document.getElementById("id_first");
    var option = picker && picker.querySelector('option[value="' + seat[1] + '"]');
    if (option) {
      if (!option.dataset.seat) {
        option.dataset.seat = option.textContent;
      }
      option.textContent = box.value.trim() || option.dataset.seat;
    }
  }
  document.addEventListener("input", function (event) {
    name(event.target);
  });
  document.querySelectorAll('input[name^="seat_"]').forEach(name);
})();
