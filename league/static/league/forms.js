/* Progressive enhancement of the organiser's forms: hide what does not apply. Without this script every field
   shows and the server ignores (or refuses, with a message) what does not apply. No inline script: CSP-safe. */
(function () {
  "use strict";

  function show(element, visible) {
    if (element) { element.hidden = !visible; }
  }

  function field(form, name) {
    return form.querySelector('[data-field="' + name + '"]');
  }

  // New tournament: the options and the teams each format uses.
  var created = document.getElementById("new-tournament");
  var map = document.getElementById("format-fields");
  if (created && map) {
    var used = JSON.parse(map.textContent);
    var format = created.querySelector("[name=format]");
    var options = ["double_round_robin", "pools", "rounds", "attempts"];
    var updateFormat = function () {
      var names = used[format.value] || [];
      options.forEach(function (name) { show(field(created, name), names.indexOf(name) >= 0); });
      show(created.querySelector("[data-teams]"), names.indexOf("teams") >= 0);
      show(created.querySelector("[data-fixed-teams]"), names.indexOf("teams") < 0);
    };
    format.addEventListener("change", updateFormat);
    updateFormat();
  }

  // Points system: the custom parts only for "custom".
  Array.prototype.forEach.call(document.querySelectorAll("[data-points]"), function (box) {
    var system = box.querySelector("[name=points_system]");
    var custom = box.querySelector("[data-custom]");
    var tries = box.querySelector("[name=try_bonus]");
    var update = function () {
      show(custom, system.value === "custom");
      show(field(box, "try_bonus_tries"), tries && tries.value !== "none" && tries.value !== "");
    };
    system.addEventListener("change", update);
    if (tries) { tries.addEventListener("change", update); }
    update();
  });

  // Result: no score to type for a walkover; "who went through" only when a knockout match ends level.
  var result = document.querySelector("form.result-form");
  if (result) {
    var kind = result.querySelector("[name=kind]");
    var home = result.querySelector("[name=home_score]");
    var away = result.querySelector("[name=away_score]");
    var updateResult = function () {
      var played = !kind || kind.value === "played";
      ["home_score", "home_tries", "away_score", "away_tries"].forEach(function (name) {
        show(field(result, name), played);
      });
      // A hidden box cannot be required: the browser would refuse to send the form.
      [home, away].forEach(function (input) { input.required = played; });
      var level = played && home.value !== "" && home.value === away.value;
      show(field(result, "winner"), level);
      show(field(result, "decided_by"), level);
    };
    [kind, home, away].forEach(function (input) {
      if (input) { input.addEventListener("input", updateResult); input.addEventListener("change", updateResult); }
    });
    updateResult();
  }
})();
