'use strict';
// Callbacks as an integrator receives them: a small HTTP receiver in the
// test, the SDK's EventCallbackRequest model and EventCallbackHelper (isValid
// with the API key, getCallbackType account vs app).

const { setup, sdk, assert } = require('../lib/harness');
const { startReceiver, ACK } = require('../lib/receiver');
const record = require('../lib/record');

const h = setup();
const { AccountApi, EventCallbackHelper } = sdk;

let receiver;
const { before, after } = require('node:test');
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  if (receiver) await receiver.close();
});

/**
 * Checks one delivery as the SDK's helper would, and records it as evidence
 * for the report's callback table. Answers the EventCallbackRequest.
 */
function checkDelivery(d, { apiKey, type }) {
  assert.equal(d.parseError, undefined, `delivery could not be parsed: ${d.parseError}`);
  assert.equal(d.method, 'POST');
  assert.match(d.contentType, /^multipart\/form-data; boundary=/);
  assert.deepEqual(d.fields, ['json'], 'one multipart field named json');
  assert.deepEqual(d.shapeProblems, [], 'payload matches the SDK model EventCallbackRequest');
  const cb = d.event;
  assert.ok(cb instanceof sdk.EventCallbackRequest);
  assert.ok(cb.event instanceof sdk.EventCallbackRequestEvent);
  assert.equal(typeof cb.event.eventTime, 'string', 'event_time is a string of Unix seconds');
  assert.match(cb.event.eventTime, /^\d+$/);
  assert.match(cb.event.eventHash, /^[0-9a-f]{64}$/);
  assert.equal(EventCallbackHelper.isValid(apiKey, cb), true, 'EventCallbackHelper.isValid with the API key');
  assert.equal(EventCallbackHelper.isValid(apiKey.split('').reverse().join(''), cb), false, 'another key does not validate');
  assert.equal(EventCallbackHelper.getCallbackType(cb), type);
  record.note(type === EventCallbackHelper.EVENT_TYPE_APP_CALLBACK ? 'apiAppCreateEventCallback' : 'accountUpdateEventCallback');
  return cb;
}

h.test('setting the account callback_url sends callback_test, valid for EventCallbackHelper as an account callback', async () => {
  const url = `${receiver.url}/account-hook`;
  const { body } = await h.api(AccountApi).accountUpdate({ callbackUrl: url });
  assert.equal(body.account.callbackUrl, url);
  await h.settleCallbacks();
  await receiver.waitFor((ds) => ds.some((d) => d.path === '/account-hook' && d.event && d.event.event.eventType === 'callback_test'), 1000);
  const d = receiver.deliveries.find((x) => x.path === '/account-hook' && x.event.event.eventType === 'callback_test');
  const cb = checkDelivery(d, { apiKey: h.world.api_key, type: EventCallbackHelper.EVENT_TYPE_ACCOUNT_CALLBACK });
  assert.equal(cb.event.eventType, 'callback_test');
  const { now } = await h.control.clock();
  assert.equal(cb.event.eventTime, String(now), 'event_time is the world clock');
  assert.equal(cb.signatureRequest, undefined);
  assert.equal(cb.template, undefined);
  assert.equal(d.answered.body, ACK);
});
