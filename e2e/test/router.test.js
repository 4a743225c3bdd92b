'use strict';
// Scale-out through the shipped HAProxy configuration (deploy/haproxy): three
// servers with their own --shard tags and data directories behind the
// router, driven through it with the official SDK, one world on each server.
// The router names the server that answered in X-Signsandbox-Server; every
// answer here must come from the server that holds the world the call names.
// A server killed with SIGKILL is answered for by the router (503 in the
// API's envelope), never by another server, and once started again on its
// data directory it is routed to again with nothing lost.
//
// It starts its own servers and router (lib/cluster.js), whatever sandbox the
// other files use, and skips with a message when haproxy is not installed.

const { test, before, after } = require('node:test');
const crypto = require('node:crypto');
const sdk = require('@dropbox/sign');
const assert = require('node:assert/strict');
const sandbox = require('../lib/sandbox');
const { startCluster, findHAProxy, NO_HAPROXY, SERVER_HEADER } = require('../lib/cluster');
const { pdfUpload, isPDF } = require('../lib/pdf');
const { startReceiver } = require('../lib/receiver');

const { AccountApi, SignatureRequestApi, EmbeddedApi, OAuthApi } = sdk;
const TAGS = ['01', '02', '03'];
const ADMIN = crypto.randomBytes(16).toString('hex');
const skip = findHAProxy() ? false : NO_HAPROXY;

let cluster;
let receiver;
/** The worlds made in the first test, by tag: the 201 of POST /_sandbox/worlds. */
const worlds = {};
/** What each world holds, by tag, for the restart: a request, a token. */
const held = {};

before(async () => {
  if (skip) return;
  // An admin token, as a shared deployment has; it also limits callbacks to
  // public addresses unless allowed, and the receiver here is on loopback.
  const env = { SIGNSANDBOX_ADMIN_TOKEN: ADMIN, SIGNSANDBOX_ALLOW_OUTBOUND: '127.0.0.1' };
  cluster = await startCluster({ binary: sandbox.buildBinary(), tags: TAGS, env });
  receiver = await startReceiver();
});

after(async () => {
  if (receiver) await receiver.close();
  if (cluster) await cluster.stop();
});

/** A call through the router; answers {status, headers, json, text, buf}. */
async function call(method, p, { key, token, admin, body, form, headers = {} } = {}) {
  const h = { ...headers };
  if (key) h.Authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
  if (token) h.Authorization = `Bearer ${token}`;
  if (admin) h['X-Signsandbox-Admin-Token'] = ADMIN;
  let payload = body;
  if (form) payload = form;
  else if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)) {
    h['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const url = p.startsWith('http') ? p : `${cluster.url}${p}`;
  const r = await fetch(url, { method, headers: h, body: payload });
  const buf = Buffer.from(await r.arrayBuffer());
  const text = buf.toString('utf8');
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: r.headers, json, text, buf, server: r.headers.get(SERVER_HEADER) };
}

/** Asserts that the answer came from the server of tag, with the status. */
function from(res, tag, status, what) {
  const label = `${what || ''} answered ${res.status} ${res.text ? res.text.slice(0, 200) : ''}`;
  if (status !== undefined) assert.equal(res.status, status, label);
  assert.equal(res.server, tag, `${what || 'the answer'} comes from server ${tag}`);
}

/** An SDK API instance on the router, as an integrator points it. */
function api(Cls, { key, token } = {}) {
  const a = new Cls();
  a.basePath = Cls === OAuthApi ? cluster.url : `${cluster.url}/v3`;
  if (token) a.accessToken = token;
  else a.username = key || '';
  return a;
}

/** Asserts that an SDK answer (or HttpError) came from the server of tag. */
function sdkFrom(r, tag, what) {
  const response = r.response || r;
  assert.equal(response.headers[SERVER_HEADER], tag, `${what || 'the SDK call'} comes from server ${tag}`);
  return r;
}

function signer(name, emailAddress) {
  return Object.assign(new sdk.SubSignatureRequestSigner(), { name, emailAddress });
}

function tagOf(worldId) {
  return worldId.split('-')[0];
}

async function advancePast(tag, ...delays) {
  const ctl = new sandbox.Control(cluster.url, worlds[tag].api_key);
  return ctl.advancePast(...delays);
}

