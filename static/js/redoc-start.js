// Start Redoc on the schema named by the container (no inline script: see the Content-Security-Policy). Redoc adds
// its styles as <style> elements: the nonce option gives them this page's CSP nonce, read from this script's tag.
(function () {
  var container = document.getElementById("redoc-container");
  Redoc.init(container.dataset.schemaUrl, {nonce: document.currentScript.nonce}, container);
})();
