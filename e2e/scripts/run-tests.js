#!/usr/bin/env node
'use strict';
// npm test: build the binary once, start one sandbox for all test files (each
// makes its own world), run node --test on test/*.test.js and
// browser/*.test.js, stop the sandbox, then print and write the coverage
// report (to .tmp/COVERAGE.md). The exit code is the tests'.
//
// SIGNSANDBOX_E2E_URL=http://host:port targets an already running sandbox
// instead (nothing is built or started). Extra arguments are passed to
// node --test (for example --test-name-pattern=oauth).
//
// --router (npm run test:router) runs the same files through a scaled-out
// sandbox: three servers with their own --shard tags and data directories
// behind HAProxy with deploy/haproxy/haproxy.cfg (lib/cluster.js). Each
// file's worlds then land on the servers in turn. It writes no coverage
// report, and skips with a message when haproxy is not installed.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const sandbox = require('../lib/sandbox');
const { COVERAGE_DIR } = require('../lib/record');
const report = require('./report');
const cluster = require('../lib/cluster');

async function main() {
  const router = process.argv.includes('--router');
  const args = process.argv.slice(2).filter((a) => a !== '--router');
  if (router && !cluster.findHAProxy()) {
    console.log(`# ${cluster.NO_HAPROXY}`);
    process.exit(0);
  }
  fs.rmSync(COVERAGE_DIR, { recursive: true, force: true });
  fs.rmSync(report.SANDBOX_OPERATIONS, { force: true });
  let started;
  let routed;
  let bin;
  let url = process.env.SIGNSANDBOX_E2E_URL;
  if (!url) {
    const t0 = Date.now();
    bin = sandbox.buildBinary();
    if (router) {
      routed = await cluster.startCluster({ binary: bin });
      url = routed.url;
      console.log(`# signsandbox built; ${routed.servers.size} servers behind haproxy at ${url} in ${Date.now() - t0} ms`);
    } else {
      started = await sandbox.startBinary(bin);
      url = started.url;
      console.log(`# signsandbox built and started at ${url} in ${Date.now() - t0} ms`);
    }
  } else {
    await sandbox.waitHealthy(sandbox.baseOf(url));
    console.log(`# using the sandbox at ${url}`);
  }
  await saveOperations(url);
  // test/: the SDK tests; browser/: the embedded flows in headless Chromium
  // (they skip with a message on machines without it).
  const files = ['test', 'browser', 'browser/console'].flatMap((dir) => {
    const abs = path.join(sandbox.E2E_DIR, dir);
    if (!fs.existsSync(abs)) return [];
    return fs.readdirSync(abs).filter((f) => f.endsWith('.test.js')).sort().map((f) => path.join(dir, f));
  });
  const code = await new Promise((resolve) => {
    const reporter = args.some((a) => a.startsWith('--test-reporter')) ? [] : ['--test-reporter=spec'];
    const child = spawn(process.execPath, ['--test', ...reporter, ...args, ...files], {
      cwd: sandbox.E2E_DIR,
      stdio: 'inherit',
      // The binary goes to the files that start servers of their own
      // (test/router.test.js), so that they do not build it again;
      // SIGNSANDBOX_E2E_ROUTER tells the files they run through the router.
      env: { ...process.env, SIGNSANDBOX_E2E_URL: url, ...(bin ? { SIGNSANDBOX_E2E_BINARY: bin } : {}), ...(router ? { SIGNSANDBOX_E2E_ROUTER: '1' } : {}) },
    });
    child.on('exit', (c, sig) => resolve(c === null ? 1 : c));
    for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => child.kill(s));
  });
  if (started) {
    await sandbox.stopBinary(started);
    if (code !== 0 && started.stderr()) {
      console.log('# signsandbox stderr (last 4 KiB):');
      console.log(started.stderr().slice(-4096));
    }
  }
  if (routed) {
    await routed.stop();
    if (code !== 0) {
      console.log('# haproxy log (last 40 lines):');
      console.log(routed.log.slice(-40).join('\n'));
    }
  }
  const r = report.build();
  console.log('\n' + report.renderText(r));
  // The run's report goes to the ignored .tmp/ so that a run leaves the tree
  // clean; `npm run coverage` refreshes the tracked COVERAGE.md on purpose.
  if (!args.length && !router) {
    const out = path.join(sandbox.E2E_DIR, '.tmp', 'COVERAGE.md');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    report.writeMarkdown(r, out);
    console.log(`# coverage report written to ${path.relative(process.cwd(), out)} (npm run coverage updates COVERAGE.md)`);
  }
  process.exit(code);
}

/**
 * Saves the sandbox's route table (GET /_sandbox/operations) for the
 * report, which uses it when the official description is not beside the
 * checkout. A sandbox without the endpoint leaves the report to the SDK's
 * list.
 */
async function saveOperations(url) {
  const base = sandbox.baseOf(url);
  try {
    const res = await fetch(`${base}/_sandbox/operations`);
    if (!res.ok) return;
    fs.mkdirSync(path.dirname(report.SANDBOX_OPERATIONS), { recursive: true });
    fs.writeFileSync(report.SANDBOX_OPERATIONS, await res.text());
  } catch (e) {
    console.log(`# no operation list from the sandbox: ${e.message}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
