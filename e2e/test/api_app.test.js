'use strict';
// ApiAppApi through the official SDK: create (JSON and multipart with a
// logo), get, update, list, delete, and the app callback as
// EventCallbackHelper sees it.

const { before, after } = require('node:test');
const { setup, expectHttpError, sdk, assert, FIXTURE } = require('../lib/harness');
const { startReceiver } = require('../lib/receiver');
const record = require('../lib/record');

const h = setup();
const { ApiAppApi, EventCallbackHelper } = sdk;

// A 1x1 PNG, as the SDK uploads a Buffer.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  if (receiver) await receiver.close();
});

function checkApp(app) {
  assert.ok(app instanceof sdk.ApiAppResponse);
  assert.match(app.clientId, /^[0-9a-f]{32}$/);
  assert.equal(typeof app.createdAt, 'number');
  assert.ok(Array.isArray(app.domains));
  assert.equal(typeof app.name, 'string');
  assert.equal(typeof app.isApproved, 'boolean');
  assert.ok(app.ownerAccount instanceof sdk.ApiAppResponseOwnerAccount);
  assert.equal(app.ownerAccount.accountId, h.world.account_id);
  assert.equal(app.ownerAccount.emailAddress, h.world.email_address);
}

h.test('apiAppCreate (JSON) answers 201 and a typed ApiAppResponse', async () => {
  const req = new sdk.ApiAppCreateRequest();
  req.name = 'My E2E App';
  req.domains = ['example.com'];
  const oauth = new sdk.SubOAuth();
  oauth.callbackUrl = 'https://example.com/oauth';
  oauth.scopes = [sdk.SubOAuth.ScopesEnum.BasicAccountInfo, sdk.SubOAuth.ScopesEnum.RequestSignature];
  req.oauth = oauth;
  const opts = new sdk.SubOptions();
  opts.canInsertEverywhere = true;
  req.options = opts;
  const { response, body } = await h.api(ApiAppApi).apiAppCreate(req);
  assert.equal(response.status, 201);
  assert.match(response.config.headers['Content-Type'] || response.config.headers['content-type'], /application\/json/);
  assert.ok(body instanceof sdk.ApiAppGetResponse);
  const app = body.apiApp;
  checkApp(app);
  assert.equal(app.name, 'My E2E App');
  assert.deepEqual(app.domains, ['example.com']);
  assert.equal(app.callbackUrl, null);
  assert.ok(app.oauth instanceof sdk.ApiAppResponseOAuth);
  assert.equal(app.oauth.callbackUrl, 'https://example.com/oauth');
  assert.deepEqual([...app.oauth.scopes].sort(), ['basic_account_info', 'request_signature']);
  assert.match(app.oauth.secret, /^[0-9a-f]{16,}$/);
  assert.ok(app.options instanceof sdk.ApiAppResponseOptions);
  assert.equal(app.options.canInsertEverywhere, true);

  const got = (await h.api(ApiAppApi).apiAppGet(app.clientId)).body.apiApp;
  checkApp(got);
  assert.equal(got.clientId, app.clientId);
  assert.equal(got.name, 'My E2E App');
});

h.test('apiAppCreate (multipart) with custom_logo_file as a Buffer upload', async () => {
  const { response, body } = await h.api(ApiAppApi).apiAppCreate({
    name: 'Logo App',
    domains: ['logo.example.com', 'www.logo.example.com'],
    customLogoFile: { value: PNG, options: { filename: 'logo.png', contentType: 'image/png' } },
    whiteLabelingOptions: { primaryButtonColor: '#00b3e6', primaryButtonTextColor: '#ffffff' },
  });
  assert.equal(response.status, 201);
  assert.match(response.config.headers['content-type'] || response.config.headers['Content-Type'], /^multipart\/form-data; boundary=/);
  const app = body.apiApp;
  checkApp(app);
  assert.deepEqual(app.domains, ['logo.example.com', 'www.logo.example.com']);
  assert.ok(app.whiteLabelingOptions instanceof sdk.ApiAppResponseWhiteLabelingOptions);
  assert.equal(app.whiteLabelingOptions.primaryButtonColor, '#00b3e6');
});

h.test('apiAppCreate refuses missing name, missing and bad domains', async () => {
  const api = h.api(ApiAppApi);
  await expectHttpError(api.apiAppCreate({ domains: ['example.com'] }), { status: 400, errorName: 'bad_request', errorPath: 'name' });
  await expectHttpError(api.apiAppCreate({ name: 'x' }), { status: 400, errorPath: 'domains' });
  await expectHttpError(api.apiAppCreate({ name: 'x', domains: ['http://example.com/path'] }), { status: 400, errorPath: 'domains[0]' });
  await expectHttpError(api.apiAppCreate({ name: 'x', domains: ['example.com'], customLogoFile: { value: Buffer.from('not an image'), options: { filename: 'a.txt', contentType: 'text/plain' } } }), { status: 400, errorPath: 'custom_logo_file' });
});

h.test('apiAppUpdate changes only what it is given', async () => {
  const api = h.api(ApiAppApi);
  const app = (await api.apiAppCreate({ name: 'Before', domains: ['before.example.com'] })).body.apiApp;
  const { response, body } = await api.apiAppUpdate(app.clientId, { name: 'After' });
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.ApiAppGetResponse);
  assert.equal(body.apiApp.name, 'After');
  assert.deepEqual(body.apiApp.domains, ['before.example.com']);
  const d = await api.apiAppUpdate(app.clientId, { domains: ['after.example.com'], options: { canInsertEverywhere: true } });
  assert.deepEqual(d.body.apiApp.domains, ['after.example.com']);
  assert.equal(d.body.apiApp.name, 'After');
  assert.equal(d.body.apiApp.options.canInsertEverywhere, true);
});

