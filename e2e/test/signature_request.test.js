'use strict';
// SignatureRequestApi through the official SDK: send as JSON (file_urls) and
// as multipart (files), get, list, remind, update, signer actions through the
// control plane, completion, downloads in all three forms, cancel, remove,
// and the account callbacks of the lifecycle.

const { after } = require('node:test');
const { setup, expectHttpError, signer, sdk, assert, FIXTURE } = require('../lib/harness');
const { startReceiver } = require('../lib/receiver');
const { pdfUpload } = require('../lib/pdf');

// Offline: file_urls become placeholder documents instead of being fetched.
const h = setup({ config: { fetch_file_urls: false } });
const { SignatureRequestApi, AccountApi, EventCallbackHelper } = sdk;

let receiver;
h.before(async () => {
  receiver = await startReceiver();
  // Every event of this file's world reaches the receiver; the last test
  // checks them all with the SDK's model and EventCallbackHelper.
  await h.api(AccountApi).accountUpdate({ callbackUrl: `${receiver.url}/sr` });
});
after(async () => {
  if (receiver) await receiver.close();
});

const ID40 = /^[0-9a-f]{40}$/;

/** Sends a request with file_urls (JSON body) and answers the typed request. */
async function sendJSON(extra = {}) {
  const req = new sdk.SignatureRequestSendRequest();
  req.title = 'NDA with Jack';
  req.subject = 'The NDA we talked about';
  req.message = 'Please sign this NDA and then we can discuss more.';
  req.signers = [signer('Jack', 'jack@example.com', 0), signer('Jill', 'jill@example.com', 1)];
  req.ccEmailAddresses = ['lawyer@example.com'];
  req.fileUrls = ['https://example.com/nda.pdf'];
  req.metadata = { custom_id: 1234, custom_text: 'NDA #9' };
  req.testMode = true;
  Object.assign(req, extra);
  const { response, body } = await h.api(SignatureRequestApi).signatureRequestSend(req);
  assert.equal(response.status, 200);
  assert.match(String(response.config.headers['content-type'] || response.config.headers['Content-Type']), /application\/json/);
  assert.ok(body instanceof sdk.SignatureRequestGetResponse);
  return body.signatureRequest;
}

/** Runs the world's clock until the request is processed (sent). */
function process() { return h.control.advancePast('send_processing_delay'); }

/** Runs the clock past the file preparation delay. */
function prepareFiles() { return h.control.advancePast('file_preparation_delay'); }

function checkRequestShape(sr) {
  assert.ok(sr instanceof sdk.SignatureRequestResponse);
  assert.match(sr.signatureRequestId, ID40);
  assert.equal(typeof sr.createdAt, 'number');
  assert.equal(typeof sr.isComplete, 'boolean');
  assert.equal(typeof sr.isDeclined, 'boolean');
  assert.equal(typeof sr.hasError, 'boolean');
  assert.equal(typeof sr.testMode, 'boolean');
  assert.equal(typeof sr.filesUrl, 'string');
  assert.equal(typeof sr.detailsUrl, 'string');
  assert.ok(Array.isArray(sr.signatures));
  for (const s of sr.signatures) {
    assert.ok(s instanceof sdk.SignatureRequestResponseSignatures);
    assert.match(s.signatureId, /^[0-9a-f]{32,40}$/);
    assert.equal(typeof s.statusCode, 'string');
  }
}

h.test('signatureRequestSend (JSON, file_urls) answers a typed SignatureRequestResponse', async () => {
  const sr = await sendJSON();
  checkRequestShape(sr);
  assert.equal(sr.title, 'NDA with Jack');
  // As in the official send example, original_title carries the subject.
  assert.equal(sr.originalTitle, 'The NDA we talked about');
  assert.equal(sr.subject, 'The NDA we talked about');
  assert.equal(sr.message, 'Please sign this NDA and then we can discuss more.');
  assert.equal(sr.testMode, true);
  assert.equal(sr.isComplete, false);
  assert.equal(sr.isDeclined, false);
  assert.equal(sr.hasError, false);
  assert.equal(sr.requesterEmailAddress, h.world.email_address);
  assert.deepEqual(sr.ccEmailAddresses, ['lawyer@example.com']);
  // As in the official send example, metadata values come back as strings.
  assert.deepEqual(sr.metadata, { custom_id: '1234', custom_text: 'NDA #9' });
  assert.equal(sr.signatures.length, 2);
  const [jack, jill] = sr.signatures;
  assert.equal(jack.signerName, 'Jack');
  assert.equal(jack.signerEmailAddress, 'jack@example.com');
  assert.equal(jack.order, 0);
  assert.equal(jill.order, 1);
  assert.equal(jack.statusCode, 'awaiting_signature');
  assert.equal(jack.signedAt, null);
  assert.equal(jack.hasPin, false);
  const { now } = await h.control.clock();
  assert.equal(sr.createdAt, now);
});

