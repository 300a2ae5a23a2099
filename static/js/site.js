// The site's small behaviours, kept out of the pages so that the Content-Security-Policy allows no inline script
// or style: print buttons, and the team colours that templates give as data attributes.
(function () {
  "use strict";

  function paint(root) {
    root.querySelectorAll("[data-colour]").forEach(function (el) {
      el.style.setProperty("background", el.dataset.colour);
      if (el.dataset.border) el.style.setProperty("border-color", el.dataset.border);
    });
    root.querySelectorAll("[data-team-colour]").forEach(function (el) {
      el.style.setProperty("--team", el.dataset.teamColour);
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-print]");
    if (button) window.print();
  });
  document.addEventListener("DOMContentLoaded", function () { paint(document); });
  document.addEventListener("htmx:afterSwap", function (event) { paint(event.target); });
})();
