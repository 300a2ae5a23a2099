/* The big screen (hall TV): shows one slide at a time (live scores and next kick-offs, each pool's table, the
 * bracket), each for data-seconds, fetching the slide's sections from the live URL when it comes up; live.js
 * then keeps the shown sections up to date. A click anywhere (or the button) asks for full screen. */
(function () {
  "use strict";
  var screen = document.getElementById("screen");
  if (!screen || !window.fetch) { return; }
  var url = screen.getAttribute("data-live-url");
  var seconds = parseInt(screen.getAttribute("data-seconds") || "12", 10);
  var slides = Array.prototype.slice.call(document.querySelectorAll("#slides > li"));
  var stage = document.getElementById("stage");
  var title = document.getElementById("slide-title");
  var counter = document.getElementById("slide-counter");
  var index = -1;

  function show(i) {
    var slide = slides[i];
    var ids = slide.getAttribute("data-sections").split(",");
    var query = "?s=" + encodeURIComponent(ids.map(function (id) { return id + "!-"; }).join(","));
    return fetch(url + query, {cache: "no-store", credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (response) { return response.json(); })
      .then(function (data) {
        stage.innerHTML = "";
        ids.forEach(function (id) {
          var found = data.sections[id];
          if (!found) { return; }
          var box = document.createElement("div");
          box.className = "section";
          box.setAttribute("data-section", id);
          box.setAttribute("data-hash", found.hash);
          box.innerHTML = found.html;
          stage.appendChild(box);
        });
        title.textContent = slide.getAttribute("data-title");
        counter.textContent = (i + 1) + " / " + slides.length;
        screen.setAttribute("data-slide", String(i));
        document.dispatchEvent(new CustomEvent("screen:slide", {detail: {index: i}}));
      });
  }

  function next() {
    if (!slides.length) { return; }
    index = (index + 1) % slides.length;
    show(index).catch(function () { /* try the next slide next time */ })
      .then(function () { window.setTimeout(next, seconds * 1000); });
  }

  var full = document.getElementById("fullscreen");
  if (full) {
    full.addEventListener("click", function () {
      if (document.documentElement.requestFullscreen) { document.documentElement.requestFullscreen(); }
    });
  }
  next();
})();
