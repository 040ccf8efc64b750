// Starting a match: the picker of who leads or opens first names the players as they are typed
// (without JavaScript it says "Seat 1" ... and works the same).
document.addEventListener("input", function (event) {
  var box = event.target;
  var seat = box.name && box.name.match(/^seat_(\d+)$/);
  var picker = seat && document.getElementById("id_first");
  if (!picker) {
    return;
  }
  var option = picker.querySelector('option[value="' + seat[1] + '"]');
  if (option) {
    if (!option.dataset.seat) {
      option.dataset.seat = option.textContent;
    }
    option.textContent = box.value.trim() || option.dataset.seat;
  }
});
