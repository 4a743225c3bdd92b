#!/usr/bin/env node
'use strict';
// npx signsandbox ...: runs the binary of the installed platform package
// (or SIGNSANDBOX_BINARY) with the same arguments, and exits as it exits.

const { spawn } = require('node:child_process');
const { binaryPath } = require('../lib/binary.js');

let bin;
try {
  bin = binaryPath();
} catch (e) {
  console.error(e.message);
  process.exit(1);
}

// Ctrl-C reaches the binary from the terminal (it is in the same process
// group), so this process only waits for it to stop; a SIGTERM or SIGHUP
// sent to this process alone (by a supervisor or a test runner) is passed
// on, so that the server shuts down gracefully. The handlers are in place
// before the binary starts, so that no signal finds this process without.
let child;
let pending;
process.on('SIGINT', () => {});
for (const signal of ['SIGTERM', 'SIGHUP']) {
  process.on(signal, () => (child ? child.kill(signal) : (pending = signal)));
}

child = spawn(bin, process.argv.slice(2), { stdio: 'inherit' });
if (pending) child.kill(pending);

child.on('error', (e) => {
  console.error(`signsandbox: cannot run ${bin}: ${e.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so that the caller sees how the binary ended.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code);
});
