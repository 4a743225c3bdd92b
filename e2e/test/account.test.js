'use strict';
// AccountApi through the official SDK: get, update, create (plain and with
// OAuth), verify; typed models field by field.

const { setup, expectHttpError, sdk, assert, FIXTURE } = require('../lib/harness');

const h = setup();
const { AccountApi } = sdk;

const TEAMMATE = FIXTURE.teammate;

h.test('accountGet answers the caller as a typed AccountResponse', async () => {
  const { response, body } = await h.api(AccountApi).accountGet();
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.AccountGetResponse);
  const a = body.account;
  assert.ok(a instanceof sdk.AccountResponse);
  assert.equal(a.accountId, h.world.account_id);
  assert.match(a.accountId, /^[0-9a-f]{40}$/);
  assert.equal(a.emailAddress, h.world.email_address);
  assert.equal(a.isLocked, false);
  assert.equal(a.isPaidHs, true);
  assert.equal(a.isPaidHf, false);
  assert.equal(a.callbackUrl, null);
  assert.equal(a.roleCode, 'a');
  assert.match(a.teamId, /^[0-9a-f]{40}$/);
  assert.equal(a.locale, 'en-US');
  assert.ok(a.quotas instanceof sdk.AccountResponseQuotas);
  assert.equal(typeof a.quotas.apiSignatureRequestsLeft, 'number');
  assert.equal(typeof a.quotas.templatesLeft, 'number');
  assert.equal(typeof a.quotas.templatesTotal, 'number');
  assert.equal(typeof a.quotas.smsVerificationsLeft, 'number');
  assert.equal(typeof a.quotas.numFaxPagesLeft, 'number');
  assert.equal(a.quotas.documentsLeft, null, 'a paid account has unlimited documents (null)');
  assert.ok(a.usage instanceof sdk.AccountResponseUsage);
  assert.equal(a.usage.faxPagesSent, 0);
  assert.ok(a.settings instanceof sdk.AccountResponseSettings);
  assert.equal(typeof a.settings.signerAccessCodes, 'boolean');
});

h.test('accountGet by account_id and by email_address; account_id prevails', async () => {
  const api = h.api(AccountApi);
  const byId = (await api.accountGet(TEAMMATE.id)).body.account;
  assert.equal(byId.emailAddress, TEAMMATE.email);
  assert.equal(byId.roleCode, 'm');
  const byEmail = (await api.accountGet(undefined, TEAMMATE.email)).body.account;
  assert.equal(byEmail.accountId, TEAMMATE.id);
  const both = (await api.accountGet(TEAMMATE.id, h.world.email_address)).body.account;
  assert.equal(both.accountId, TEAMMATE.id);
});

h.test('accountGet of an unknown account is a 404 not_found HttpError', async () => {
  await expectHttpError(h.api(AccountApi).accountGet('0'.repeat(40)), { status: 404, errorName: 'not_found' });
});

h.test('accountUpdate changes locale and callback_url and answers the account', async () => {
  const api = h.api(AccountApi);
  const req = new sdk.AccountUpdateRequest();
  req.locale = 'fr-FR';
  const { response, body } = await api.accountUpdate(req);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.AccountGetResponse);
  assert.equal(body.account.locale, 'fr-FR');
  assert.equal((await api.accountGet()).body.account.locale, 'fr-FR');

  // Plain objects are accepted too: the SDK turns them into its models.
  const back = await api.accountUpdate({ locale: 'en-US', callbackUrl: 'https://example.com/hook' });
  assert.equal(back.body.account.locale, 'en-US');
  assert.equal(back.body.account.callbackUrl, 'https://example.com/hook');
  const cleared = await api.accountUpdate({ callbackUrl: '' });
  assert.ok(!cleared.body.account.callbackUrl, 'an empty callback_url clears it');
});

h.test('accountUpdate refuses an unknown locale with error_path locale', async () => {
  await expectHttpError(h.api(AccountApi).accountUpdate({ locale: 'xx-YY' }), { status: 400, errorName: 'bad_request', errorPath: 'locale' });
  await expectHttpError(h.api(AccountApi).accountUpdate({ locale: 'fr-fr' }), { status: 400, errorPath: 'locale' });
});

