'use strict';
// The harness's own checks: a broken response field must fail a test. These
// run without a sandbox, on hand-made bodies.

const test = require('node:test');
const assert = require('node:assert/strict');
const { checkShape } = require('../lib/shape');
const { makePDF, countPages, isPDF } = require('../lib/pdf');

const account = {
  account_id: 'a'.repeat(40), email_address: 'x@example.com', is_locked: false, is_paid_hs: true, is_paid_hf: false,
  quotas: { api_signature_requests_left: 1, documents_left: null, templates_total: 1, templates_left: 1, sms_verifications_left: 0, num_fax_pages_left: 0 },
  callback_url: null, role_code: 'a', team_id: 'b'.repeat(40), locale: 'en-US', usage: { fax_pages_sent: 0 },
  settings: { signer_access_codes: true, sms_delivery: true, sms_authentication: true },
};

test('a body matching the SDK model has no problems', () => {
  assert.deepEqual(checkShape({ account }, 'AccountGetResponse'), []);
});

test('a renamed field is reported (the SDK would drop it)', () => {
  const { email_address: e, ...rest } = account;
  const p = checkShape({ account: { ...rest, email: e } }, 'AccountGetResponse');
  assert.deepEqual(p, ['AccountGetResponse.account.email: property not in the SDK model AccountResponse (the SDK drops it)']);
});

test('a value of the wrong JSON type is reported', () => {
  assert.deepEqual(checkShape({ account: { ...account, is_locked: 'false' } }, 'AccountGetResponse'),
    ['AccountGetResponse.account.is_locked: expected boolean, got string "false"']);
  assert.deepEqual(checkShape({ account: { ...account, quotas: { ...account.quotas, templates_left: '1' } } }, 'AccountGetResponse'),
    ['AccountGetResponse.account.quotas.templates_left: expected number, got string "1"']);
});

test('an enum value the SDK does not know is reported', () => {
  const cb = { event: { event_time: '1', event_type: 'signature_request_exploded', event_hash: 'h' } };
  assert.deepEqual(checkShape(cb, 'EventCallbackRequest'), ['EventCallbackRequest.event.event_type: "signature_request_exploded" is not one of the SDK\'s EventCallbackRequestEvent.EventTypeEnum values']);
});

test('discriminated subclasses are checked by their own model', () => {
  const data = [{ api_id: 'a', signature_id: 's', name: 'n', required: true, type: 'checkbox', value: 'yes' }];
  assert.deepEqual(checkShape(data, 'Array<SignatureRequestResponseDataBase>'), ['Array<SignatureRequestResponseDataBase>[0].value: expected boolean, got string "yes"']);
});

test('properties newer than the pinned SDK are not reported', () => {
  assert.deepEqual(checkShape({ signature_request_id: 'x', signer_experience: { form_view: 'disabled' } }, 'SignatureRequestResponse'), []);
});

test('generated PDFs are valid and have the asked page count', () => {
  const pdf = makePDF({ pages: 3 });
  assert.ok(isPDF(pdf));
  assert.equal(countPages(pdf), 3);
});
