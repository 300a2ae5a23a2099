/* Online play pages: everything here is a convenience on top of pages that work without JavaScript.
 *
 * - the turn signal: "● Your turn" in the tab title, and an optional sound and vibration (a setting kept in
 *   this browser);
 * - a move that met another at the same instant (the server answers 409 with X-Match-Retry: nothing was
 *   applied) is sent again by itself, up to three times;
 * - the face-down cards of the card game are buttons where the choice is the player's;
 * - the move clock counts down;
 * - motion: cards dealt, played or revealed, dice thrown and the ball's move are animated briefly after each
 *   update (play.css, only when the reader has not asked for reduced motion);
 * - the replay player: scrubber, autoplay and speed, fetching each step's frame without reloading the page.
 *
 * No inline script or style anywhere (the pages run under a content security policy): styles are set through
 * the CSSOM only.
 */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var ALERT_KEY = "rugby.turnAlert";
  var baseTitle = document.title;
  var wasMyTurn = null;
  var audio = null;

  function live() { return document.getElementById("match-live"); }

  // ---- the turn signal ----------------------------------------------------------------------------------
  function alertsOn() {
    try { return window.localStorage.getItem(ALERT_KEY) === "1"; } catch (e) { return false; }
  }

  function beep() {
    if (!audio) { return; }
    try {
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
      osc.connect(gain); gain.connect(audio.destination);
      osc.start(); osc.stop(audio.currentTime + 0.4);
    } catch (e) { /* no sound: the title still says it */ }
  }

  function signalTurn() {
    var el = live();
    if (!el) { return; }
    var mine = el.dataset.yourTurn === "1" || el.dataset.drawOffered === "1";
    document.title = mine ? "\u25cf " + (el.dataset.turnText || "Your turn") + " \u00b7 " + baseTitle : baseTitle;
    if (mine && wasMyTurn === false && alertsOn()) {
      beep();
      if (navigator.vibrate) { navigator.vibrate([120, 60, 120]); }
    }
    wasMyTurn = mine;
  }

  function setUpAlertToggle() {
    var box = document.querySelector(".turn-alert-toggle");
    if (!box) { return; }
    box.checked = alertsOn();
    box.addEventListener("change", function () {
      try { window.localStorage.setItem(ALERT_KEY, box.checked ? "1" : "0"); } catch (e) { /* private mode */ }
      // Browsers let a page make sound only after a gesture: this click is one.
      if (box.checked && !audio && (window.AudioContext || window.webkitAudioContext)) {
        audio = new (window.AudioContext || window.webkitAudioContext)();
      }
      if (audio && audio.state === "suspended") { audio.resume(); }
    });
    if (alertsOn() && (window.AudioContext || window.webkitAudioContext)) {
      // Resumed on the first tap anywhere (a gesture), so the sound works after a reload too.
      audio = new (window.AudioContext || window.webkitAudioContext)();
      document.addEventListener("pointerdown", function () { if (audio.state === "suspended") { audio.resume(); } },
        { once: true });
    }
  }

  // ---- moves that raced another: send them again ------------------------------------------------------------
  var lastMove = null;
  var retries = 0;

  document.addEventListener("htmx:configRequest", function (evt) {
    var elt = evt.detail.elt;
    if (!elt || !elt.matches || !elt.matches("form.actions")) { return; }
    var values = {};
    var data = evt.detail.formData || evt.detail.parameters;
    if (data && typeof data.forEach === "function") {
      data.forEach(function (value, key) { values[key] = value; });
    } else if (data) {
      Object.keys(data).forEach(function (key) { values[key] = data[key]; });
    }
    lastMove = { path: evt.detail.path, values: values };
    retries = 0;
  });

  document.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail.xhr;
    var path = evt.detail.requestConfig && evt.detail.requestConfig.path;
    if (!xhr || !lastMove || path !== lastMove.path) { return; }
    if (xhr.status === 409 && xhr.getResponseHeader("X-Match-Retry") === "1" && retries < 3) {
      retries += 1;
      var move = lastMove;
      // The same request (same ply): the server applies it once, or says what changed.
      window.setTimeout(function () {
        window.htmx.ajax("POST", move.path, { target: "#match-live", swap: "outerHTML", values: move.values });
      }, 120 + Math.random() * 240 * retries);
    }
  });

  // ---- face-down cards as buttons -------------------------------------------------------------------------
  function pick(target) {
    var slot = target.closest && target.closest("svg [data-action]");
    if (!slot) { return false; }
    var button = document.querySelector('form.actions button[data-action="' + slot.getAttribute("data-action") + '"]');
    if (button && !button.disabled) { button.click(); }
    return true;
  }
  document.addEventListener("click", function (evt) { pick(evt.target); });
  document.addEventListener("keydown", function (evt) {
    if ((evt.key === "Enter" || evt.key === " ") && pick(evt.target)) { evt.preventDefault(); }
  });
  document.addEventListener("focusin", function (evt) {
    if (evt.target.matches && evt.target.matches("[data-select-on-focus]")) { evt.target.select(); }
  });

  // ---- the move clock ---------------------------------------------------------------------------------------
  function tick() {
    document.querySelectorAll(".move-clock[data-deadline]").forEach(function (el) {
      var out = el.querySelector(".time-left");
      var left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      if (out && !isNaN(left)) {
        out.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") + " " +
          (out.dataset.leftText || "left");
      }
    });
  }
  window.setInterval(tick, 1000);

  // ---- motion -------------------------------------------------------------------------------------------------
  var before = null;

  function snapshot(root) {
    var keys = {};
    root.querySelectorAll("[data-anim-key]").forEach(function (el) { keys[el.getAttribute("data-anim-key")] = 1; });
    var ball = root.querySelector("[data-anim-ball]");
    return { keys: keys, ball: ball ? ball.getAttribute("data-anim-ball") : null };
  }

  function animate(root, old) {
    if (reducedMotion || !old) { return; }
    root.querySelectorAll("[data-anim-key]").forEach(function (el) {
      if (!old.keys[el.getAttribute("data-anim-key")]) { el.classList.add("anim-in"); }
    });
    var ball = root.querySelector("[data-anim-ball]");
    if (ball && old.ball && old.ball !== ball.getAttribute("data-anim-ball")) {
      var from = old.ball.split(",").map(Number);
      var to = ball.getAttribute("data-anim-ball").split(",").map(Number);
      var mover = ball.querySelector(".mover");
      if (mover && from.length === 2 && to.length === 2) {
        mover.style.setProperty("--dx", (from[0] - to[0]) + "px");
        mover.style.setProperty("--dy", (from[1] - to[1]) + "px");
        mover.classList.add("anim-move");
      }
    }
  }

  document.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    if (target && (target.id === "match-live" || target.id === "replay-frame")) { before = snapshot(target); }
  });
  document.addEventListener("htmx:afterSettle", function () {
    var el = live();
    if (el) { animate(el, before); }
    before = null;
    signalTurn();
  });

  // ---- the replay player ------------------------------------------------------------------------------------------
  function setUpReplay() {
    var player = document.getElementById("replay-player");
    var frame = document.getElementById("replay-frame");
    if (!player || !frame) { return; }
    var steps = parseInt(player.dataset.steps, 10) || 0;
    var url = player.dataset.url;
    var range = player.querySelector("input[type=range]");
    var speed = player.querySelector(".replay-speed");
    var playButton = player.querySelector('[data-step="play"]');
    var timer = null;
    var asked = 0;
    var current = parseInt(range.value, 10) || 0;

    function show(step, then) {
      step = Math.max(0, Math.min(steps, step));
      var ticket = ++asked;
      return window.fetch(url + "?step=" + step + "&fragment=1", { credentials: "same-origin" })
        .then(function (response) { if (!response.ok) { throw new Error(response.status); } return response.text(); })
        .then(function (html) {
          if (ticket !== asked) { return; }  // a later step was asked for meanwhile
          var old = snapshot(frame);
          frame.innerHTML = html;
          current = step;
          range.value = String(step);
          window.history.replaceState(null, "", "?step=" + step);
          animate(frame, old);
          if (then) { then(); }
        })
        .catch(function () { stop(); });
    }

    function stop() {
      if (timer) { window.clearTimeout(timer); timer = null; }
      playButton.textContent = playButton.dataset.playText;
      playButton.setAttribute("aria-pressed", "false");
    }

    function next() {
      if (current >= steps) { stop(); return; }
      show(current + 1, function () {
        if (timer !== null) { timer = window.setTimeout(next, parseInt(speed.value, 10) || 900); }
      });
    }

    playButton.addEventListener("click", function () {
      if (timer !== null) { stop(); return; }
      playButton.textContent = playButton.dataset.pauseText;
      playButton.setAttribute("aria-pressed", "true");
      timer = 0;
      if (current >= steps) { show(0, function () { timer = window.setTimeout(next, parseInt(speed.value, 10)); }); }
      else { next(); }
    });
    player.querySelectorAll("a[data-step]").forEach(function (link) {
      link.addEventListener("click", function (evt) {
        evt.preventDefault();
        stop();
        var where = link.dataset.step;
        show(where === "first" ? 0 : where === "last" ? steps : where === "prev" ? current - 1 : current + 1);
      });
    });
    range.addEventListener("input", function () { stop(); show(parseInt(range.value, 10)); });
    player.querySelector("form").addEventListener("submit", function (evt) {
      evt.preventDefault(); show(parseInt(range.value, 10));
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUpAlertToggle();
    signalTurn();
    tick();
    setUpReplay();
  });
}());