test('new worlds go round robin, one to each server, and carry its tag', { skip }, async () => {
  for (let i = 0; i < TAGS.length; i++) {
    const r = await call('POST', '/_sandbox/worlds', { admin: true, body: {} });
    assert.equal(r.status, 201, r.text);
    const tag = tagOf(r.json.world_id);
    from(r, tag, 201, 'POST /_sandbox/worlds');
    assert.equal(worlds[tag], undefined, `round robin: a second world on ${tag} before every server had one`);
    for (const k of ['api_key', 'client_secret']) assert.ok(r.json[k].startsWith(tag), `${k} starts with the tag ${tag}`);
    worlds[tag] = r.json;
  }
  assert.deepEqual(Object.keys(worlds).sort(), TAGS);
});

test('a world key reaches its own server, on the API and the control plane', { skip }, async () => {
  for (const tag of TAGS) {
    const w = worlds[tag];
    const me = sdkFrom(await api(AccountApi, { key: w.api_key }).accountGet(), tag, 'accountGet');
    assert.equal(me.body.account.accountId, w.account_id);
    const world = await call('GET', '/_sandbox/world', { key: w.api_key });
    from(world, tag, 200, 'GET /_sandbox/world');
    assert.equal(world.json.world_id, w.world_id, 'the world of the key answers');
  }
});

test('send, sign on the page, callbacks and file URLs, on every server', { skip }, async () => {
  for (const tag of TAGS) {
    const w = worlds[tag];
    const key = w.api_key;
    await call('PATCH', '/_sandbox/config', { key, body: { fetch_file_urls: false } });
    sdkFrom(await api(AccountApi, { key }).accountUpdate({ callbackUrl: `${receiver.url}/${w.world_id}` }), tag, 'accountUpdate');

    // A plain send, signed through the control plane.
    const sent = sdkFrom(await api(SignatureRequestApi, { key }).signatureRequestSend({
      title: `Sent on ${tag}`, signers: [signer('Sam', 'sam@example.com')], files: [pdfUpload('send.pdf')], testMode: true,
    }), tag, 'signatureRequestSend').body.signatureRequest;
    assert.ok(sent.detailsUrl.includes(`/_sandbox/w/${w.world_id}/`), `details_url names the world: ${sent.detailsUrl}`);
    await advancePast(tag, 'send_processing_delay');
    from(await call('POST', `/_sandbox/signatures/${sent.signatures[0].signatureId}/sign`, { key, body: {} }), tag, 200, 'control sign');

    // An embedded request, signed on its page as a browser would.
    const emb = sdkFrom(await api(SignatureRequestApi, { key }).signatureRequestCreateEmbedded({
      clientId: w.client_id, title: `Embedded on ${tag}`, signers: [signer('Ella', 'ella@example.com')], files: [pdfUpload('embedded.pdf')], testMode: true,
    }), tag, 'signatureRequestCreateEmbedded').body.signatureRequest;
    await advancePast(tag, 'send_processing_delay');
    const { signUrl } = sdkFrom(await api(EmbeddedApi, { key }).embeddedSignUrl(emb.signatures[0].signatureId), tag, 'embeddedSignUrl').body.embedded;
    assert.ok(signUrl.startsWith(`${cluster.url}/_sandbox/w/${w.world_id}/sign/`), `the sign URL is the router's and names the world: ${signUrl}`);
    const page = await call('GET', signUrl);
    from(page, tag, 200, 'the signing page');
    assert.match(page.text, /Sign as Ella/);
    from(await call('POST', signUrl, { form: new URLSearchParams({ action: 'sign' }) }), tag, 200, 'signing on the page');

    for (const id of [sent.signatureRequestId, emb.signatureRequestId]) {
      const got = sdkFrom(await api(SignatureRequestApi, { key }).signatureRequestGet(id), tag, 'signatureRequestGet').body.signatureRequest;
      assert.equal(got.isComplete, true, `${id} is signed`);
    }

    // Callbacks leave from the server that holds the world.
    await advancePast(tag, 'file_preparation_delay');
    from(await call('POST', '/_sandbox/callbacks/wait', { key, body: { timeout: '10s' } }), tag, 200, 'callbacks/wait');
    await receiver.waitFor((ds) => [sent, emb].every((sr) => ds.some((d) => d.path === `/${w.world_id}` && d.event
      && d.event.event.eventType === 'signature_request_all_signed' && d.event.signatureRequest.signatureRequestId === sr.signatureRequestId)), 10000);
    for (const d of receiver.deliveries.filter((x) => x.path === `/${w.world_id}`)) {
      assert.equal(sdk.EventCallbackHelper.isValid(key, d.event), true, 'signed with the world key');
    }

    // The file URL is the router's, names the world and reaches its server.
    const url = sdkFrom(await api(SignatureRequestApi, { key }).signatureRequestFilesAsFileUrl(sent.signatureRequestId), tag, 'filesAsFileUrl').body.fileUrl;
    assert.ok(url.startsWith(`${cluster.url}/_sandbox/w/${w.world_id}/files/`), url);
    const file = await call('GET', url);
    from(file, tag, 200, 'the file URL');
    assert.ok(isPDF(file.buf), 'a PDF');
    held[tag] = { request: sent.signatureRequestId, fileUrl: url, signUrl };
  }
});

