'use strict';
// Embedded requests through the official SDK: create_embedded, the embedded
// sign URL (EmbeddedApi.embeddedSignUrl), edit_embedded; reminders refused.

const { before, after } = require('node:test');
const { setup, expectHttpError, signer, sdk, assert } = require('../lib/harness');
const { pdfUpload } = require('../lib/pdf');
const { startReceiver } = require('../lib/receiver');
const record = require('../lib/record');

const h = setup({ config: { fetch_file_urls: false } });
const { SignatureRequestApi, EmbeddedApi, ApiAppApi, EventCallbackHelper } = sdk;

let receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  if (receiver) await receiver.close();
});

async function processed() {
  await h.control.advance(60);
}

h.test('signatureRequestCreateEmbedded makes an embedded request; embeddedSignUrl answers a sign URL', async () => {
  const req = new sdk.SignatureRequestCreateEmbeddedRequest();
  Object.assign(req, { clientId: h.world.client_id, title: 'Embedded', signers: [signer('Emma', 'emma@example.com')], files: [pdfUpload('e.pdf')], testMode: true });
  const { response, body } = await h.api(SignatureRequestApi).signatureRequestCreateEmbedded(req);
  assert.equal(response.status, 200);
  const sr = body.signatureRequest;
  assert.ok(sr instanceof sdk.SignatureRequestResponse);
  assert.equal(sr.title, 'Embedded');
  await processed();
  const sigId = sr.signatures[0].signatureId;
  const url = await h.api(EmbeddedApi).embeddedSignUrl(sigId);
  assert.equal(url.response.status, 200);
  assert.ok(url.body instanceof sdk.EmbeddedSignUrlResponse);
  assert.ok(url.body.embedded instanceof sdk.EmbeddedSignUrlResponseEmbedded);
  assert.match(url.body.embedded.signUrl, /^https?:\/\//);
  assert.equal(typeof url.body.embedded.expiresAt, 'number');
  const { now } = await h.control.clock();
  assert.ok(url.body.embedded.expiresAt > now);
  const page = await fetch(url.body.embedded.signUrl);
  assert.equal(page.status, 200, 'the sign URL is served by the sandbox');

  // Reminders are refused for embedded requests.
  const e = await expectHttpError(h.api(SignatureRequestApi).signatureRequestRemind(sr.signatureRequestId, { emailAddress: 'emma@example.com' }), {});
  assert.equal(e.statusCode, 400);
  await expectHttpError(h.api(SignatureRequestApi).signatureRequestCreateEmbedded({ title: 'x', signers: [signer('A', 'a@example.com')], files: [pdfUpload()], testMode: true }), { status: 400, errorPath: 'client_id' });
});

h.test('embeddedSignUrl is refused for a non-embedded request', async () => {
  const sr = (await h.api(SignatureRequestApi).signatureRequestSend({ title: 'Plain', signers: [signer('P', 'p@example.com')], fileUrls: ['https://example.com/p.pdf'], testMode: true })).body.signatureRequest;
  await processed();
  const e = await expectHttpError(h.api(EmbeddedApi).embeddedSignUrl(sr.signatures[0].signatureId), {});
  assert.ok(e.statusCode >= 400 && e.statusCode < 500);
});

h.test('signatureRequestEditEmbedded replaces an embedded request', async () => {
  const api = h.api(SignatureRequestApi);
  const sr = (await api.signatureRequestCreateEmbedded({ clientId: h.world.client_id, title: 'E1', signers: [signer('A', 'a@example.com')], files: [pdfUpload()], testMode: true })).body.signatureRequest;
  await processed();
  const edited = await api.signatureRequestEditEmbedded(sr.signatureRequestId, { clientId: h.world.client_id, title: 'E1 edited', signers: [signer('B', 'b@example.com')], files: [pdfUpload()], testMode: true });
  assert.equal(edited.response.status, 200);
  assert.equal(edited.body.signatureRequest.title, 'E1 edited');
  assert.deepEqual(edited.body.signatureRequest.signatures.map((s) => s.signerEmailAddress), ['b@example.com']);

});

h.test('the sign URL page signs as the signer (a form POST, as a browser would); events go to the app callback', async () => {
  await h.api(ApiAppApi).apiAppUpdate(h.world.client_id, { callbackUrl: `${receiver.url}/app` });
  const sr = (await h.api(SignatureRequestApi).signatureRequestCreateEmbedded({
    clientId: h.world.client_id, title: 'Sign on the page', signers: [signer('Paula', 'paula@example.com')], files: [pdfUpload()], testMode: true,
  })).body.signatureRequest;
  await processed();
  const sigId = sr.signatures[0].signatureId;
  const { signUrl } = (await h.api(EmbeddedApi).embeddedSignUrl(sigId)).body.embedded;
  const page = await fetch(signUrl);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /Sign as Paula/);
  const signed = await fetch(signUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=sign' });
  assert.equal(signed.status, 200);
  const cur = (await h.api(SignatureRequestApi).signatureRequestGet(sr.signatureRequestId)).body.signatureRequest;
  assert.equal(cur.isComplete, true);
  assert.equal(cur.signatures[0].statusCode, 'signed');

  await h.control.advance(60);
  await h.settleCallbacks();
  const mine = receiver.events().filter((d) => d.path === '/app' && d.event.signatureRequest && d.event.signatureRequest.signatureRequestId === sr.signatureRequestId);
  const types = mine.map((d) => d.event.event.eventType);
  for (const want of ['signature_request_sent', 'signature_request_viewed', 'signature_request_signed', 'signature_request_all_signed']) {
    assert.ok(types.includes(want), `${want} in ${types.join(', ')}`);
  }
  for (const d of mine) {
    assert.deepEqual(d.shapeProblems, [], d.event.event.eventType);
    assert.equal(EventCallbackHelper.isValid(h.world.api_key, d.event), true);
    assert.equal(EventCallbackHelper.getCallbackType(d.event), EventCallbackHelper.EVENT_TYPE_APP_CALLBACK);
    assert.equal(d.event.event.eventMetadata.reportedForAppId, h.world.client_id);
  }
  record.note('apiAppCreateEventCallback');
  await h.api(ApiAppApi).apiAppUpdate(h.world.client_id, { callbackUrl: '' });
});

h.test('an expired sign URL stops working and reports sign_url_invalid', async () => {
  const sr = (await h.api(SignatureRequestApi).signatureRequestCreateEmbedded({
    clientId: h.world.client_id, title: 'Expiring link', signers: [signer('Xavi', 'xavi@example.com')], files: [pdfUpload()], testMode: true,
  })).body.signatureRequest;
  await processed();
  const { signUrl, expiresAt } = (await h.api(EmbeddedApi).embeddedSignUrl(sr.signatures[0].signatureId)).body.embedded;
  const { now } = await h.control.clock();
  await h.control.advance(expiresAt - now + 1);
  const page = await fetch(signUrl);
  assert.ok(page.status >= 400 && page.status < 500, `expired link answers 4xx, got ${page.status}`);
  const { callbacks } = await h.control.get(`/callbacks?object_id=${sr.signatureRequestId}&event_type=sign_url_invalid`);
  assert.equal(callbacks.length, 1);
  // A fresh URL works again.
  const again = (await h.api(EmbeddedApi).embeddedSignUrl(sr.signatures[0].signatureId)).body.embedded;
  assert.equal((await fetch(again.signUrl)).status, 200);
});

h.test('every callback this file received matches the SDK model and validates with EventCallbackHelper', () => {
  assert.ok(receiver.deliveries.length > 0, 'callbacks were received');
  assert.deepEqual(receiver.problems(() => h.world.api_key), []);
});