h.test('signatureRequestSend (multipart) uploads Buffer files and form_fields_per_document', async () => {
  const req = new sdk.SignatureRequestSendRequest();
  req.title = 'Multipart';
  req.signers = [signer('Ann', 'ann@example.com')];
  req.files = [pdfUpload('first.pdf', { pages: 2 }), pdfUpload('second.pdf')];
  const text = new sdk.SubFormFieldsPerDocumentText();
  Object.assign(text, { documentIndex: 0, apiId: 'company', name: 'Company', required: true, signer: '0', x: 100, y: 100, width: 120, height: 16, page: 1 });
  const sig = new sdk.SubFormFieldsPerDocumentSignature();
  Object.assign(sig, { documentIndex: 0, apiId: 'sig1', required: true, signer: '0', x: 100, y: 200, width: 120, height: 30, page: 1 });
  const check = new sdk.SubFormFieldsPerDocumentCheckbox();
  Object.assign(check, { documentIndex: 1, apiId: 'agree', required: false, signer: '0', x: 50, y: 50, width: 14, height: 14, page: 1, isChecked: false });
  req.formFieldsPerDocument = [text, sig, check];
  req.testMode = true;
  const { response, body } = await h.api(SignatureRequestApi).signatureRequestSend(req);
  assert.equal(response.status, 200);
  assert.match(String(response.config.headers['content-type'] || response.config.headers['Content-Type']), /^multipart\/form-data; boundary=/);
  const sr = body.signatureRequest;
  checkRequestShape(sr);
  assert.equal(sr.title, 'Multipart');
  assert.equal(sr.signatures.length, 1);
  // response_data holds the fields (typed by their discriminator) once
  // the signer has filled them in; sign as Ann and look.
  await process();
  await h.control.post(`/signatures/${sr.signatures[0].signatureId}/sign`, { values: { company: 'ACME Ltd', agree: true } });
  const after = (await h.api(SignatureRequestApi).signatureRequestGet(sr.signatureRequestId)).body.signatureRequest;
  assert.equal(after.isComplete, true);
  assert.equal(after.signatures[0].statusCode, 'signed');
  assert.equal(typeof after.signatures[0].signedAt, 'number');
  const byId = Object.fromEntries(after.responseData.map((d) => [d.apiId, d]));
  assert.ok(byId.company instanceof sdk.SignatureRequestResponseDataValueText, `company is ${byId.company && byId.company.constructor.name}`);
  assert.equal(byId.company.value, 'ACME Ltd');
  assert.equal(byId.company.type, 'text');
  assert.equal(byId.company.signatureId, sr.signatures[0].signatureId);
  assert.ok(byId.agree instanceof sdk.SignatureRequestResponseDataValueCheckbox);
  assert.equal(byId.agree.value, true);
  assert.ok(byId.sig1 instanceof sdk.SignatureRequestResponseDataValueSignature);
  // fs.ReadStream uploads: see documents.test.js (they need the reference PDF).
});

h.test('signatureRequestSend validation errors name the field in errorPath', async () => {
  const api = h.api(SignatureRequestApi);
  await expectHttpError(api.signatureRequestSend({ fileUrls: ['https://example.com/a.pdf'], testMode: true }), { status: 400, errorName: 'bad_request', errorPath: 'signers' });
  await expectHttpError(api.signatureRequestSend({ signers: [signer('X', 'not-an-email')], fileUrls: ['https://example.com/a.pdf'], testMode: true }), { status: 400, errorPath: 'signers[0][email_address]' });
  await expectHttpError(api.signatureRequestSend({ signers: [signer('X', 'x@example.com')], testMode: true }), { status: 400, errorName: 'bad_request' });
  await expectHttpError(api.signatureRequestSend({
    signers: [signer('X', 'x@example.com')], testMode: true,
    files: [pdfUpload('a.pdf')], fileUrls: ['https://example.com/a.pdf'],
  }), { status: 400, errorName: 'bad_request' });
});

