// SPDX-License-Identifier: MIT
// The documentation site opened from the file system (file://). The theme's search runs in a
// Web Worker, and a browser refuses to start a worker from a file: URL; it does start one
// from a blob: URL the page made itself. The hook (tools/tacet/docsite/hooks.py) writes the search
// worker's source into the site's copy of this script, and the script starts the worker from
// that source. (The search index reaches the page as search/search_index.js, a script, which
// the theme's offline plugin writes for the same reason.) Over HTTP this does nothing.
(function () {
  "use strict";
  if (window.location.protocol !== "file:" || typeof window.Worker !== "function") {
    return;
  }
  var source = __SEARCH_WORKER_SOURCE__;
  var Native = window.Worker;
  var url = null;
  function FileWorker(script, options) {
    if (/\/workers\/search\.[^/]*\.js$/.test(String(script))) {
      if (url === null) {
        url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      }
      script = url;
    }
    return new Native(script, options);
  }
  FileWorker.prototype = Native.prototype;
  window.Worker = FileWorker;
})();