h.test('apiAppList pages the apps with a typed ListInfoResponse', async () => {
  const api = h.api(ApiAppApi);
  await api.apiAppCreate({ name: 'Listed A', domains: ['a.example.com'] });
  await api.apiAppCreate({ name: 'Listed B', domains: ['b.example.com'] });
  const { response, body } = await api.apiAppList(1, 2);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.ApiAppListResponse);
  assert.ok(body.listInfo instanceof sdk.ListInfoResponse);
  assert.equal(body.listInfo.page, 1);
  assert.equal(body.listInfo.pageSize, 2);
  assert.equal(body.apiApps.length, 2);
  assert.ok(body.listInfo.numResults >= 3, `numResults ${body.listInfo.numResults}`);
  assert.equal(body.listInfo.numPages, Math.ceil(body.listInfo.numResults / 2));
  body.apiApps.forEach(checkApp);
  const all = (await api.apiAppList(1, 100)).body;
  assert.equal(all.apiApps.length, all.listInfo.numResults);
  assert.ok(all.apiApps.some((a) => a.clientId === h.world.client_id), 'the fixture app is listed');
  await expectHttpError(api.apiAppList(1, 101), { status: 400, errorPath: 'page_size' });
});

h.test('apiAppDelete answers 204; the app is then not found', async () => {
  const api = h.api(ApiAppApi);
  const app = (await api.apiAppCreate({ name: 'Doomed', domains: ['doomed.example.com'] })).body.apiApp;
  const { response, body } = await api.apiAppDelete(app.clientId);
  assert.equal(response.status, 204);
  assert.ok(body === undefined || body === '', `no body, got ${JSON.stringify(body)}`);
  await expectHttpError(api.apiAppGet(app.clientId), { status: 404, errorName: 'not_found' });
  await expectHttpError(api.apiAppDelete(app.clientId), { status: 404, errorName: 'not_found' });
});

h.test("a teammate cannot change or delete the owner's app", async () => {
  const app = (await h.api(ApiAppApi).apiAppCreate({ name: 'Mine', domains: ['mine.example.com'] })).body.apiApp;
  const mate = h.api(ApiAppApi, { apiKey: await h.keyOf(FIXTURE.teammate.id) });
  for (const call of [() => mate.apiAppDelete(app.clientId), () => mate.apiAppUpdate(app.clientId, { name: 'Theirs' })]) {
    const err = await expectHttpError(call(), {});
    assert.ok([403, 404].includes(err.statusCode), `status ${err.statusCode}`);
  }
  assert.equal((await h.api(ApiAppApi).apiAppGet(app.clientId)).body.apiApp.name, 'Mine');
});

h.test('an app callback_url gets callback_test, an app callback for EventCallbackHelper (F2, fixed)', async () => {
  const url = `${receiver.url}/app-hook`;
  const app = (await h.api(ApiAppApi).apiAppCreate({ name: 'Hooked', domains: ['hooked.example.com'], callbackUrl: url })).body.apiApp;
  assert.equal(app.callbackUrl, url);
  await h.settleCallbacks();
  await receiver.waitFor((ds) => ds.some((d) => d.path === '/app-hook' && d.event), 1000);
  const d = receiver.deliveries.find((x) => x.path === '/app-hook' && x.event);
  assert.equal(d.parseError, undefined);
  assert.deepEqual(d.shapeProblems, []);
  const cb = d.event;
  assert.equal(cb.event.eventType, 'callback_test');
  assert.equal(EventCallbackHelper.isValid(h.world.api_key, cb), true, "isValid with the app owner's API key");
  assert.equal(EventCallbackHelper.getCallbackType(cb), EventCallbackHelper.EVENT_TYPE_APP_CALLBACK);
  assert.equal(cb.event.eventMetadata.reportedForAppId, app.clientId);
  record.note('apiAppCreateEventCallback');
});

h.test('an account created through an app and confirmed sends account_confirmed to the app callback', async () => {
  const url = `${receiver.url}/confirm-hook`;
  const app = (await h.api(ApiAppApi).apiAppCreate({
    name: 'Confirming', domains: ['confirm.example.com'], callbackUrl: url,
    oauth: { callbackUrl: 'https://confirm.example.com/oauth', scopes: ['basic_account_info'] },
  })).body.apiApp;
  const created = (await h.api(sdk.AccountApi).accountCreate({ emailAddress: 'confirm.me@example.com', clientId: app.clientId, clientSecret: app.oauth.secret })).body;
  await h.control.post(`/accounts/${created.account.accountId}/confirm`);
  await h.settleCallbacks();
  await receiver.waitFor((ds) => ds.some((d) => d.path === '/confirm-hook' && d.event && d.event.event.eventType === 'account_confirmed'), 1000);
  const d = receiver.deliveries.find((x) => x.path === '/confirm-hook' && x.event.event.eventType === 'account_confirmed');
  assert.deepEqual(d.shapeProblems, []);
  const cb = d.event;
  assert.equal(EventCallbackHelper.isValid(h.world.api_key, cb), true, "isValid with the app owner's API key");
  assert.equal(EventCallbackHelper.getCallbackType(cb), EventCallbackHelper.EVENT_TYPE_APP_CALLBACK);
  assert.equal(cb.event.eventMetadata.reportedForAppId, app.clientId);
  assert.ok(cb.account instanceof sdk.AccountResponse, 'account_confirmed carries the account');
  assert.equal(cb.account.accountId, created.account.accountId);
  assert.equal(cb.account.emailAddress, 'confirm.me@example.com');
  record.note('apiAppCreateEventCallback');
});
