'use strict';
// startSandbox: a signsandbox process for a test (node:test, Jest, Vitest),
// on a free loopback port, with the calls a test makes on the control plane
// (/_sandbox): move the clock, act as a signer, read the outbox and the
// callback log, create worlds. Plain Node (fetch, child_process): no
// dependency.

const { spawn } = require('node:child_process');
const { binaryPath } = require('./lib/binary.js');

/** How long a sandbox may take to say where it listens and be ready. */
const DEFAULT_START_TIMEOUT_MS = 20000;
/** How long close() waits after SIGTERM before it kills the process. */
const STOP_GRACE_MS = 5000;
/** How much of the process's stderr an error message quotes. */
const STDERR_KEPT = 8192;

// The processes started and not yet stopped: killed if the test process
// exits without closing them (a test that failed before its afterAll).
const running = new Set();
let exitHookInstalled = false;
function killOnExit(child) {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const c of running) {
        try {
          c.kill('SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }
}

/** An error answered by the sandbox: status and decoded body attached. */
class SandboxError extends Error {
  constructor(method, path, status, text, body) {
    super(`signsandbox: ${method} ${path} answered ${status}: ${text}`);
    this.name = 'SandboxError';
    this.status = status;
    this.body = body;
  }
}

/**
 * One world of a running sandbox, reached with its API key: the control
 * calls act on this world only. The Sandbox that startSandbox answers is
 * the default world; createWorld makes others.
 */
class World {
  constructor(url, credentials, adminToken) {
    /** The sandbox's base URL, e.g. http://127.0.0.1:41234. */
    this.url = url;
    /** The API's base URL (the SDKs' basePath / host): url + '/v3'. */
    this.apiBaseUrl = `${url}/v3`;
    /** The world's API key (HTTP basic user name, empty password). */
    this.apiKey = credentials.api_key;
    this.worldId = credentials.world_id;
    this.accountId = credentials.account_id;
    this.emailAddress = credentials.email_address;
    this.clientId = credentials.client_id;
    this.clientSecret = credentials.client_secret;
    this._adminToken = adminToken;
  }

  /**
   * A control call (path below /_sandbox, e.g. '/clock') with the world's
   * key; answers the decoded JSON and throws a SandboxError on a non-2xx.
   */
  async control(method, path, body) {
    return request(this.url, method, `/_sandbox${path}`, body, { apiKey: this.apiKey });
  }

  /** GET /_sandbox/clock: {now, time, mode, next_job_at}. */
  clock() {
    return this.control('GET', '/clock');
  }

  /** The world's time. */
  async now() {
    return new Date((await this.clock()).now * 1000);
  }

  /**
   * Moves the world's clock and runs every job that falls due, in order:
   * by a duration ('90s', '1h30m'), a number of seconds, to a Date, or as
   * the raw body ({duration}, {seconds}, {to}, wait_callbacks). Answers
   * {now, time, jobs, ...}.
   */
  advance(by) {
    let body;
    if (typeof by === 'string') body = { duration: by };
    else if (typeof by === 'number') body = { seconds: by };
    else if (by instanceof Date) body = { to: by.toISOString() };
    else body = by;
    return this.control('POST', '/clock/advance', body);
  }

  /** Opens the request as the signer (signature_request_viewed). */
  view(signatureId) {
    return this._signer(signatureId, 'view', {});
  }

  /**
   * Signs as the signer; values gives field values by api_id (the others
   * get what a click-through signer leaves).
   */
  sign(signatureId, values = {}) {
    return this._signer(signatureId, 'sign', { values });
  }

  /** Declines as the signer (the request needs allow_decline). */
  decline(signatureId, reason = '') {
    return this._signer(signatureId, 'decline', { reason });
  }

  /** Hands the signature to someone else (the request needs allow_reassign). */
  reassign(signatureId, { name, emailAddress, reason = '' }) {
    return this._signer(signatureId, 'reassign', { name, email_address: emailAddress, reason });
  }

  /** Makes the last e-mail to the signer bounce (signature_request_email_bounce). */
  bounce(signatureId) {
    return this._signer(signatureId, 'bounce', {});
  }

  async _signer(signatureId, action, body) {
    const r = await this.control('POST', `/signatures/${encodeURIComponent(signatureId)}/${action}`, body);
    return r.signature_request;
  }

  /**
   * Every e-mail of the world's outbox, oldest first, all pages; filters
   * are query parameters: {to, kind, signature_request_id}.
   */
  emails(filters = {}) {
    return this._walk('/emails', 'emails', filters);
  }

  /**
   * Every event of the world's callback log with its targets, attempts and
   * state, oldest first, all pages; filters are query parameters:
   * {event_type, object_id, state, account_id, client_id, url}.
   */
  callbacks(filters = {}) {
    return this._walk('/callbacks', 'callbacks', filters);
  }

  /** Waits until every callback attempt that is due has been made. */
  waitCallbacks() {
    return this.control('POST', '/callbacks/wait', {});
  }

  /** Back to the fixtures: every object made in the world is gone. */
  reset() {
    return this.control('POST', '/reset', {});
  }

  /** PATCH /_sandbox/config with the given changes, or GET it. */
  config(changes) {
    return changes ? this.control('PATCH', '/config', changes) : this.control('GET', '/config');
  }

  /**
   * A fresh world on the same sandbox: {clock: 'fake' | 'real', time:
   * RFC 3339 or Date, scenarios: [...]}; its clock is fake unless asked.
   */
  async createWorld(options = {}) {
    const body = { ...options };
    if (body.time instanceof Date) body.time = body.time.toISOString();
    const credentials = await request(this.url, 'POST', '/_sandbox/worlds', body, { adminToken: this._adminToken });
    return new World(this.url, credentials, this._adminToken);
  }

  /** Deletes the world; its keys stop working (not the default world). */
  delete() {
    return this.control('DELETE', '/world');
  }

  async _walk(path, field, filters) {
    const all = [];
    let cursor = '';
    for (;;) {
      const q = new URLSearchParams({ ...filters, limit: '1000' });
      if (cursor) q.set('cursor', cursor);
      const page = await this.control('GET', `${path}?${q}`);
      all.push(...page[field]);
      if (!page.has_more) return all;
      cursor = page.next_cursor;
    }
  }
}

/** A started signsandbox process; as a World, its default world. */
class Sandbox extends World {
  constructor(url, credentials, adminToken, child, stderr) {
    super(url, credentials, adminToken);
    this._child = child;
    this._stderr = stderr;
    this._closed = null;
  }

  /** The process id of the binary. */
  get pid() {
    return this._child.pid;
  }

  /** What the process wrote to stderr lately (its log). */
  stderr() {
    return this._stderr();
  }

  /** Stops the process (SIGTERM, then SIGKILL after 5 s); safe to call twice. */
  close() {
    if (!this._closed) this._closed = stop(this._child);
    return this._closed;
  }

  /** So that `await using sb = await startSandbox()` closes it. */
  [Symbol.asyncDispose]() {
    return this.close();
  }
}

async function request(url, method, path, body, { apiKey, adminToken } = {}) {
  const headers = {};
  if (apiKey) headers.Authorization = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
  if (adminToken) headers['X-Signsandbox-Admin-Token'] = adminToken;
  let payload;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const r = await fetch(url + path, { method, headers, body: payload });
  const text = await r.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!r.ok) throw new SandboxError(method, path, r.status, text, json);
  return json;
}

function stop(child) {
  // No pid: the process never started (the binary is missing).
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The environment without SIGNSANDBOX_* settings: the options say all. */
function cleanEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('SIGNSANDBOX_')) env[k] = v;
  }
  return { ...env, ...extra };
}