h.test('accountUpdate refuses a callback_url that is not an absolute http(s) URL', async () => {
  await expectHttpError(h.api(AccountApi).accountUpdate({ callbackUrl: 'ftp://example.com/x' }), { status: 400, errorName: 'bad_request', errorPath: 'callback_url' });
});

h.test('accountCreate makes a new account that accountGet and accountVerify then find', async () => {
  const api = h.api(AccountApi);
  const req = new sdk.AccountCreateRequest();
  req.emailAddress = 'new.person@example.com';
  req.locale = 'de-DE';
  const { response, body } = await api.accountCreate(req);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.AccountCreateResponse);
  const a = body.account;
  assert.ok(a instanceof sdk.AccountResponse);
  assert.match(a.accountId, /^[0-9a-f]{40}$/);
  assert.equal(a.emailAddress, 'new.person@example.com');
  assert.equal(a.locale, 'de-DE');
  assert.equal(a.isPaidHs, false);
  assert.equal(body.oauthData, undefined, 'no oauth_data without client credentials');

  const got = (await api.accountGet(undefined, 'new.person@example.com')).body.account;
  assert.equal(got.accountId, a.accountId);

  const v = await api.accountVerify({ emailAddress: 'new.person@example.com' });
  assert.equal(v.response.status, 200);
  assert.ok(v.body instanceof sdk.AccountVerifyResponse);
  assert.ok(v.body.account instanceof sdk.AccountVerifyResponseAccount);
  assert.equal(v.body.account.emailAddress, 'new.person@example.com');
});

h.test('accountCreate twice with the same address is a 400 on email_address', async () => {
  const api = h.api(AccountApi);
  await api.accountCreate({ emailAddress: 'twice@example.com' });
  await expectHttpError(api.accountCreate({ emailAddress: 'twice@example.com' }), { status: 400, errorName: 'bad_request', errorPath: 'email_address' });
});

h.test('accountCreate refuses a malformed address and a missing one', async () => {
  const api = h.api(AccountApi);
  await expectHttpError(api.accountCreate({ emailAddress: 'not-an-address' }), { status: 400, errorPath: 'email_address' });
  await expectHttpError(api.accountCreate({}), { status: 400, errorPath: 'email_address' });
});

h.test('accountCreate with client_id and client_secret answers oauth_data usable as a Bearer token', async () => {
  const api = h.api(AccountApi);
  const { body } = await api.accountCreate({
    emailAddress: 'oauth.user@example.com',
    clientId: h.world.client_id,
    clientSecret: h.world.client_secret,
  });
  assert.equal(body.account.emailAddress, 'oauth.user@example.com');
  const o = body.oauthData;
  assert.ok(o instanceof sdk.OAuthTokenResponse);
  assert.match(o.accessToken, /^[0-9a-f]{16,}$/);
  assert.match(o.refreshToken, /^[0-9a-f]{16,}$/);
  assert.equal(o.tokenType, 'Bearer');
  assert.equal(typeof o.expiresIn, 'number');
  assert.ok(o.expiresIn > 0);

  const asUser = h.api(AccountApi, { accessToken: o.accessToken });
  const me = (await asUser.accountGet()).body.account;
  assert.equal(me.emailAddress, 'oauth.user@example.com');
  assert.equal(me.accountId, body.account.accountId);
});

h.test('accountCreate with a wrong client_secret is refused', async () => {
  const err = await expectHttpError(
    h.api(AccountApi).accountCreate({ emailAddress: 'wrong.secret@example.com', clientId: h.world.client_id, clientSecret: 'nope' }),
    {},
  );
  assert.ok([400, 401].includes(err.statusCode), `status ${err.statusCode}`);
});

h.test('accountVerify answers {} (no account) for an unknown address', async () => {
  const { response, body } = await h.api(AccountApi).accountVerify({ emailAddress: 'nobody@nowhere.example' });
  assert.equal(response.status, 200);
  assert.deepEqual(response.data, {});
  assert.ok(body instanceof sdk.AccountVerifyResponse);
  assert.equal(body.account, undefined);
});

h.test('accountVerify finds a fixture account and refuses a malformed address', async () => {
  const api = h.api(AccountApi);
  const { body } = await api.accountVerify({ emailAddress: TEAMMATE.email });
  assert.equal(body.account.emailAddress, TEAMMATE.email);
  await expectHttpError(api.accountVerify({ emailAddress: 'bad' }), { status: 400, errorPath: 'email_address' });
});
