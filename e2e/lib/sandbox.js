'use strict';
// Starting, finding and talking to a signsandbox server.
//
// The tests run against one sandbox process. scripts/run-tests.js builds and
// starts it once and hands its URL to every test file in SIGNSANDBOX_E2E_URL;
// a test file run on its own (node --test test/x.test.js) starts a private
// one. Every test file makes its own world, so files can run in parallel and
// never see each other's objects.

const { spawn, execFileSync } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const fs = require('node:fs');

const E2E_DIR = path.resolve(__dirname, '..');
const REPO_ROOT = path.resolve(E2E_DIR, '..');
const TMP_DIR = path.join(E2E_DIR, '.tmp');
const BINARY = path.join(TMP_DIR, 'signsandbox');

/** Builds the signsandbox binary from the checkout into e2e/.tmp. */
function buildBinary() {
  fs.mkdirSync(TMP_DIR, { recursive: true });
  if (process.env.SIGNSANDBOX_E2E_BINARY) return process.env.SIGNSANDBOX_E2E_BINARY;
  execFileSync('go', ['build', '-o', BINARY, './cmd/signsandbox'], { cwd: REPO_ROOT, stdio: 'inherit' });
  return BINARY;
}

/** A free loopback port: listen on 0, read the port, close. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts the binary on a loopback port and resolves once /_sandbox/health
 * answers. It asks for port 0 and reads the address the server prints
 * ("listening on http://127.0.0.1:PORT"); if a binary ever prints no usable
 * port, it falls back to a port picked here. options.addr asks for a given
 * address instead (a server started again where it was); options.args and
 * options.env are added to the command line and the environment.
 */
async function startBinary(binary, { timeoutMs = 20000, addr, args = [], env = {} } = {}) {
  const attempt = async (addr) => {
    const child = spawn(binary, ['--addr', addr, '--log-level', process.env.SIGNSANDBOX_E2E_LOG_LEVEL || 'warn', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SIGNSANDBOX_ADDR: '', SIGNSANDBOX_API_KEY: '', ...env },
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      if (process.env.SIGNSANDBOX_E2E_VERBOSE) process.stderr.write(d);
    });
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`signsandbox did not print its address in ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`)), timeoutMs);
      child.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/[^\s]+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1].replace('localhost', '127.0.0.1'));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`signsandbox exited with ${code}\nstdout: ${out}\nstderr: ${err}`));
      });
    });
    return { child, url, stderr: () => err };
  };
  if (addr) {
    const started = await attempt(addr);
    await waitHealthy(started.url, timeoutMs);
    return started;
  }
  let started = await attempt('127.0.0.1:0');
  if (/:0$/.test(started.url)) {
    started.child.kill('SIGTERM');
    started = await attempt(`127.0.0.1:${await freePort()}`);
  }
  await waitHealthy(started.url, timeoutMs);
  return started;
}

/** Stops a started binary with SIGTERM (SIGKILL after a grace period). */
function stopBinary(started) {
  if (!started || started.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => started.child.kill('SIGKILL'), 5000);
    started.child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    started.child.kill('SIGTERM');
  });
}

async function waitHealthy(base, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`${base}/_sandbox/health`);
      if (r.ok) return await r.json();
      last = new Error(`health answered ${r.status}`);
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`signsandbox at ${base} is not healthy: ${last && last.message}`);
}

/**
 * A client for the control plane (/_sandbox) of one world: every call carries
 * the world's API key, so it acts on that world only.
 */
class Control {
  constructor(base, apiKey) {
    this.base = base;
    this.apiKey = apiKey;
  }

  async call(method, p, body) {
    const headers = { Authorization: 'Basic ' + Buffer.from(`${this.apiKey}:`).toString('base64') };
    let payload;
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const r = await fetch(`${this.base}/_sandbox${p}`, { method, headers, body: payload });
    const text = await r.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!r.ok) {
      const e = new Error(`control ${method} ${p} answered ${r.status}: ${text}`);
      e.status = r.status;
      e.body = json;
      throw e;
    }
    return json;
  }

  get(p) { return this.call('GET', p); }
  post(p, body = {}) { return this.call('POST', p, body); }
  patch(p, body) { return this.call('PATCH', p, body); }

  /** Moves the world's fake clock; answers {now, jobs, ...}. */
  advance(seconds) { return this.post('/clock/advance', { seconds }); }

  /**
   * Moves the clock a second past each of the world's configured delays
   * named (send_processing_delay, file_preparation_delay, ...), one after
   * the other: the work they delay is then done.
   */
  async advancePast(...delays) {
    const cfg = await this.config();
    return this.advance(delays.reduce((total, k) => total + durationSeconds(cfg[k]) + 1, 0));
  }
  clock() { return this.get('/clock'); }
  config(patch) { return patch ? this.patch('/config', patch) : this.get('/config'); }
}

/** Seconds of a configured duration as GET /_sandbox/config writes it ("1m30s"). */
function durationSeconds(v) {
  if (typeof v === 'number') return v > 1e6 ? v / 1e9 : v; // nanoseconds or seconds
  let total = 0;
  for (const [, n, u] of String(v).matchAll(/([\d.]+)(h|ms|m|s)/g)) total += Number(n) * { h: 3600, m: 60, s: 1, ms: 0.001 }[u];
  return total;
}

/** The sandbox's base URL (no trailing slash, no /v3) of a URL given by hand. */
function baseOf(url) {
  return url.replace(/\/+$/, '').replace(/\/v3$/, '');
}

/** Creates a fresh world; answers the world's credentials. */
async function createWorld(base, body = {}) {
  const r = await fetch(`${base}/_sandbox/worlds`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  if (r.status !== 201) throw new Error(`POST /_sandbox/worlds answered ${r.status}: ${text}`);
  return JSON.parse(text);
}

module.exports = { E2E_DIR, REPO_ROOT, TMP_DIR, BINARY, buildBinary, freePort, startBinary, stopBinary, waitHealthy, createWorld, Control, durationSeconds, baseOf };
