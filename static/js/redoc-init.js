// Redoc (styled-components) adds <style> elements: give them this page's CSP nonce, read from this script's tag.
window.__webpack_nonce__ = document.currentScript.nonce;