h.test('signatureRequestGet answers the request; an unknown id is a 404', async () => {
  const sr = await sendJSON({ title: 'Get me' });
  const { response, body } = await h.api(SignatureRequestApi).signatureRequestGet(sr.signatureRequestId);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.SignatureRequestGetResponse);
  checkRequestShape(body.signatureRequest);
  assert.equal(body.signatureRequest.signatureRequestId, sr.signatureRequestId);
  assert.equal(body.signatureRequest.title, 'Get me');
  assert.deepEqual(body.signatureRequest.signatures.map((s) => s.signatureId), sr.signatures.map((s) => s.signatureId));
  await expectHttpError(h.api(SignatureRequestApi).signatureRequestGet('0'.repeat(40)), { status: 404, errorName: 'not_found' });
});

h.test('signatureRequestList pages with list_info and filters with query', async () => {
  const w = await h.newWorld();
  await h.controlFor(w.api_key).config({ fetch_file_urls: false });
  const api = h.api(SignatureRequestApi, { apiKey: w.api_key });
  for (let i = 0; i < 3; i++) {
    await api.signatureRequestSend({ title: `Listed ${i}`, signers: [signer('L', `l${i}@example.com`)], fileUrls: ['https://example.com/x.pdf'], testMode: true });
  }
  const { response, body } = await api.signatureRequestList(undefined, 1, 2);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.SignatureRequestListResponse);
  assert.ok(body.listInfo instanceof sdk.ListInfoResponse);
  assert.deepEqual({ ...body.listInfo }, { numPages: 2, numResults: 3, page: 1, pageSize: 2 });
  assert.equal(body.signatureRequests.length, 2);
  body.signatureRequests.forEach(checkRequestShape);
  const page2 = (await api.signatureRequestList(undefined, 2, 2)).body;
  assert.equal(page2.signatureRequests.length, 1);
  const titles = [...body.signatureRequests, ...page2.signatureRequests].map((s) => s.title).sort();
  assert.deepEqual(titles, ['Listed 0', 'Listed 1', 'Listed 2']);
  const q = (await api.signatureRequestList(undefined, 1, 20, 'title:"Listed 1"')).body;
  assert.deepEqual(q.signatureRequests.map((s) => s.title), ['Listed 1']);
  await expectHttpError(api.signatureRequestList(undefined, 1, 101), { status: 400, errorPath: 'page_size' });
});

h.test('signer actions through the control plane complete a request; events reach the account callback', async () => {
  const sr = await sendJSON({ title: 'Lifecycle' });
  await process();
  const [jack, jill] = sr.signatures;
  // Jill is second in order: she cannot sign before Jack.
  await assert.rejects(h.control.post(`/signatures/${jill.signatureId}/sign`, {}), (e) => e.status >= 400 && e.status < 500);
  await h.control.post(`/signatures/${jack.signatureId}/view`);
  await h.control.post(`/signatures/${jack.signatureId}/sign`);
  let cur = (await h.api(SignatureRequestApi).signatureRequestGet(sr.signatureRequestId)).body.signatureRequest;
  assert.equal(cur.signatures[0].statusCode, 'signed');
  assert.equal(typeof cur.signatures[0].lastViewedAt, 'number');
  assert.equal(cur.signatures[1].statusCode, 'awaiting_signature');
  assert.equal(cur.isComplete, false);
  await h.control.post(`/signatures/${jill.signatureId}/sign`);
  cur = (await h.api(SignatureRequestApi).signatureRequestGet(sr.signatureRequestId)).body.signatureRequest;
  assert.equal(cur.isComplete, true);
  await prepareFiles();
  await h.settleCallbacks();

  const mine = receiver.events().filter((d) => d.event.signatureRequest && d.event.signatureRequest.signatureRequestId === sr.signatureRequestId);
  const types = mine.map((d) => d.event.event.eventType);
  for (const want of ['signature_request_sent', 'signature_request_viewed', 'signature_request_signed', 'signature_request_all_signed', 'signature_request_downloadable']) {
    assert.ok(types.includes(want), `${want} in ${types.join(', ')}`);
  }
  assert.ok(types.indexOf('signature_request_sent') < types.indexOf('signature_request_viewed'));
  assert.ok(types.indexOf('signature_request_all_signed') < types.indexOf('signature_request_downloadable'));
  for (const d of mine) {
    assert.deepEqual(d.shapeProblems, [], d.event.event.eventType);
    assert.equal(EventCallbackHelper.isValid(h.world.api_key, d.event), true);
    assert.equal(EventCallbackHelper.getCallbackType(d.event), EventCallbackHelper.EVENT_TYPE_ACCOUNT_CALLBACK);
    assert.ok(d.event.signatureRequest instanceof sdk.SignatureRequestResponse);
    assert.equal(d.event.event.eventMetadata.reportedForAccountId, h.world.account_id);
  }
  const viewed = mine.find((d) => d.event.event.eventType === 'signature_request_viewed');
  assert.equal(viewed.event.event.eventMetadata.relatedSignatureId, jack.signatureId);
  require('../lib/record').note('accountUpdateEventCallback');
});

