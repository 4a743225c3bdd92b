'use strict';
// Several signsandbox servers behind HAProxy on loopback, as docs/scale-out.md
// runs them: each server with its own --shard tag and --data-dir, the router
// with the shipped deploy/haproxy/haproxy.cfg and the server list that
// deploy/haproxy/servers.sh writes. Ports are chosen at run time; every wait
// is on a condition (a server's readiness, the router's view of it), and
// stop() ends every process started here.
//
//   const c = await startCluster({ binary, tags: ['01', '02', '03'] });
//   c.url                      // the router: the base URL clients use
//   await c.kill('02');        // SIGKILL, as a crash
//   await c.restart('02');     // again on its port and data directory; resolves
//                              // once the router sends it calls again
//   await c.stop();

const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const sandbox = require('./sandbox');

const HAPROXY_DIR = path.join(sandbox.REPO_ROOT, 'deploy', 'haproxy');
const HAPROXY_CFG = path.join(HAPROXY_DIR, 'haproxy.cfg');
const SERVERS_SH = path.join(HAPROXY_DIR, 'servers.sh');

/** The header in which the router names the server that answered. */
const SERVER_HEADER = 'x-signsandbox-server';

/**
 * The haproxy executable (SIGNSANDBOX_E2E_HAPROXY, else the PATH, else
 * /usr/sbin where Debian puts it), or null when it is not installed.
 */
function findHAProxy() {
  const given = process.env.SIGNSANDBOX_E2E_HAPROXY;
  if (given) return fs.existsSync(given) ? given : null;
  const dirs = [...(process.env.PATH || '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const d of dirs) {
    const p = path.join(d, 'haproxy');
    if (d && fs.existsSync(p)) return p;
  }
  return null;
}

const NO_HAPROXY = 'haproxy is not installed (Debian: apt-get install haproxy; or set SIGNSANDBOX_E2E_HAPROXY): the scale-out tests skip';

/** Polls check() until it answers a truthy value or timeoutMs passes. */
async function waitFor(what, check, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function ready(url) {
  const r = await fetch(`${url}/_sandbox/ready`);
  return r.status === 200;
}

/**
 * Starts one server per tag, then HAProxy in front of them, and resolves
 * once the router sees every server up. options.env is given to every
 * server (for example SIGNSANDBOX_ADMIN_TOKEN); options.args are added to
 * each server's command line.
 */
async function startCluster({ binary, tags = ['01', '02', '03'], env = {}, args = [], haproxy = findHAProxy() } = {}) {
  if (!haproxy) throw new Error(NO_HAPROXY);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signsandbox-cluster-'));
  const servers = new Map();
  const cluster = { dir, servers, url: undefined, adminURL: undefined, log: [] };
  let router;

  const startServer = async (tag, addr) => {
    const dataDir = path.join(dir, `data-${tag}`);
    const started = await sandbox.startBinary(binary, { addr, env, args: ['--shard', tag, '--data-dir', dataDir, ...args] });
    const s = { tag, dataDir, url: started.url, port: Number(new URL(started.url).port), started };
    servers.set(tag, s); // before the wait, so that stop() ends it whatever happens
    await waitFor(`server ${tag} to be ready`, () => ready(started.url));
    return s;
  };

  /** The router's view of its shard servers: {tag: 'UP' | 'DOWN' | ...}. */
  cluster.states = async () => {
    const csv = await (await fetch(`${cluster.adminURL}/stats;csv`)).text();
    const [head, ...rows] = csv.trim().split('\n');
    const cols = head.replace(/^# /, '').split(',');
    const px = cols.indexOf('pxname');
    const sv = cols.indexOf('svname');
    const st = cols.indexOf('status');
    const out = {};
    for (const row of rows) {
      const f = row.split(',');
      if (f[px].startsWith('shard_') && f[sv] !== 'BACKEND') out[f[sv]] = f[st];
    }
    return out;
  };

  /** Resolves once the router marks the server of tag as the state given. */
  cluster.waitRouted = (tag, state = 'UP') =>
    waitFor(`the router to see server ${tag} ${state}`, async () => (await cluster.states())[tag] === state);

  /** Ends the server of tag with SIGKILL, as a crash would. */
  cluster.kill = async (tag) => {
    const s = servers.get(tag);
    const exited = new Promise((r) => s.started.child.once('exit', r));
    s.started.child.kill('SIGKILL');
    await exited;
  };

  /** Starts the server of tag again on its port and data directory. */
  cluster.restart = async (tag) => {
    const old = servers.get(tag);
    await startServer(tag, `127.0.0.1:${old.port}`);
    await cluster.waitRouted(tag);
  };

  cluster.stop = async () => {
    if (router && router.exitCode === null) {
      const exited = new Promise((r) => router.once('exit', r));
      router.kill('SIGTERM');
      await exited;
    }
    await Promise.all([...servers.values()].map((s) => sandbox.stopBinary(s.started)));
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    for (const tag of tags) await startServer(tag);
    const list = execFileSync('sh', [SERVERS_SH, ...tags.map((t) => `${t}=127.0.0.1:${servers.get(t).port}`)], { encoding: 'utf8' });
    const serversCfg = path.join(dir, 'servers.cfg');
    fs.writeFileSync(serversCfg, list);
    const [port, adminPort] = [await sandbox.freePort(), await sandbox.freePort()];
    const routerEnv = {
      ...process.env,
      SIGNSANDBOX_ROUTER_ADDR: `127.0.0.1:${port}`,
      SIGNSANDBOX_ROUTER_ADMIN_ADDR: `127.0.0.1:${adminPort}`,
      SIGNSANDBOX_SHARD_LEN: String(tags[0].length),
    };
    const cfgArgs = ['-f', HAPROXY_CFG, '-f', serversCfg];
    execFileSync(haproxy, ['-c', '-q', ...cfgArgs], { env: routerEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    router = spawn(haproxy, ['-db', ...cfgArgs], { env: routerEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d) => {
      cluster.log.push(...String(d).split('\n').filter(Boolean));
      if (cluster.log.length > 2000) cluster.log.splice(0, cluster.log.length - 2000);
      if (process.env.SIGNSANDBOX_E2E_VERBOSE) process.stderr.write(d);
    };
    router.stdout.on('data', keep);
    router.stderr.on('data', keep);
    cluster.router = router;
    cluster.url = `http://127.0.0.1:${port}`;
    cluster.adminURL = `http://127.0.0.1:${adminPort}`;
    await waitFor('haproxy to answer', async () => (await fetch(`${cluster.adminURL}/healthz`)).ok);
    for (const tag of tags) await cluster.waitRouted(tag);
    return cluster;
  } catch (e) {
    await cluster.stop();
    if (cluster.log.length) e.message += `\nhaproxy:\n${cluster.log.slice(-20).join('\n')}`;
    throw e;
  }
}

module.exports = { startCluster, findHAProxy, waitFor, NO_HAPROXY, SERVER_HEADER, HAPROXY_CFG, SERVERS_SH };
