#!/usr/bin/env node
// Builds the npm packages from GoReleaser's output (dist/), the way esbuild
// ships its binary: a main package, signsandbox (the launcher, the test
// helper), with an optional dependency on one package per platform
// (@signsandbox/linux-x64, ...), each holding that platform's binary and
// restricted to it by "os" and "cpu", so that npm installs only the one
// that fits.
//
//   node npm/build.mjs [--dist dist] [--out dist/npm] [--pack]
//
// It reads dist/metadata.json (the version) and dist/artifacts.json (the
// binaries), writes one directory per package under --out, and with --pack
// runs npm pack in each, leaving the tarballs in --out. Every package gets
// the version of the release (or snapshot), LICENSE and
// THIRD_PARTY_NOTICES. A platform missing from dist/ is an error: the main
// package must not name a package that was not built.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

/** GoReleaser's GOOS and GOARCH as npm's os and cpu (Node's names). */
const OS = { linux: 'linux', darwin: 'darwin', windows: 'win32' };
const CPU = { amd64: 'x64', arm64: 'arm64' };

function parseArgs(argv) {
  const opts = { dist: path.join(root, 'dist'), out: undefined, pack: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--pack') opts.pack = true;
    else if (a === '--dist') opts.dist = path.resolve(argv[++i]);
    else if (a === '--out') opts.out = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${a} (usage: node npm/build.mjs [--dist DIR] [--out DIR] [--pack])`);
  }
  opts.out ??= path.join(opts.dist, 'npm');
  return opts;
}

const readJSON = (p) => JSON.parse(fs.readFileSync(p, 'utf8'));
const writeJSON = (p, v) => fs.writeFileSync(p, JSON.stringify(v, null, 2) + '\n');

/** The binaries GoReleaser built, as {os, cpu, path}. */
function binaries(dist) {
  const out = [];
  for (const a of readJSON(path.join(dist, 'artifacts.json'))) {
    if (a.type !== 'Binary' || a.name.replace(/\.exe$/, '') !== 'signsandbox') continue;
    const os = OS[a.goos];
    const cpu = CPU[a.goarch];
    if (!os || !cpu) throw new Error(`no npm platform for ${a.goos}/${a.goarch}: add it to npm/build.mjs and lib/binary.js`);
    out.push({ os, cpu, path: path.resolve(root, a.path) });
  }
  return out;
}

function copyLegal(dir) {
  for (const f of ['LICENSE', 'THIRD_PARTY_NOTICES']) fs.copyFileSync(path.join(root, f), path.join(dir, f));
}

/** One platform package: package.json, the binary in bin/, the licences. */
function platformPackage(out, version, main, b) {
  const name = `@signsandbox/${b.os}-${b.cpu}`;
  const dir = path.join(out, `${b.os}-${b.cpu}`);
  const exe = b.os === 'win32' ? 'signsandbox.exe' : 'signsandbox';
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.copyFileSync(b.path, path.join(dir, 'bin', exe));
  fs.chmodSync(path.join(dir, 'bin', exe), 0o755);
  copyLegal(dir);
  fs.writeFileSync(
    path.join(dir, 'README.md'),
    `# ${name}\n\nThe signsandbox binary for ${b.os}/${b.cpu}. Install [signsandbox](https://www.npmjs.com/package/signsandbox) instead: it depends on this package where it fits.\n`,
  );
  writeJSON(path.join(dir, 'package.json'), {
    name,
    version,
    description: `The signsandbox binary for ${b.os}/${b.cpu} (installed by the signsandbox package)`,
    homepage: main.homepage,
    repository: main.repository,
    license: main.license,
    os: [b.os],
    cpu: [b.cpu],
    files: ['bin/', 'LICENSE', 'THIRD_PARTY_NOTICES'],
    preferUnplugged: true,
  });
  return { name, dir };
}

function build({ dist, out, pack }) {
  const { version } = readJSON(path.join(dist, 'metadata.json'));
  if (!version) throw new Error(`${dist}/metadata.json names no version`);
  const source = path.join(here, 'signsandbox');
  const main = readJSON(path.join(source, 'package.json'));
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });

  const platforms = binaries(dist).map((b) => platformPackage(out, version, main, b));
  const built = platforms.map((p) => p.name).sort();
  const named = Object.keys(main.optionalDependencies).sort();
  if (built.join() !== named.join()) {
    throw new Error(`npm/signsandbox/package.json names ${named.join(', ')}; dist/ has binaries for ${built.join(', ')}`);
  }

  const mainDir = path.join(out, 'signsandbox');
  fs.cpSync(source, mainDir, { recursive: true, filter: (p) => path.relative(source, p).split(path.sep)[0] !== 'test' });
  copyLegal(mainDir);
  main.version = version;
  main.optionalDependencies = Object.fromEntries(built.map((n) => [n, version]));
  writeJSON(path.join(mainDir, 'package.json'), main);

  const dirs = [mainDir, ...platforms.map((p) => p.dir)];
  if (pack) {
    for (const dir of dirs) {
      execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    }
  }
  return { version, dirs };
}

const opts = parseArgs(process.argv.slice(2));
const { version, dirs } = build(opts);
console.log(`npm packages ${version}: ${dirs.map((d) => path.relative(root, d)).join(', ')}`);
if (opts.pack) {
  for (const f of fs.readdirSync(opts.out).filter((f) => f.endsWith('.tgz')).sort()) {
    console.log(`  ${f}  ${Math.ceil(fs.statSync(path.join(opts.out, f)).size / 1024)} KiB`);
  }
}
