'use strict';
// What the console's and the pages' browser tests share: one Chromium per
// test file (and, when asked, an integrator's host page for
// hellosign-embedded), the screenshot directory, and tests that skip with
// the reason when there is no browser (see ../chromium.js).

const fs = require('node:fs');
const path = require('node:path');
const { before, after } = require('node:test');
const { findChromium, launch } = require('../chromium');
const { startHost } = require('../host');

/** Where screenshots go: e2e/.tmp/console/, or SIGNSANDBOX_E2E_SHOTS. */
const SHOTS = process.env.SIGNSANDBOX_E2E_SHOTS || path.join(__dirname, '..', '..', '.tmp', 'console');

/**
 * browserSuite starts Chromium before the file's tests and closes it after.
 * Answers {browser, host, shots, test}: test(name, fn) is h.test, skipped
 * with the reason when there is no Chromium.
 */
function browserSuite(h, { withHost = false } = {}) {
  const chromium = findChromium();
  const suite = {
    browser: null,
    host: null,
    shots: SHOTS,
    test(name, fn) {
      h.test(name, async (t) => {
        if (!chromium.path) {
          t.skip(chromium.reason);
          return;
        }
        await fn(t);
      });
    },
  };
  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    if (!chromium.path) return;
    [suite.browser, suite.host] = await Promise.all([launch(chromium.path), withHost ? startHost() : null]);
  });
  after(async () => {
    if (suite.browser) await suite.browser.close();
    if (suite.host) await suite.host.close();
  });
  return suite;
}

/**
 * pdfText is the text of a PDF the world's API serves at apiPath (below
 * /v3), read with the sandbox's own PDF.js inside page, one line per PDF
 * page.
 */
async function pdfText(page, apiKey, apiPath) {
  return page.evaluate(async ({ p, key }) => {
    const lib = await import('/_sandbox/console/vendor/pdfjs/pdf.min.mjs');
    lib.GlobalWorkerOptions.workerSrc = '/_sandbox/console/vendor/pdfjs/pdf.worker.min.mjs';
    const res = await fetch(p, { headers: { Authorization: `Basic ${btoa(`${key}:`)}` } });
    if (!res.ok) return `HTTP ${res.status}`;
    const pdf = await lib.getDocument({ data: new Uint8Array(await res.arrayBuffer()), isEvalSupported: false }).promise;
    let out = '';
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      out += content.items.map((i) => i.str).join(' ') + '\n';
    }
    return out;
  }, { p: `/v3${apiPath}`, key: apiKey });
}

module.exports = { browserSuite, pdfText };
