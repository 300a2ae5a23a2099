/* The phone scoreboard of a match scored live (issue 18).
 *
 * Every tap is an event with an id made here; it goes into a queue kept in localStorage (so it survives a lost
 * signal, the phone locking or the page reloading) and is sent in order. The server applies an event once
 * whatever the number of times it is sent, so the queue is simply sent again until it is answered. Twice a
 * second or so the page asks for the match's state, so two scorers see each other's events.
 *
 * The clock is the server's: the state gives the match time and, while it runs, when it read 0:00; the page
 * sets its own clock by the server's time (server_ms) and ticks by itself. A clock call made offline carries the
 * moment it was made (on the server's time), so a time-out pauses the clock from when it was called.
 * No inline script: the page's Content-Security-Policy allows only files like this one.
 */
(function () {
  "use strict";
  var root = document.getElementById("scoreboard");
  if (!root || !window.fetch) { return; }
  var url = root.getAttribute("data-events-url");
  var points = JSON.parse(root.getAttribute("data-points") || "{}");
  var cards = JSON.parse(root.getAttribute("data-cards") || "{}");
  var state = JSON.parse(root.getAttribute("data-state") || "{}");
  var csrf = root.getAttribute("data-csrf") || "";
  var storeKey = "rugby-live-queue:" + url;
  var offset = (state.server_ms || Date.now()) - Date.now();  // server time - this phone's time
  var online = true;
  var sending = false;
  var errors = [];
  var queue = load();

  function t(name) { return root.getAttribute("data-t-" + name) || name; }
  function out(name) { return root.querySelector("[data-out='" + name + "']"); }

  function load() {
    try { return JSON.parse(window.localStorage.getItem(storeKey) || "[]"); } catch (e) { return []; }
  }
  function save() {
    try { window.localStorage.setItem(storeKey, JSON.stringify(queue)); } catch (e) { /* private mode: memory */ }
  }
  function newId() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);  // works on plain http too, unlike crypto.randomUUID
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function serverNow() { return Date.now() + offset; }

  // --- what the page shows: the server's state with the events still waiting to be sent -------------------

  function standingEvents() {
    // The server's events plus the queued ones, undos applied: [{id, kind, code, side, pending}].
    var list = (state.events || []).filter(function (e) { return !e.undone && e.kind !== "undo"; })
      .map(function (e) { return {id: e.id, kind: e.kind, code: e.code, side: e.side, label: e.label,
                                   player: e.player, pending: false}; });
    queue.forEach(function (e) {
      if (e.kind === "undo") {
        list = list.filter(function (x) { return x.id !== e.undoes; });
      } else if (e.kind !== "clock") {
        list.push({id: e.id, kind: e.kind, code: e.code, side: e.side, player: e.player, pending: true,
                   label: e.kind === "card" ? cards[e.code] : (points[e.code] || {}).label});
      }
    });
    return list;
  }

  function clockNow() {
    // The clock as the server left it, with the queued clock calls applied as the server will apply them.
    var c = state.clock || {phase: "not_started", paused: false, running: false, elapsed: 0, half_seconds: 2400};
    var half = c.half_seconds;
    var clock = {phase: c.phase, paused: c.paused, running: c.running,
                 base: c.running ? (c.origin_ms) : null, elapsed: c.elapsed};
    function elapsedAt(ms) { return clock.running ? (ms - clock.base) / 1000 : clock.elapsed; }
    queue.forEach(function (e) {
      if (e.kind !== "clock") { return; }
      var at = e.at_ms, now = elapsedAt(at);
      if (e.code === "start" && clock.phase === "not_started") {
        clock = {phase: "first_half", paused: false, running: true, base: at, elapsed: 0};
      } else if (e.code === "second_half" && clock.phase === "half_time") {
        clock = {phase: "second_half", paused: false, running: true, base: at - half * 1000, elapsed: half};
      } else if (e.code === "half_time" && clock.phase === "first_half") {
        clock = {phase: "half_time", paused: false, running: false, base: null, elapsed: half};
      } else if (e.code === "full_time" && (clock.phase === "first_half" || clock.phase === "second_half")) {
        clock = {phase: "full_time", paused: false, running: false, base: null, elapsed: 2 * half};
      } else if (e.code === "timeout" && clock.running) {
        clock = {phase: clock.phase, paused: true, running: false, base: null, elapsed: now};
      } else if (e.code === "resume" && clock.paused) {
        clock = {phase: clock.phase, paused: false, running: true, base: at - now * 1000, elapsed: now};
      }
    });
    clock.now = elapsedAt(serverNow());
    return clock;
  }

  function mmss(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
  }

  function render() {
    var score = [{points: 0, tries: 0}, {points: 0, tries: 0}];
    standingEvents().forEach(function (e) {
      if (e.kind === "score" && points[e.code]) {
        score[e.side].points += points[e.code].points;
        score[e.side].tries += points[e.code].tries;
      }
    });
    out("home-points").textContent = score[0].points;
    out("away-points").textContent = score[1].points;
    out("home-tries").textContent = score[0].tries + " " + t("tries");
    out("away-tries").textContent = score[1].tries + " " + t("tries");
    var clock = clockNow();
    out("time").textContent = mmss(clock.now);
    out("phase").textContent = clock.paused ? t("timeout") : t(clock.phase.replace("_", "-"));
    var scoring = clock.phase === "first_half" || clock.phase === "second_half";
    var allowed = {start: clock.phase === "not_started", timeout: scoring && !clock.paused,
                   resume: scoring && clock.paused, half_time: clock.phase === "first_half",
                   second_half: clock.phase === "half_time", full_time: scoring};
    root.querySelectorAll("[data-clock]").forEach(function (b) {
      b.hidden = !allowed[b.getAttribute("data-clock")];
    });
    root.querySelectorAll("[data-score], [data-card]").forEach(function (b) { b.disabled = !scoring; });
    var status = online ? t("online") : t("offline");
    if (queue.length) { status += " · " + t("queued") + " " + queue.length; }
    out("status").textContent = status;
    out("status").className = "sb-status" + (online ? "" : " offline");
    var errorList = out("errors");
    errorList.innerHTML = "";
    errors.slice(-3).forEach(function (message) {
      var li = document.createElement("li");
      li.textContent = message;
      errorList.appendChild(li);
    });
    out("note").textContent = state.note || (state.result ? state.result.home_score + "–" + state.result.away_score : "");
    var confirm = out("confirm");
    if (confirm) { confirm.hidden = !(clock.phase === "full_time" && !state.result && state.note); }
    renderEvents();
  }

  function renderEvents() {
    var list = out("events");
    list.innerHTML = "";
    var names = [t("home"), t("away")];
    var items = (state.events || []).map(function (e) { return {e: e, pending: false}; })
      .concat(queue.map(function (e) { return {e: e, pending: true}; }));
    items.reverse().forEach(function (item) {
      var e = item.e, li = document.createElement("li");
      var text;
      if (e.kind === "clock") {
        text = root.querySelector("[data-clock='" + e.code + "']").textContent;
      } else if (e.kind === "undo") {
        text = t("undo-of");
      } else {
        text = (e.label || (e.kind === "card" ? cards[e.code] : (points[e.code] || {}).label) || e.code) + " · " +
          names[e.side] + (e.player ? " (" + e.player + ")" : "");
      }
      if (e.at_ms && e.kind !== "undo") {
        var d = new Date(e.at_ms - offset);
        text = ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2) + " " + text;
      }
      if (e.undone) { li.className = "undone"; text += " (" + t("undone") + ")"; }
      if (item.pending) { li.className = "pending"; text += " · " + t("waiting"); }
      li.textContent = text;
      list.appendChild(li);
    });
  }

  // --- talking to the server -----------------------------------------------------------------------------

  function setState(next) {
    if (!next) { return; }
    state = next;
    offset = state.server_ms - Date.now();
  }

  function setOnline(value) {
    online = value;
    render();
  }

  function request(body) {
    var options = {method: body ? "POST" : "GET", cache: "no-store", credentials: "same-origin",
                   headers: {"Accept": "application/json"}};
    if (body) {
      options.headers["Content-Type"] = "application/json";
      if (csrf) { options.headers["X-CSRFToken"] = csrf; }
      options.body = JSON.stringify(body);
    }
    return fetch(url, options).then(function (response) {
      return response.json().then(function (data) { return {status: response.status, data: data}; });
    });
  }

  function flush() {
    if (sending || !queue.length) { return Promise.resolve(); }
    sending = true;
    var batch = queue.slice(0, 50);
    return request({events: batch}).then(function (answer) {
      if (answer.status !== 200) {
        errors.push(answer.data.detail || ("HTTP " + answer.status));
        setOnline(true);
        return;
      }
      var answered = {};
      answer.data.results.forEach(function (a) {
        answered[a.id] = true;
        if (a.status === "refused") { errors.push(a.message); }
      });
      queue = queue.filter(function (e) { return !answered[e.id]; });
      save();
      setState(answer.data.state);
      setOnline(true);
    }).catch(function () { setOnline(false); }).then(function () {
      sending = false;
      if (queue.length && online) { window.setTimeout(flush, 100); }
    });
  }

  function poll() {
    if (queue.length) { return flush(); }
    if (sending || document.hidden) { return Promise.resolve(); }
    return request(null).then(function (answer) {
      if (answer.status === 200 && !queue.length && !sending) { setState(answer.data.state); }
      setOnline(true);
    }).catch(function () { setOnline(false); });
  }

  function add(event) {
    event.id = newId();
    event.at_ms = Math.round(serverNow());
    queue.push(event);
    save();
    render();
    flush();
  }

  // --- the buttons -----------------------------------------------------------------------------------

  root.addEventListener("click", function (ev) {
    var button = ev.target.closest("button");
    if (!button || !root.contains(button) || button.type === "submit") { return; }
    var player = out("player");
    if (button.hasAttribute("data-score") || button.hasAttribute("data-card")) {
      var isCard = button.hasAttribute("data-card");
      add({kind: isCard ? "card" : "score", code: button.getAttribute(isCard ? "data-card" : "data-score"),
           side: parseInt(button.getAttribute("data-side"), 10), player: player.value.trim()});
      player.value = "";
    } else if (button.hasAttribute("data-clock")) {
      var question = button.getAttribute("data-confirm");
      if (question && !window.confirm(question)) { return; }
      add({kind: "clock", code: button.getAttribute("data-clock")});
    } else if (button.hasAttribute("data-undo")) {
      var standing = standingEvents();
      var last = standing[standing.length - 1];
      if (!last) { errors.push(t("nothing-to-undo")); render(); return; }
      if (last.pending) {
        // Not sent yet: it never reaches the server.
        queue = queue.filter(function (e) { return e.id !== last.id; });
        save();
        render();
      } else {
        add({kind: "undo", undoes: last.id});
      }
    }
  });

  window.addEventListener("online", function () { flush(); });
  window.addEventListener("offline", function () { setOnline(false); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });
  window.setInterval(function () { render(); }, 1000);
  (function loop() {
    window.setTimeout(function () { poll().then(loop, loop); }, window.rugbyScoreboardInterval || 1500);
  })();
  window.rugbyScoreboard = {flush: flush, poll: poll, queue: function () { return queue.slice(); }};
  render();
  flush();
})();
