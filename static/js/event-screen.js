// The event's big screen: show one slide (now and next, then each division) at a time, in turn, and reload the
// page every few rounds so scores and tables stay fresh (the page is cached a few seconds on the server).
(function () {
  "use strict";
  var screen = document.getElementById("screen");
  if (!screen) { return; }
  var slides = Array.prototype.slice.call(document.querySelectorAll("#screen .slide"));
  var seconds = parseInt(screen.getAttribute("data-seconds"), 10) || 15;
  var title = document.getElementById("slide-title");
  var counter = document.getElementById("slide-counter");
  var index = 0;
  var shown = 0;
  function show() {
    slides.forEach(function (slide, i) { slide.hidden = i !== index; });
    if (title) { title.textContent = slides[index].getAttribute("data-title") || ""; }
    if (counter) { counter.textContent = (index + 1) + " / " + slides.length; }
    screen.setAttribute("data-slide", String(index));
  }
  if (!slides.length) { return; }
  show();
  window.setInterval(function () {
    index = (index + 1) % slides.length;
    shown += 1;
    if (index === 0 && shown >= slides.length * 2) { window.location.reload(); return; }
    show();
  }, seconds * 1000);
}());
