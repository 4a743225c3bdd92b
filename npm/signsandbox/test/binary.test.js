'use strict';
// Unit tests of the binary lookup and the npx launcher (no platform
// package needed): node --test npm/signsandbox/test/

const { test } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync, spawn } = require('node:child_process');
const { platformPackage, binaryPath, PLATFORM_PACKAGES } = require('../lib/binary.js');
const pkg = require('../package.json');

test('every platform package is an optional dependency, and the other way round', () => {
  assert.deepStrictEqual(Object.values(PLATFORM_PACKAGES).sort(), Object.keys(pkg.optionalDependencies).sort());
  assert.strictEqual(platformPackage('linux', 'x64'), '@signsandbox/linux-x64');
  assert.strictEqual(platformPackage('win32', 'arm64'), '@signsandbox/win32-arm64');
  assert.strictEqual(platformPackage('freebsd', 'x64'), undefined);
});

test('SIGNSANDBOX_BINARY wins, and must exist', () => {
  assert.strictEqual(binaryPath({ SIGNSANDBOX_BINARY: __filename }, 'linux', 'x64'), __filename);
  assert.throws(() => binaryPath({ SIGNSANDBOX_BINARY: '/nowhere/signsandbox' }), /SIGNSANDBOX_BINARY is \/nowhere\/signsandbox, which does not exist/);
});

test('the installed platform package holds the binary', () => {
  const asked = [];
  const resolve = (p) => {
    asked.push(p);
    return `/node_modules/${p}`;
  };
  assert.strictEqual(binaryPath({}, 'linux', 'arm64', resolve), '/node_modules/@signsandbox/linux-arm64/bin/signsandbox');
  assert.strictEqual(binaryPath({}, 'win32', 'x64', resolve), '/node_modules/@signsandbox/win32-x64/bin/signsandbox.exe');
  assert.deepStrictEqual(asked, ['@signsandbox/linux-arm64/bin/signsandbox', '@signsandbox/win32-x64/bin/signsandbox.exe']);
});

test('a missing binary says what to do', () => {
  const missing = () => {
    throw new Error('MODULE_NOT_FOUND');
  };
  assert.throws(() => binaryPath({}, 'darwin', 'arm64', missing), /@signsandbox\/darwin-arm64.*is not installed.*--omit=optional.*SIGNSANDBOX_BINARY/);
  assert.throws(() => binaryPath({}, 'aix', 'ppc64', missing), /no binary is published for aix\/ppc64.*go install .*SIGNSANDBOX_BINARY/);
});

const launcher = path.join(__dirname, '..', 'bin', 'signsandbox.js');
const posix = process.platform !== 'win32';

/** A stand-in binary: a shell script. */
function fakeBinary(script) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signsandbox-launcher-'));
  const bin = path.join(dir, 'signsandbox');
  fs.writeFileSync(bin, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return bin;
}

test('the launcher passes the arguments and the exit status on', { skip: !posix && 'shell scripts' }, () => {
  const bin = fakeBinary('echo "args: $*"; exit 3');
  const r = spawnSync(process.execPath, [launcher, '--version', 'two words'], { env: { ...process.env, SIGNSANDBOX_BINARY: bin }, encoding: 'utf8' });
  assert.strictEqual(r.stdout, 'args: --version two words\n');
  assert.strictEqual(r.status, 3);
});

test('the launcher passes SIGTERM on and ends as the binary ends', { skip: !posix && 'signals' }, async () => {
  const bin = fakeBinary('trap \'echo stopping; exit 0\' TERM; echo ready; while :; do sleep 0.05; done');
  const child = spawn(process.execPath, [launcher], { env: { ...process.env, SIGNSANDBOX_BINARY: bin } });
  let out = '';
  child.stdout.setEncoding('utf8');
  await new Promise((resolve) => child.stdout.on('data', (d) => { out += d; if (out.includes('ready')) resolve(); }));
  child.kill('SIGTERM');
  const [code] = await new Promise((resolve) => child.on('exit', (...a) => resolve(a)));
  assert.strictEqual(code, 0, 'the binary stopped on the forwarded SIGTERM and exited 0');
  assert.match(out, /stopping/);
});

test('the launcher without a binary says why and exits 1', () => {
  const r = spawnSync(process.execPath, [launcher, '--version'], { env: { ...process.env, SIGNSANDBOX_BINARY: '/nowhere/signsandbox' }, encoding: 'utf8' });
  assert.strictEqual(r.status, 1);
  assert.match(r.stderr, /does not exist/);
});
