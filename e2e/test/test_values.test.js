'use strict';
// Reserved test values through the official SDK, as a developer clicking
// through their own application meets them: a world on a real clock, the
// SDK sends to each reserved address (and uploads a file whose name asks
// for a processing failure), and the documented callbacks arrive at the
// account's callback URL by themselves. No control call: no clock advance,
// no signer action, no configuration (docs/test-values.md).

const { after } = require('node:test');
const { setup, signer, sdk, assert } = require('../lib/harness');
const { startReceiver } = require('../lib/receiver');
const { pdfUpload } = require('../lib/pdf');

const h = setup({ world: { clock: 'real' } });
const { SignatureRequestApi, AccountApi } = sdk;

let receiver;
h.before(async () => {
  receiver = await startReceiver();
  await h.api(AccountApi).accountUpdate({ callbackUrl: `${receiver.url}/test-values` });
});
after(async () => {
  if (receiver) await receiver.close();
});

// The documented events of each reserved address, in order, from the send
// on (docs/test-values.md): processing takes 2 s, a reserved signer acts 3 s
// after their signing e-mail, the final copy is ready 5 s after completion.
const SENT = 'signature_request_sent';
const EXPECTED = {
  sign: [SENT, 'signature_request_viewed', 'signature_request_signed', 'signature_request_all_signed', 'signature_request_downloadable'],
  view: [SENT, 'signature_request_viewed'],
  decline: [SENT, 'signature_request_viewed', 'signature_request_declined'],
  reassign: [SENT, 'signature_request_viewed', 'signature_request_reassigned',
    'signature_request_viewed', 'signature_request_signed', 'signature_request_all_signed', 'signature_request_downloadable'],
  bounce: [SENT, 'signature_request_email_bounce'],
  expire: [SENT, 'signature_request_expired'],
  invalid: ['signature_request_invalid'],
};

// The final signature status of each, as signatureRequestGet shows it.
const FINAL_STATUS = {
  sign: 'signed',
  view: 'awaiting_signature',
  decline: 'declined',
  reassign: 'signed',
  bounce: 'awaiting_signature',
  expire: 'expired',
  invalid: 'error_invalid_email',
};

/** Sends one request with an uploaded PDF through the SDK (multipart). */
async function send(title, signers, filename = 'contract.pdf') {
  const req = new sdk.SignatureRequestSendRequest();
  req.title = title;
  req.subject = title;
  req.message = 'Sent by the test values e2e test.';
  req.signers = signers;
  req.files = [pdfUpload(filename)];
  req.allowDecline = true;
  req.allowReassign = true;
  req.testMode = true;
  const { body } = await h.api(SignatureRequestApi).signatureRequestSend(req);
  return body.signatureRequest;
}

/** The callback event types of one request, in the order received. */
function eventsOf(id) {
  return receiver.deliveries
    .filter((d) => d.event && d.event.signatureRequest && d.event.signatureRequest.signatureRequestId === id)
    .map((d) => d.event.event.eventType);
}

/** Waits (on the receiver, up to 60 s of wall time) until want(id) events arrived. */
function waitEvents(ids, wantCount) {
  return receiver.waitFor(() => Object.entries(ids).every(([k, id]) => eventsOf(id).length >= wantCount(k)), 60000);
}

h.test('each reserved signer address acts by itself on a real clock: the documented callbacks arrive', async () => {
  const ids = {};
  for (const action of Object.keys(EXPECTED)) {
    const sr = await send(`Test value ${action}`, [signer('Jack', `jack@${action}.signsandbox.test`)]);
    ids[action] = sr.signatureRequestId;
  }
  await waitEvents(ids, (action) => EXPECTED[action].length);
  for (const [action, id] of Object.entries(ids)) {
    assert.deepEqual(eventsOf(id), EXPECTED[action], `${action}: the documented callbacks, in order`);
  }
  assert.deepEqual(receiver.problems(() => h.world.api_key), [], 'every payload is an EventCallbackRequest whose hash EventCallbackHelper accepts');

  const api = h.api(SignatureRequestApi);
  for (const [action, id] of Object.entries(ids)) {
    const { body } = await api.signatureRequestGet(id);
    const sr = body.signatureRequest;
    assert.equal(sr.signatures[0].statusCode, FINAL_STATUS[action], `${action}: signature status`);
    if (action === 'decline') assert.equal(sr.signatures[0].declineReason, 'Declined by a signsandbox test value.');
    if (action === 'sign') {
      assert.equal(sr.isComplete, true);
      const box = sr.responseData.find((r) => r.apiId === 'signature_page_1');
      assert.ok(box, 'the signer signed in their box of the appended signature page');
      assert.equal(box.value, 'Jack');
    }
    if (action === 'reassign') assert.equal(sr.signatures[0].signerEmailAddress, 'jack@sign.signsandbox.test');
    if (action === 'invalid') assert.equal(sr.hasError, true);
  }
});

h.test('an ordered reserved signer acts only when their turn comes', async () => {
  const sr = await send('Ordered test values', [
    signer('Jack', 'jack@sign.signsandbox.test', 0),
    signer('Jill', 'jill@decline.signsandbox.test', 1),
  ]);
  const id = sr.signatureRequestId;
  const want = [SENT, 'signature_request_viewed', 'signature_request_signed', 'signature_request_viewed', 'signature_request_declined'];
  await receiver.waitFor(() => eventsOf(id).length >= want.length, 60000);
  assert.deepEqual(eventsOf(id), want);
  const related = receiver.deliveries
    .filter((d) => d.event && d.event.signatureRequest && d.event.signatureRequest.signatureRequestId === id)
    .map((d) => d.event.event.eventMetadata.relatedSignatureId);
  const [jack, jill] = sr.signatures.map((s) => s.signatureId);
  assert.deepEqual(related.slice(1), [jack, jack, jill, jill], 'Jack acts first, then Jill');
});

h.test('files named to fail make processing fail with the documented status and callback', async () => {
  const cases = {
    'error_file.signsandbox-test.pdf': ['error_file', 'file_error'],
    'contract.error_text_tag.signsandbox-test.pdf': ['error_text_tag', 'signature_request_invalid'],
    'error_component_position.signsandbox-test.pdf': ['error_component_position', 'signature_request_invalid'],
    'error_unknown.signsandbox-test.pdf': ['error_unknown', 'unknown_error'],
  };
  const ids = {};
  for (const name of Object.keys(cases)) {
    const sr = await send(`File ${name}`, [signer('Jack', 'jack@example.com')], name);
    ids[name] = sr.signatureRequestId;
  }
  await waitEvents(ids, () => 1);
  for (const [name, [status, event]] of Object.entries(cases)) {
    assert.deepEqual(eventsOf(ids[name]), [event], name);
    const { body } = await h.api(SignatureRequestApi).signatureRequestGet(ids[name]);
    assert.equal(body.signatureRequest.hasError, true, name);
    assert.equal(body.signatureRequest.signatures[0].statusCode, status, name);
  }
});
