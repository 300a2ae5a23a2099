/* Ticks the match clocks of the live scores (issue 18) on the public pages and the big screen.
 *
 * A live score whose clock runs carries data-clock-origin: when its match clock read 0:00 (ms since the epoch,
 * on the server's time). Every second each one shows the minutes since then, as a referee writes them ("23'",
 * "40+2'" in added time), so the cached section needs no rebuild to keep time; a time-out, half-time or full
 * time changes the section (the live check brings it) and stops the ticking. The page uses this device's clock:
 * phones and TVs keep theirs set to the network's time, which is close enough for minutes.
 */
(function () {
  "use strict";
  function minutes(el) {
    var elapsed = (Date.now() - parseInt(el.getAttribute("data-clock-origin"), 10)) / 1000;
    var half = parseInt(el.getAttribute("data-half"), 10) || 2400;
    var end = el.hasAttribute("data-second-half") ? 2 * half : half;
    if (elapsed > end) { return Math.floor(end / 60) + "+" + (Math.floor((elapsed - end) / 60) + 1) + "'"; }
    return Math.max(0, Math.floor(elapsed / 60)) + "'";
  }
  function tick() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-clock-origin]"), function (el) {
      el.textContent = minutes(el);
    });
  }
  tick();
  window.setInterval(tick, 1000);
  document.addEventListener("live:updated", tick);
})();
