// ESLint for the app's plain JavaScript (`make lint`): the recommended rules, and a few more that
// catch real bugs. The page scripts are classic scripts (no modules, no build step), the service
// worker has a global scope of its own, engine.js loads in the page and in node, and
// tests/engine/engine_diff.js is node's.
"use strict";

const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  js.configs.recommended,
  {
    rules: {
      // `x == null` is the one loose comparison: null or undefined, as Python's None is read.
      eqeqeq: ["error", "always", { null: "ignore" }],
      "max-len": ["error", { code: 120, ignoreUrls: true }],
      "no-implicit-globals": "error",
      "no-undef": "error",
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
    },
  },
  {
    files: ["scoring/static/scoring/**/*.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser } },
  },
  {
    // Loaded by the page (window.casinoEngine) or required by node (module.exports).
    files: ["scoring/static/scoring/engine.js"],
    languageOptions: { globals: { ...globals.browser, ...globals.commonjs } },
  },
  {
    // scoring/views/offline.py writes RELEASE and PRECACHE above the file's first line. The
    // worker's global scope is its own (no other script runs in it): its functions are no one
    // else's globals.
    files: ["scoring/static/scoring/sw.js"],
    languageOptions: {
      globals: { ...globals.serviceworker, RELEASE: "readonly", PRECACHE: "readonly" },
    },
    rules: { "no-implicit-globals": "off" },
  },
  {
    files: ["tests/**/*.js", "eslint.config.js"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
  },
];
