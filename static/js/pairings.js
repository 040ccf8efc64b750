// The pairings page (templates/nights/public_pairings.html): the list by name filters as one
// types a name, the same way the server filters it for ?name= (nights/pairings.py:
// name_matches: contains, accents and case aside), and again after each poll swaps it in.
(function () {
  "use strict";

  function folded(text) {
    return text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .trim();
  }

  function filter() {
    var box = document.querySelector("[data-name-filter]");
    if (!box) {
      return;
    }
    var wanted = folded(box.value);
    var found = 0;
    document.querySelectorAll("tr[data-name]").forEach(function (row) {
      var matches = !wanted || folded(row.getAttribute("data-name")).indexOf(wanted) !== -1;
      row.hidden = !matches;
      if (matches) {
        found += 1;
      }
    });
    var none = document.querySelector("[data-name-none]");
    if (none) {
      none.hidden = found > 0;
    }
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("[data-name-filter]")) {
      filter();
    }
  });
  document.addEventListener("htmx:afterSwap", filter);
})();
