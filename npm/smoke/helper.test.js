'use strict';
// The test helper, required as a user requires it (CommonJS): a sandbox
// per test file, a request sent, signed through the helper's control
// call, its callback delivered and its e-mails in the outbox.

const { test, before, after } = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const { startSandbox, SandboxError } = require('signsandbox');

let sb;
let receiver;
const delivered = [];

before(async () => {
  sb = await startSandbox({ offline: true });
  // A callback receiver: each event (the multipart field "json") kept, and
  // the answer Dropbox Sign expects.
  receiver = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': req.headers['content-type'] } }).formData();
    delivered.push(JSON.parse(form.get('json')));
    res.end('Hello API Event Received');
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  await sb.close();
  await new Promise((resolve) => receiver.close(resolve));
});

/** A call to the API with the default world's key. */
async function api(method, path, form) {
  const r = await fetch(`${sb.apiBaseUrl}${path}`, {
    method,
    body: form,
    headers: { Authorization: 'Basic ' + Buffer.from(`${sb.apiKey}:`).toString('base64') },
  });
  const body = await r.json();
  assert.ok(r.ok, `${method} ${path}: ${r.status} ${JSON.stringify(body)}`);
  return body;
}

test('the sandbox answers at its URLs', async () => {
  assert.match(sb.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.strictEqual(sb.apiBaseUrl, `${sb.url}/v3`);
  const { account } = await api('GET', '/account');
  assert.strictEqual(account.email_address, sb.emailAddress);
  assert.strictEqual((await sb.now()).toISOString(), '2025-01-01T00:00:00.000Z', 'a fake clock by default');
});

test('send, sign through the helper, see the callback and the e-mails', async () => {
  const account = new FormData();
  account.set('callback_url', `http://127.0.0.1:${receiver.address().port}/callbacks`);
  await api('POST', '/account', account);

  const form = new FormData();
  form.set('file_urls[0]', 'https://example.com/nda.pdf');
  form.set('signers[0][name]', 'Jack');
  form.set('signers[0][email_address]', 'jack@example.com');
  form.set('title', 'NDA');
  form.set('test_mode', '1');
  const { signature_request: sent } = await api('POST', '/signature_request/send', form);
  const signatureId = sent.signatures[0].signature_id;

  await assert.rejects(sb.sign(signatureId), (e) => e instanceof SandboxError && e.status === 409, 'still processing');
  const { jobs } = await sb.advance('1m');
  assert.ok(jobs.length > 0, 'processing ran');
  const signed = await sb.sign(signatureId);
  assert.strictEqual(signed.signature_request_id, sent.signature_request_id);
  assert.strictEqual(signed.signatures[0].status_code, 'signed');
  await sb.advance({ duration: '1m', wait_callbacks: true });
  await sb.waitCallbacks();

  const logged = (await sb.callbacks({ object_id: sent.signature_request_id })).map((c) => c.event_type);
  assert.ok(logged.includes('signature_request_signed'), logged.join());
  const got = delivered.map((e) => e.event && e.event.event_type);
  assert.ok(got.includes('signature_request_signed'), `delivered: ${got.join()}`);

  const mails = await sb.emails({ signature_request_id: sent.signature_request_id });
  assert.ok(mails.some((m) => m.to === 'jack@example.com' && m.kind === 'signature_request'), JSON.stringify(mails));
});

test('a world of its own, with its own key and clock', async () => {
  const w = await sb.createWorld({ time: new Date('2030-01-02T03:04:05Z') });
  assert.notStrictEqual(w.apiKey, sb.apiKey);
  assert.strictEqual(w.url, sb.url);
  assert.strictEqual((await w.now()).toISOString(), '2030-01-02T03:04:05.000Z');
  assert.deepStrictEqual(await w.emails(), []);
  await w.delete();
  await assert.rejects(w.clock(), (e) => e.status === 401);
});

test('close stops the process', async () => {
  const other = await startSandbox();
  await other.close();
  await other.close();
  await assert.rejects(fetch(`${other.url}/_sandbox/health`));
});
