// The nation draw on the big screen: the cards of a draw are revealed one at a time (the newest one large), every
// few seconds, or at once with a key press or a tap. Without this script every card is shown.
// A dice draw picked in turn ("data-live") instead follows the picks as the organiser records them: the page
// fetches itself every few seconds and shows the new state, until everyone has picked.
(function () {
  "use strict";
  var main = document.getElementById("draw");
  if (!main) { return; }
  var POLL_MS = 2000;
  var last = main.innerHTML;

  function follow() {
    window.setTimeout(function () {
      window.fetch(window.location.href, {credentials: "same-origin", cache: "no-store", headers: {"Accept": "text/html"}})
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (html) {
            var fresh = new window.DOMParser().parseFromString(html, "text/html").getElementById("draw");
            // Only a change is shown (the current player's card would otherwise animate again at each check).
            if (fresh && fresh.innerHTML !== last) {
              last = fresh.innerHTML;
              main.innerHTML = fresh.innerHTML;
              if (fresh.getAttribute("data-live") !== "true") {
                main.removeAttribute("data-live");
                main.setAttribute("data-done", "true");
                return;
              }
            }
          }
          follow();
        })
        .catch(follow);
    }, POLL_MS);
  }

  if (main.getAttribute("data-live") === "true") { follow(); return; }

  var list = document.getElementById("draw-cards");
  if (!list) { return; }
  var cards = Array.prototype.slice.call(list.querySelectorAll(".draw-card"));
  var seconds = parseFloat(main.getAttribute("data-seconds")) || 3;
  var counter = document.getElementById("draw-counter");
  var shown = 0;
  var timer = null;
  list.classList.add("revealing");
  cards.forEach(function (card) { card.hidden = true; });
  function reveal() {
    if (shown >= cards.length) {
      window.clearInterval(timer);
      list.classList.remove("revealing");
      main.setAttribute("data-done", "true");
      return;
    }
    cards.forEach(function (card) { card.classList.remove("current"); });
    var card = cards[shown];
    card.hidden = false;
    card.classList.add("current");
    shown += 1;
    main.setAttribute("data-revealed", String(shown));
    if (counter) { counter.textContent = "· " + shown + " / " + cards.length; }
    if (shown >= cards.length) { main.setAttribute("data-done", "true"); }
  }
  reveal();
  timer = window.setInterval(reveal, seconds * 1000);
  function next() { reveal(); window.clearInterval(timer); timer = window.setInterval(reveal, seconds * 1000); }
  document.addEventListener("keydown", function (event) {
    if (event.key === " " || event.key === "ArrowRight" || event.key === "Enter") { event.preventDefault(); next(); }
  });
  main.addEventListener("click", next);
}());