/**
 * Starts a signsandbox process on a free loopback port and resolves, once
 * /_sandbox/ready answers 200, to a Sandbox: the URLs, the default world's
 * key and the control calls. Close it in afterAll (or after each test).
 *
 * Options: clock ('fake', the default, starts at 2025-01-01T00:00:00Z and
 * moves only with advance; or 'real'), apiKey (a fixed key for the default
 * world), scenarios (ready scenario names or files), offline (placeholder
 * documents for file_urls), adminToken, args (more flags), env (more
 * environment), binary (a path instead of the installed one),
 * startTimeout (ms, default 20000), logLevel (default 'warn'), stderr
 * ('pipe', the default, kept for errors and sandbox.stderr(); or 'inherit').
 * The test's own SIGNSANDBOX_* environment variables are not passed on.
 */
async function startSandbox(options = {}) {
  const {
    clock = 'fake',
    apiKey,
    scenarios = [],
    offline = false,
    adminToken,
    args = [],
    env = {},
    binary = binaryPath(),
    startTimeout = DEFAULT_START_TIMEOUT_MS,
    logLevel = 'warn',
    stderr = 'pipe',
  } = options;
  const argv = ['--addr', '127.0.0.1:0', '--clock', clock, '--log-level', logLevel];
  if (apiKey) argv.push('--api-key', apiKey);
  if (offline) argv.push('--offline');
  for (const s of scenarios) argv.push('--scenario', s);
  argv.push(...args);
  const childEnv = cleanEnv(env);
  if (adminToken) childEnv.SIGNSANDBOX_ADMIN_TOKEN = adminToken;

  const child = spawn(binary, argv, { env: childEnv, stdio: ['ignore', 'pipe', stderr === 'inherit' ? 'inherit' : 'pipe'] });
  killOnExit(child);
  let errText = '';
  if (child.stderr) {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d) => {
      errText = (errText + d).slice(-STDERR_KEPT);
    });
  }
  const failed = (why) => new Error(`signsandbox: ${why}\n${binary} ${argv.join(' ')}\nstderr: ${errText}`);
  const deadline = Date.now() + startTimeout;

  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(failed(`did not say where it listens within ${startTimeout} ms; stdout: ${out}`)), startTimeout);
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (d) => {
        if (out === null) return; // the banner was read; keep draining
        out += d;
        const m = /listening on (http:\/\/[^\s"]+)/.exec(out);
        if (m) {
          out = null;
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(failed(`cannot start: ${e.message}`));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(failed(`exited with ${signal || code} before it listened`));
      });
    });
    await waitReady(url, deadline, failed);
    const credentials = await request(url, 'GET', '/_sandbox/world', undefined, { adminToken });
    // The process does not keep the test runner alive; close() stops it,
    // and so does the runner's exit.
    child.unref();
    child.stdout.unref();
    if (child.stderr) child.stderr.unref();
    return new Sandbox(url, credentials, adminToken, child, () => errText);
  } catch (e) {
    await stop(child);
    throw e;
  }
}

/** Polls /_sandbox/ready until it answers 200 or the deadline passes. */
async function waitReady(url, deadline, failed) {
  let last = '';
  for (;;) {
    try {
      const r = await fetch(`${url}/_sandbox/ready`);
      const text = await r.text();
      if (r.ok) return;
      last = `${r.status} ${text}`;
    } catch (e) {
      last = e.message;
    }
    if (Date.now() > deadline) throw failed(`was not ready in time: /_sandbox/ready answered ${last}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

module.exports = { startSandbox, Sandbox, World, SandboxError, binaryPath };
