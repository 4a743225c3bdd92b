'use strict';
// The integrator's page: a tiny local HTTP server (its own origin, another
// port than the sandbox, so the iframe is cross-origin as on a real site)
// serving a host page that loads the official hellosign-embedded UMD bundle
// from node_modules, and helpers to drive it from a Playwright page.
//
// The host page records every event the library emits (the names of
// HelloSign.events: open, ready, sign, decline, finish, close, message, ...)
// in window.__events, so the tests read exactly what an integrator's
// client.on(...) handlers would see.

const http = require('node:http');
const fs = require('node:fs');

const BUNDLE = require.resolve('hellosign-embedded/umd/embedded.development.js');
const VERSION = require('hellosign-embedded/package.json').version;

const HOST_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>integrator</title>
<script src="/hellosign-embedded.js"></script>
<style>#container{width:900px;height:700px}</style>
</head><body>
<h1>Integrator's page</h1>
<div id="container"></div>
<script>
window.__events = [];
window.__dialogs = [];
window.alert = function (m) { window.__dialogs.push(String(m)); };
window.__open = function (url, clientId, opts) {
  var client = new HelloSign({ clientId: clientId });
  Object.keys(HelloSign.events).forEach(function (k) {
    var name = HelloSign.events[k];
    client.on(name, function (data) {
      window.__events.push({ name: name, data: data === undefined ? null : JSON.parse(JSON.stringify(data)) });
    });
  });
  var o = Object.assign({ testMode: true }, opts || {});
  if (o.container) o.container = document.getElementById('container');
  window.__client = client;
  client.open(url, o);
};
</script>
</body></html>`;

/** Starts the host server on a free loopback port; answers {url, close()}. */
function startHost() {
  const bundle = fs.readFileSync(BUNDLE);
  const server = http.createServer((req, res) => {
    const p = new URL(req.url, 'http://host').pathname;
    if (p === '/' || p === '/index.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(HOST_PAGE);
    } else if (p === '/hellosign-embedded.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      res.end(bundle);
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

/**
 * One embedded session in a fresh browser context: the host page loaded,
 * helpers to open a URL with the library and to wait for its events.
 */
async function openSession(browser, hostURL) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(hostURL);
  const s = {
    page,
    consoleErrors,
    /** client.open(url, {testMode: true, ...opts}); container: true puts it in #container instead of a modal. */
    open(url, clientId, opts = { container: true }) {
      return page.evaluate(([u, c, o]) => window.__open(u, c, o), [url, clientId, opts]);
    },
    /** The iframe the library made. */
    frame() {
      return page.frameLocator('iframe.x-hellosign-embedded__iframe');
    },
    /** Every event the library emitted so far, in order. */
    events() {
      return page.evaluate(() => window.__events);
    },
    /** Names of the events so far, without the generic "message" events. */
    async names() {
      return (await s.events()).filter((e) => e.name !== 'message').map((e) => e.name);
    },
    /** The message types the library accepted from the iframe, in order. */
    async messages() {
      return (await s.events()).filter((e) => e.name === 'message').map((e) => e.data.type);
    },
    /** Waits until the library has emitted event name; answers its payload. */
    async waitFor(name, timeout = 10000) {
      try {
        await page.waitForFunction((n) => window.__events.some((e) => e.name === n), name, { timeout, polling: 25 });
      } catch (e) {
        const seen = await s.events().catch(() => []);
        const err = new Error(`the library did not emit "${name}" within ${timeout} ms; events: ${JSON.stringify(seen)}`);
        err.events = seen;
        throw err;
      }
      return (await s.events()).find((e) => e.name === name).data;
    },
    /** Whether the library's markup is still in the page. */
    isOpen() {
      return page.evaluate(() => Boolean(document.querySelector('.x-hellosign-embedded')));
    },
    close() {
      return context.close();
    },
  };
  return s;
}

module.exports = { startHost, openSession, VERSION };
