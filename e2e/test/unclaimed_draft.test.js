'use strict';
// UnclaimedDraftApi through the official SDK, and release_hold: drafts made
// by the API, claimed and sent through the control plane (standing in for
// the user in the editor behind claim_url), held requests released.

const { setup, expectHttpError, sdk, assert } = require('../lib/harness');
const { pdfUpload } = require('../lib/pdf');

const h = setup({ config: { fetch_file_urls: false } });
const { UnclaimedDraftApi, SignatureRequestApi, TemplateApi } = sdk;
const ID40 = /^[0-9a-f]{40}$/;

function draftSigner(name, email, order) {
  const s = new sdk.SubUnclaimedDraftSigner();
  Object.assign(s, { name, emailAddress: email });
  if (order !== undefined) s.order = order;
  return s;
}

function checkDraft(body) {
  assert.ok(body instanceof sdk.UnclaimedDraftCreateResponse);
  const d = body.unclaimedDraft;
  assert.ok(d instanceof sdk.UnclaimedDraftResponse);
  assert.match(d.signatureRequestId, ID40);
  assert.match(d.claimUrl, /^https?:\/\//);
  assert.equal(typeof d.expiresAt, 'number');
  assert.equal(typeof d.testMode, 'boolean');
  return d;
}

async function advance(seconds = 60) {
  await h.control.advance(seconds);
}

h.test('unclaimedDraftCreate (request_signature, JSON) answers a claim URL; claiming sends the request', async () => {
  const req = new sdk.UnclaimedDraftCreateRequest();
  Object.assign(req, {
    type: sdk.UnclaimedDraftCreateRequest.TypeEnum.RequestSignature,
    fileUrls: ['https://example.com/draft.pdf'],
    signers: [draftSigner('Dana', 'dana@example.com', 0)],
    ccEmailAddresses: ['cc@example.com'],
    subject: 'Draft subject', message: 'Draft message', metadata: { k: 'v' }, testMode: true,
  });
  const { response, body } = await h.api(UnclaimedDraftApi).unclaimedDraftCreate(req);
  assert.equal(response.status, 200);
  const d = checkDraft(body);
  assert.equal(d.testMode, true);
  const { now } = await h.control.clock();
  assert.ok(d.expiresAt > now);
  const page = await fetch(d.claimUrl);
  assert.equal(page.status, 200, 'the claim URL is served by the sandbox');

  const sent = await h.control.post(`/unclaimed_drafts/${d.signatureRequestId}/claim`, {});
  assert.equal(sent.signature_request.signature_request_id, d.signatureRequestId);
  await advance();
  const sr = (await h.api(SignatureRequestApi).signatureRequestGet(d.signatureRequestId)).body.signatureRequest;
  assert.equal(sr.subject, 'Draft subject');
  assert.deepEqual(sr.signatures.map((s) => s.signerEmailAddress), ['dana@example.com']);
  assert.equal(sr.signatures[0].statusCode, 'awaiting_signature');
});

h.test('unclaimedDraftCreate (send_document, multipart) and its validation', async () => {
  const api = h.api(UnclaimedDraftApi);
  const { response, body } = await api.unclaimedDraftCreate({ type: 'send_document', files: [pdfUpload('me.pdf')], testMode: true });
  assert.equal(response.status, 200);
  assert.match(String(response.config.headers['content-type'] || response.config.headers['Content-Type']), /^multipart\/form-data/);
  checkDraft(body);
  await expectHttpError(api.unclaimedDraftCreate({ type: 'nonsense', fileUrls: ['https://example.com/x.pdf'], testMode: true }), { status: 400, errorName: 'bad_request', errorPath: 'type' });
  await expectHttpError(api.unclaimedDraftCreate({ type: 'request_signature', testMode: true }), { status: 400, errorName: 'bad_request' });
});

h.test('unclaimedDraftCreateEmbedded with hold_request: the claimed request waits until signatureRequestReleaseHold', async () => {
  const req = new sdk.UnclaimedDraftCreateEmbeddedRequest();
  Object.assign(req, {
    clientId: h.world.client_id, requesterEmailAddress: h.world.email_address,
    files: [pdfUpload('held.pdf')], signers: [draftSigner('Hal', 'hal@example.com')],
    holdRequest: true, testMode: true,
  });
  const { response, body } = await h.api(UnclaimedDraftApi).unclaimedDraftCreateEmbedded(req);
  assert.equal(response.status, 200);
  const d = checkDraft(body);
  await h.control.post(`/unclaimed_drafts/${d.signatureRequestId}/claim`, {});
  await advance();
  const held = (await h.api(SignatureRequestApi).signatureRequestGet(d.signatureRequestId)).body.signatureRequest;
  assert.equal(held.signatures[0].statusCode, 'on_hold_by_requester');

  const { response: r2, body: released } = await h.api(SignatureRequestApi).signatureRequestReleaseHold(d.signatureRequestId);
  assert.equal(r2.status, 200);
  assert.ok(released instanceof sdk.SignatureRequestGetResponse);
  assert.equal(released.signatureRequest.signatureRequestId, d.signatureRequestId);
  await advance();
  const cur = (await h.api(SignatureRequestApi).signatureRequestGet(d.signatureRequestId)).body.signatureRequest;
  assert.equal(cur.signatures[0].statusCode, 'awaiting_signature');
  const again = await expectHttpError(h.api(SignatureRequestApi).signatureRequestReleaseHold(d.signatureRequestId), {});
  assert.ok(again.statusCode >= 400 && again.statusCode < 500);
});

h.test('unclaimedDraftCreateEmbeddedWithTemplate binds signers by role', async () => {
  const t = (await h.api(TemplateApi).templateCreate({
    title: 'Draft template', signerRoles: [{ name: 'Buyer' }], files: [pdfUpload()],
    formFieldsPerDocument: [{ type: 'signature', documentIndex: 0, apiId: 'b', required: true, signer: '0', x: 10, y: 10, width: 100, height: 30, page: 1 }], testMode: true,
  })).body.template.templateId;
  await advance(120);
  const req = new sdk.UnclaimedDraftCreateEmbeddedWithTemplateRequest();
  const s = new sdk.SubUnclaimedDraftTemplateSigner();
  Object.assign(s, { role: 'Buyer', name: 'Bea', emailAddress: 'bea@example.com' });
  Object.assign(req, { clientId: h.world.client_id, requesterEmailAddress: h.world.email_address, templateIds: [t], signers: [s], title: 'From a template draft', testMode: true });
  const { response, body } = await h.api(UnclaimedDraftApi).unclaimedDraftCreateEmbeddedWithTemplate(req);
  assert.equal(response.status, 200);
  const d = checkDraft(body);
  const sent = await h.control.post(`/unclaimed_drafts/${d.signatureRequestId}/claim`, {});
  assert.equal(sent.signature_request.signatures[0].signer_role, 'Buyer');
  assert.equal(sent.signature_request.signatures[0].signer_email_address, 'bea@example.com');
});

h.test('unclaimedDraftEditAndResend answers a new claim URL for an embedded request', async () => {
  const d = checkDraft((await h.api(UnclaimedDraftApi).unclaimedDraftCreateEmbedded({
    clientId: h.world.client_id, requesterEmailAddress: h.world.email_address, files: [pdfUpload()], signers: [draftSigner('Eve', 'eve@example.com')], testMode: true,
  })).body);
  await h.control.post(`/unclaimed_drafts/${d.signatureRequestId}/claim`, {});
  await advance();
  const req = new sdk.UnclaimedDraftEditAndResendRequest();
  req.clientId = h.world.client_id;
  req.testMode = true;
  const { response, body } = await h.api(UnclaimedDraftApi).unclaimedDraftEditAndResend(d.signatureRequestId, req);
  assert.equal(response.status, 200);
  const again = checkDraft(body);
  assert.notEqual(again.claimUrl, d.claimUrl);
  await expectHttpError(h.api(UnclaimedDraftApi).unclaimedDraftEditAndResend('0'.repeat(40), { clientId: h.world.client_id }), { status: 404 });
});
