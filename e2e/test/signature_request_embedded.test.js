'use strict';
// Embedded requests through the official SDK: create_embedded, the embedded
// sign URL (EmbeddedApi.embeddedSignUrl), edit_embedded; reminders refused.

const { setup, expectHttpError, sdk, assert } = require('../lib/harness');
const { pdfUpload } = require('../lib/pdf');

const h = setup({ config: { fetch_file_urls: false } });
const { SignatureRequestApi, EmbeddedApi } = sdk;

function signer(name, email) {
  const s = new sdk.SubSignatureRequestSigner();
  Object.assign(s, { name, emailAddress: email });
  return s;
}

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