h.test('signatureRequestRemind reminds a signer once an hour', async () => {
  const sr = await sendJSON({ title: 'Remind' });
  await process();
  const api = h.api(SignatureRequestApi);
  await h.control.advance(3601);
  const req = new sdk.SignatureRequestRemindRequest();
  req.emailAddress = 'jack@example.com';
  const { response, body } = await api.signatureRequestRemind(sr.signatureRequestId, req);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.SignatureRequestGetResponse);
  const jack = body.signatureRequest.signatures.find((s) => s.signerEmailAddress === 'jack@example.com');
  const { now } = await h.control.clock();
  assert.equal(jack.lastRemindedAt, now);
  const err = await expectHttpError(api.signatureRequestRemind(sr.signatureRequestId, { emailAddress: 'jack@example.com' }), {});
  assert.equal(err.statusCode, 400);
  await expectHttpError(api.signatureRequestRemind(sr.signatureRequestId, { emailAddress: 'stranger@example.com' }), { status: 400 });
  await h.control.advance(3601);
  await api.signatureRequestRemind(sr.signatureRequestId, { emailAddress: 'jack@example.com' });
});

/** A signature field per signer on page 1: no appended signature page. */
function fieldsFor(...signerIndexes) {
  return signerIndexes.map((i) => {
    const f = new sdk.SubFormFieldsPerDocumentSignature();
    Object.assign(f, { documentIndex: 0, apiId: `sig_${i}`, required: true, signer: String(i), x: 100, y: 100 + 50 * i, width: 120, height: 30, page: 1 });
    return f;
  });
}

h.test('signatureRequestUpdate is refused for a request with an appended signature page', async () => {
  const sr = await sendJSON({ title: 'Appended page' });
  await process();
  await expectHttpError(h.api(SignatureRequestApi).signatureRequestUpdate(sr.signatureRequestId, { signatureId: sr.signatures[0].signatureId, name: 'X' }), { status: 400, errorName: 'bad_request' });
});

h.test('signatureRequestUpdate changes a signer e-mail (new signature_id) and name', async () => {
  const sr = await sendJSON({ title: 'Update', formFieldsPerDocument: fieldsFor(0, 1) });
  await process();
  const api = h.api(SignatureRequestApi);
  const old = sr.signatures[0];
  const req = new sdk.SignatureRequestUpdateRequest();
  req.signatureId = old.signatureId;
  req.emailAddress = 'jack.new@example.com';
  const { response, body } = await api.signatureRequestUpdate(sr.signatureRequestId, req);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.SignatureRequestGetResponse);
  const now = body.signatureRequest.signatures.find((s) => s.signerEmailAddress === 'jack.new@example.com');
  assert.ok(now, 'the signer has the new address');
  assert.notEqual(now.signatureId, old.signatureId, 'a new e-mail gives a new signature_id');
  const renamed = await api.signatureRequestUpdate(sr.signatureRequestId, { signatureId: now.signatureId, name: 'Jackie' });
  assert.equal(renamed.body.signatureRequest.signatures.find((s) => s.signatureId === now.signatureId).signerName, 'Jackie');
  await expectHttpError(api.signatureRequestUpdate(sr.signatureRequestId, { signatureId: old.signatureId, name: 'Gone' }), { status: 400, errorPath: 'signature_id' });
  await expectHttpError(api.signatureRequestUpdate(sr.signatureRequestId, { signatureId: now.signatureId, emailAddress: 'bad' }), { status: 400, errorPath: 'email_address' });
});

