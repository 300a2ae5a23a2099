/* Keeps an open tournament page up to date without a reload (issue 15).
 *
 * Every section of the page carries its id and version (data-section, data-hash). Once a second, while the page
 * is visible, this asks the tournament's live URL for them with the ETag of the last answer: the server answers
 * 304 from its cache while nothing changed, otherwise only the sections that changed (their new HTML and
 * version), or "reload" when the page's own shape changed (the tournament finished, the draw was made).
 * No inline script: the page's strict Content-Security-Policy allows only files like this one.
 */
(function () {
  "use strict";
  var root = document.getElementById("live-root");
  if (!root || !window.fetch) { return; }
  var url = root.getAttribute("data-live-url");
  var pageVersion = root.getAttribute("data-page-version") || "";
  // window.rugbyLiveInterval: a page (or a test that does not follow live scores) may ask for fewer checks.
  var interval = window.rugbyLiveInterval || parseInt(root.getAttribute("data-interval") || "1000", 10);
  var etag = null;

  function sections() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-section]"));
  }

  function apply(data) {
    if (data.reload) { window.location.reload(); return; }
    var byId = {};
    sections().forEach(function (el) { byId[el.getAttribute("data-section")] = el; });
    Object.keys(data.sections || {}).forEach(function (id) {
      var el = byId[id];
      if (!el) { return; }
      el.innerHTML = data.sections[id].html;
      el.setAttribute("data-hash", data.sections[id].hash);
      el.classList.remove("updated");
      void el.offsetWidth;  // restart the highlight
      el.classList.add("updated");
    });
    document.dispatchEvent(new CustomEvent("live:updated", {detail: data}));
  }

  function check() {
    var parts = sections().map(function (el) {
      return el.getAttribute("data-section") + "!" + el.getAttribute("data-hash");
    });
    var headers = {"Accept": "application/json"};
    if (etag) { headers["If-None-Match"] = etag; }
    var query = "?v=" + encodeURIComponent(pageVersion) + "&s=" + encodeURIComponent(parts.join(","));
    return fetch(url + query, {headers: headers, cache: "no-store", credentials: "same-origin"})
      .then(function (response) {
        if (response.status !== 200) { return null; }  // 304: nothing changed
        etag = response.headers.get("ETag");
        return response.json().then(apply);
      });
  }

  function loop() {
    window.setTimeout(function () {
      var done = document.hidden ? Promise.resolve() : check();
      done.catch(function () { /* offline for a moment: try again next time */ }).then(loop);
    }, interval);
  }

  window.rugbyLive = {check: check};
  loop();
})();
