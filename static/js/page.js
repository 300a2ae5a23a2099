/* Small behaviours of the public and printable pages, without inline script (strict CSP):
 * a share link selected when focused, a team picker that shows its team at once, print buttons. */
(function () {
  "use strict";
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("[data-select-on-focus]")) { event.target.select(); }
  });
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches && el.matches("[data-submit-on-change]") && el.form) { el.form.submit(); }
  });
  // A long row of chips (rounds, days, pools) shows the current one.
  document.querySelectorAll(".chips [aria-current]").forEach(function (chip) {
    chip.parentNode.scrollLeft = chip.offsetLeft - (chip.parentNode.clientWidth - chip.offsetWidth) / 2;
  });
  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest("[data-print]");
    if (el) { event.preventDefault(); window.print(); }
  });
})();