h.test('signatureRequestCancel answers 200 at once; afterwards the request is gone (410)', async () => {
  const sr = await sendJSON({ title: 'Cancel me' });
  await process();
  const api = h.api(SignatureRequestApi);
  const { response } = await api.signatureRequestCancel(sr.signatureRequestId);
  assert.equal(response.status, 200);
  await h.control.advancePast('cancel_delay');
  await expectHttpError(api.signatureRequestGet(sr.signatureRequestId), { status: 410, errorName: 'deleted' });
  const err = await expectHttpError(api.signatureRequestCancel(sr.signatureRequestId), {});
  assert.ok([400, 404, 409, 410].includes(err.statusCode));
});

h.test('signatureRequestRemove: refused while incomplete, then removes access to a completed request', async () => {
  const sr = await sendJSON({ title: 'Remove me', signers: [signer('Solo', 'solo@example.com')] });
  await process();
  const api = h.api(SignatureRequestApi);
  const err = await expectHttpError(api.signatureRequestRemove(sr.signatureRequestId), {});
  assert.ok(err.statusCode >= 400 && err.statusCode < 500);
  await h.control.post(`/signatures/${sr.signatures[0].signatureId}/sign`);
  const { response } = await api.signatureRequestRemove(sr.signatureRequestId);
  assert.equal(response.status, 200);
  const gone = await expectHttpError(api.signatureRequestGet(sr.signatureRequestId), {});
  assert.ok([404, 410].includes(gone.statusCode), `status ${gone.statusCode}`);
});

h.test('declined and reassigned signers show in the SDK model', async () => {
  const sr = await sendJSON({ title: 'Decline', allowDecline: true, allowReassign: true, signers: [signer('D', 'd@example.com'), signer('R', 'r@example.com')] });
  await process();
  await h.control.post(`/signatures/${sr.signatures[1].signatureId}/reassign`, { name: 'Rita', email_address: 'rita@example.com', reason: 'on leave' });
  await h.control.post(`/signatures/${sr.signatures[0].signatureId}/decline`, { reason: 'Not today' });
  const cur = (await h.api(SignatureRequestApi).signatureRequestGet(sr.signatureRequestId)).body.signatureRequest;
  assert.equal(cur.isDeclined, true);
  const d = cur.signatures.find((s) => s.signerEmailAddress === 'd@example.com');
  assert.equal(d.statusCode, 'declined');
  assert.equal(d.declineReason, 'Not today');
  const rita = cur.signatures.find((s) => s.signerEmailAddress === 'rita@example.com');
  assert.ok(rita, 'the reassigned signer is listed');
  assert.equal(rita.signerName, 'Rita');
  assert.equal(typeof rita.reassignedBy, 'string');
});

h.test('signatureRequestEdit replaces an unsigned request (PUT, same body as send)', async () => {
  const sr = await sendJSON({ title: 'Edit me' });
  await process();
  const req = new sdk.SignatureRequestEditRequest();
  Object.assign(req, { title: 'Edited', signers: [signer('Ed', 'ed@example.com')], fileUrls: ['https://example.com/v2.pdf'], testMode: true });
  const { response, body } = await h.api(SignatureRequestApi).signatureRequestEdit(sr.signatureRequestId, req);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.SignatureRequestGetResponse);
  checkRequestShape(body.signatureRequest);
  assert.equal(body.signatureRequest.title, 'Edited');
  assert.deepEqual(body.signatureRequest.signatures.map((s) => s.signerEmailAddress), ['ed@example.com']);
});

h.test('another account cannot see the request (403 or 404), another world neither', async () => {
  const sr = await sendJSON({ title: 'Private' });
  const outsider = h.api(SignatureRequestApi, { apiKey: await h.keyOf(FIXTURE.outsider.id) });
  const e = await expectHttpError(outsider.signatureRequestGet(sr.signatureRequestId), {});
  assert.ok([403, 404].includes(e.statusCode), `status ${e.statusCode}`);
  const other = await h.newWorld();
  await expectHttpError(h.api(SignatureRequestApi, { apiKey: other.api_key }).signatureRequestGet(sr.signatureRequestId), { status: 404 });
});


