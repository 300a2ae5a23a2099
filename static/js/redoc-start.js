// Start Redoc on the schema named by the container (no inline script: see the Content-Security-Policy).
(function () {
  var container = document.getElementById("redoc-container");
  Redoc.init(container.dataset.schemaUrl, {}, container);
})();
