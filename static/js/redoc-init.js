// Loaded (with the page's CSP nonce) before Redoc's bundle, which needs two small shims to run under the site's
// Content-Security-Policy without any relaxation of it:
// - the <style> elements the bundle adds while it loads (before Redoc's own nonce option applies) get the nonce;
// - its footer logo, fetched from a CDN (school networks have no internet, and the site uses none), is the
//   site's own icon instead.
(function () {
  "use strict";
  var nonce = document.currentScript.nonce;
  var logo = document.currentScript.dataset.logo;
  ["appendChild", "insertBefore"].forEach(function (method) {
    var original = Node.prototype[method];
    Node.prototype[method] = function (node) {
      if (node && node.tagName === "STYLE" && !node.nonce) node.nonce = nonce;
      return original.apply(this, arguments);
    };
  });
  function local(url) {
    return String(url).indexOf("https://cdn.redoc.ly/") === 0 ? logo : url;
  }
  var setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    return setAttribute.call(this, name, name === "src" && this.tagName === "IMG" ? local(value) : value);
  };
  var src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  Object.defineProperty(HTMLImageElement.prototype, "src", {
    configurable: true, enumerable: src.enumerable, get: src.get,
    set: function (value) { src.set.call(this, local(value)); },
  });
})();
