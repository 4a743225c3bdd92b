'use strict';
// Finding and starting headless Chromium for the browser tests.
//
// The browser is optional: on a machine without Chromium (or without the
// playwright-core devDependency) findChromium() answers a reason instead of
// a path, and the tests skip with that reason, so `npm test` still passes.
// Playwright's own browser download does not work here (no network but the
// package registries), so the tests drive the system's Chromium (Debian:
// `apt-get install chromium`) through playwright-core's executablePath.

const fs = require('node:fs');

/** Where Chromium usually is, in the order tried after the env override. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/**
 * Flags for a closed network and a root user: no sandbox (root), no GPU, no
 * background connections (refused by this network, and slow to fail), a
 * fresh profile per launch.
 */
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage',
];

function executable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The Chromium to use: {path} or {reason} why there is none.
 * SIGNSANDBOX_E2E_CHROMIUM overrides the search; set it to "off" to skip the
 * browser tests on a machine that has Chromium.
 */
function findChromium() {
  const override = process.env.SIGNSANDBOX_E2E_CHROMIUM;
  if (override === 'off') return { reason: 'browser tests turned off (SIGNSANDBOX_E2E_CHROMIUM=off)' };
  try {
    require.resolve('playwright-core');
  } catch {
    return { reason: 'playwright-core is not installed (run npm ci in e2e/)' };
  }
  if (override) {
    return executable(override) ? { path: override } : { reason: `SIGNSANDBOX_E2E_CHROMIUM=${override} is not an executable file` };
  }
  const found = CANDIDATES.find(executable);
  if (found) return { path: found };
  return { reason: `Chromium not found (looked for ${CANDIDATES.join(', ')}); install it (Debian: apt-get install chromium) or set SIGNSANDBOX_E2E_CHROMIUM` };
}

/**
 * Launches headless Chromium. Playwright gives every launch a fresh, empty
 * user data directory of its own (and removes it on close); each test then
 * takes a new browser context, so tests share no cookies or storage.
 */
async function launch(executablePath) {
  const { chromium } = require('playwright-core');
  return chromium.launch({ executablePath, headless: true, args: FLAGS, timeout: 30000 });
}

module.exports = { findChromium, launch, FLAGS };
