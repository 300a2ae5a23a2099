// The nation draw on the big screen: the cards of a draw are revealed one at a time (the newest one large), every
// few seconds, or at once with a key press or a tap. Without this script every card is shown.
(function () {
  "use strict";
  var main = document.getElementById("draw");
  var list = document.getElementById("draw-cards");
  if (!main || !list) { return; }
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