/** An authorization code for the world's app, from the control plane. */
async function authorize(tag) {
  const w = worlds[tag];
  const r = await call('POST', '/_sandbox/oauth/authorize', { key: w.api_key, body: { client_id: w.client_id, state: 'st' } });
  from(r, tag, 200, 'oauth/authorize');
  assert.ok(r.json.code.startsWith(tag), 'the code starts with the tag');
  return r.json.code;
}

/** The token call's parameters as a form or multipart body. */
function body(kind, fields) {
  if (kind === 'form') return new URLSearchParams(fields);
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

test('OAuth: codes and refresh tokens in JSON, form and multipart bodies reach their server', { skip }, async () => {
  for (const tag of TAGS) {
    const w = worlds[tag];
    const app = { client_id: w.client_id, client_secret: w.client_secret };
    // The SDK: JSON to /oauth/token and /oauth/token?refresh.
    const gen = Object.assign(new sdk.OAuthTokenGenerateRequest(), { clientId: w.client_id, clientSecret: w.client_secret, code: await authorize(tag), state: 'st' });
    const tok = sdkFrom(await api(OAuthApi).oauthTokenGenerate(gen), tag, 'oauthTokenGenerate').body;
    assert.ok(tok.accessToken.startsWith(tag) && tok.refreshToken.startsWith(tag), 'tokens carry the tag');
    sdkFrom(await api(AccountApi, { token: tok.accessToken }).accountGet(), tag, 'accountGet with a Bearer token');
    const ref = Object.assign(new sdk.OAuthTokenRefreshRequest(), { refreshToken: tok.refreshToken });
    let refreshToken = sdkFrom(await api(OAuthApi).oauthTokenRefresh(ref), tag, 'oauthTokenRefresh').body.refreshToken;

    // Form and multipart bodies, at both paths, as other clients send them.
    for (const kind of ['form', 'multipart']) {
      for (const p of ['/oauth/token', '/v3/oauth/token']) {
        const got = await call('POST', p, { form: body(kind, { ...app, code: await authorize(tag), grant_type: 'authorization_code', state: 'st' }) });
        from(got, tag, 200, `${kind} code at ${p}`);
        sdkFrom(await api(AccountApi, { token: got.json.access_token }).accountGet(), tag, 'the token it gave');
        const again = await call('POST', `${p}?refresh`, { form: body(kind, { grant_type: 'refresh_token', refresh_token: refreshToken }) });
        from(again, tag, 200, `${kind} refresh at ${p}`);
        refreshToken = again.json.refresh_token;
        held[tag].accessToken = again.json.access_token;
      }
    }
  }
});

test('calls naming no world go to the first server; seeded worlds are made and reached there', { skip }, async () => {
  from(await call('GET', '/_sandbox/clock', { admin: true }), '01', 200, 'a control call without a key');
  from(await call('GET', '/_sandbox/operations'), '01', 200, 'the route table');
  const r = await call('POST', '/_sandbox/worlds', { admin: true, body: { seed: 'scale-out-router' } });
  from(r, '01', 201, 'a seeded world');
  assert.ok(r.json.world_id.startsWith('01-'), r.json.world_id);
  // Its credentials follow the seed and carry no tag; this seed's key does
  // not start with another server's tag, or the router would send it there.
  assert.ok(!['02', '03'].includes(r.json.api_key.slice(0, 2)), `pick another seed: ${r.json.api_key.slice(0, 2)}`);
  from(await call('GET', '/_sandbox/world', { key: r.json.api_key }), '01', 200, 'the seeded world by its key');
  const unknown = await call('GET', '/v3/account', { key: `ff${'0'.repeat(62)}` });
  from(unknown, '01', 401, 'a key whose tag is no server’s');
  assert.equal(unknown.json.error.error_name, 'unauthorized');
});

test('the admin token passes through the router', { skip }, async () => {
  const refused = await call('POST', '/_sandbox/worlds', { body: {} });
  assert.equal(refused.status, 401, refused.text);
  assert.ok(TAGS.includes(refused.server), 'a server answered, not the router');
  assert.equal(refused.json.error.error_name, 'unauthorized');
});

test('no call is answered by another world', { skip }, async () => {
  for (const tag of TAGS) {
    for (const other of TAGS.filter((t) => t !== tag)) {
      const key = worlds[tag].api_key;
      const r = await call('GET', `/v3/signature_request/${held[other].request}`, { key });
      from(r, tag, 404, `world ${tag} asking for a request of ${other}`);
      // A page token under another world's id reaches that world's server,
      // which does not know it.
      const swapped = held[other].signUrl.replace(`/w/${worlds[other].world_id}/`, `/w/${worlds[tag].world_id}/`);
      const page = await call('GET', swapped);
      assert.equal(page.server, tag);
      assert.ok(page.status >= 400 && page.status < 500, `a foreign token on ${tag}'s pages: ${page.status}`);
    }
  }
});

test('bodies up to the documented limit pass through the router to the server', { skip }, async () => {
  const tag = '03';
  const key = worlds[tag].api_key;
  const cfg = (await call('GET', '/_sandbox/config', { key })).json;
  // docs/fidelity.md: 64 MiB, or twice max_file_bytes.
  const limit = Math.max(64 << 20, 2 * cfg.max_file_bytes);
  const sized = (n) => {
    const head = Buffer.from('{"title":"');
    const tail = Buffer.from('"}');
    return Buffer.concat([head, Buffer.alloc(n - head.length - tail.length, 'a'), tail]);
  };
  const json = { 'Content-Type': 'application/json' };
  const whole = await call('POST', '/v3/signature_request/send', { key, body: sized(limit), headers: json });
  from(whole, tag, 400, 'a body of the limit');
  assert.equal(whole.json.error.error_path, 'title', 'the server read it whole and judged its title');
  const over = await call('POST', '/v3/signature_request/send', { key, body: sized(limit + 1), headers: json });
  from(over, tag, 400, 'a body over the limit');
  assert.match(over.json.error.error_msg, /larger than the limit/);
});

test('a server killed and started again on its data directory is routed to again, with nothing lost', { skip }, async () => {
  const tag = '02';
  const w = worlds[tag];
  const before = await call('GET', '/_sandbox/state', { key: w.api_key });
  from(before, tag, 200, 'the export before');

  await cluster.kill(tag);
  for (const [p, opts] of [['/v3/account', { key: w.api_key }], ['/v3/account', { token: held[tag].accessToken }], [held[tag].fileUrl, {}]]) {
    const r = await call('GET', p, opts);
    assert.equal(r.status, 503, `while ${tag} is down the router answers for it: ${r.status} ${r.text}`);
    assert.equal(r.server, null, 'no other server answered');
    assert.equal(r.json.error.error_name, 'unavailable', 'in the API error envelope');
    assert.ok(r.headers.get('retry-after'));
  }
  await cluster.waitRouted(tag, 'DOWN');
  for (const t of TAGS.filter((x) => x !== tag)) {
    from(await call('GET', `/v3/signature_request/${held[t].request}`, { key: worlds[t].api_key }), t, 200, `world ${t} while ${tag} is down`);
  }
  for (let i = 0; i < 2; i++) {
    const r = await call('POST', '/_sandbox/worlds', { admin: true, body: {} });
    assert.equal(r.status, 201);
    assert.notEqual(r.server, tag, 'no new world goes to a server that is down');
  }

  await cluster.restart(tag);
  const after = await call('GET', '/_sandbox/state', { key: w.api_key });
  from(after, tag, 200, 'the export after');
  assert.deepEqual(after.json, before.json, 'the world is back exactly');
  from(await call('GET', '/v3/account', { token: held[tag].accessToken }), tag, 200, 'the OAuth token issued before');
  const file = await call('GET', held[tag].fileUrl);
  from(file, tag, 200, 'the file URL handed out before');
  assert.ok(isPDF(file.buf));
  const again = sdkFrom(await api(SignatureRequestApi, { key: w.api_key }).signatureRequestSend({
    title: 'After the restart', signers: [signer('Rita', 'rita@example.com')], files: [pdfUpload()], testMode: true,
  }), tag, 'a send after the restart').body.signatureRequest;
  sdkFrom(await api(SignatureRequestApi, { key: w.api_key }).signatureRequestGet(again.signatureRequestId), tag, 'its GET');
  const made = new Set();
  for (let i = 0; i < TAGS.length; i++) made.add((await call('POST', '/_sandbox/worlds', { admin: true, body: {} })).server);
  assert.ok(made.has(tag), 'new worlds go to the restarted server again');
});