h.test("signatureRequestList with account_id 'all' includes a teammate's requests; a teammate's id lists theirs", async () => {
  const w = await h.newWorld();
  await h.controlFor(w.api_key).config({ fetch_file_urls: false });
  const ctl = h.controlFor(w.api_key);
  const { api_keys: keys } = await ctl.get(`/api_keys?account_id=${FIXTURE.teammate.id}`);
  const mate = h.api(SignatureRequestApi, { apiKey: keys[0].key });
  await mate.signatureRequestSend({ title: 'By the teammate', signers: [signer('T', 't@example.com')], fileUrls: ['https://example.com/t.pdf'], testMode: true });
  const admin = h.api(SignatureRequestApi, { apiKey: w.api_key });
  await admin.signatureRequestSend({ title: 'By the admin', signers: [signer('A', 'a@example.com')], fileUrls: ['https://example.com/a.pdf'], testMode: true });
  const own = (await admin.signatureRequestList()).body.signatureRequests.map((s) => s.title);
  assert.deepEqual(own, ['By the admin']);
  const all = (await admin.signatureRequestList('all')).body.signatureRequests.map((s) => s.title).sort();
  assert.deepEqual(all, ['By the admin', 'By the teammate']);
  const theirs = (await admin.signatureRequestList(FIXTURE.teammate.id)).body.signatureRequests.map((s) => s.title);
  assert.deepEqual(theirs, ['By the teammate']);
});

h.test('expires_at on the world clock: the request expires; a bounced e-mail is reported', async () => {
  const { now } = await h.control.clock();
  const sr = await sendJSON({ title: 'Expiring', expiresAt: now + 3 * 86400, signers: [signer('X', 'x@example.com'), signer('Y', 'y@example.com')] });
  // The sandbox keeps whole hours of an expiry (rounded down), as it documents for the service.
  assert.equal(sr.expiresAt, Math.floor((now + 3 * 86400) / 3600) * 3600);
  await process();
  await h.control.post(`/signatures/${sr.signatures[1].signatureId}/bounce`);
  await h.control.advance(3 * 86400 + 1);
  const cur = (await h.api(SignatureRequestApi).signatureRequestGet(sr.signatureRequestId)).body.signatureRequest;
  assert.ok(cur.signatures.every((s) => s.statusCode === 'expired'), cur.signatures.map((s) => s.statusCode).join(','));
  await h.settleCallbacks();
  const types = receiver.events().filter((d) => d.event.signatureRequest && d.event.signatureRequest.signatureRequestId === sr.signatureRequestId).map((d) => d.event.event.eventType);
  assert.ok(types.includes('signature_request_email_bounce'), types.join(', '));
  assert.ok(types.includes('signature_request_expired'), types.join(', '));
  await expectHttpError(h.api(SignatureRequestApi).signatureRequestSend({ title: 'Past', expiresAt: now - 10, signers: [signer('P', 'p@example.com')], fileUrls: ['https://example.com/p.pdf'], testMode: true }), { status: 400, errorPath: 'expires_at' });
});

h.test('every callback this file received matches the SDK model and validates with EventCallbackHelper', async () => {
  await h.settleCallbacks();
  assert.deepEqual(receiver.problems(() => h.world.api_key), []);
  const seen = new Set(receiver.events().map((d) => d.event.event.eventType));
  for (const t of ['callback_test', 'signature_request_sent', 'signature_request_viewed', 'signature_request_signed', 'signature_request_all_signed',
    'signature_request_downloadable', 'signature_request_declined', 'signature_request_reassigned', 'signature_request_remind', 'signature_request_canceled',
    'signature_request_email_bounce', 'signature_request_expired']) {
    assert.ok(seen.has(t), `${t} among ${[...seen].join(', ')}`);
  }
  const declined = receiver.events('signature_request_declined')[0].event;
  assert.equal(declined.event.eventMetadata.eventMessage, 'Not today', 'the decline reason is the event_message');
  for (const d of receiver.events()) assert.equal(EventCallbackHelper.getCallbackType(d.event), EventCallbackHelper.EVENT_TYPE_ACCOUNT_CALLBACK);
});
