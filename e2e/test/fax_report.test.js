'use strict';
// FaxApi, FaxLineApi and ReportApi through the official SDK.

const { setup, expectHttpError, sdk, assert, FIXTURE } = require('../lib/harness');
const { pdfUpload, isPDF } = require('../lib/pdf');

const h = setup({ config: { fetch_file_urls: false } });
const { FaxApi, FaxLineApi, ReportApi } = sdk;

function checkFax(f) {
  assert.ok(f instanceof sdk.FaxResponse);
  assert.match(f.faxId, /^[0-9a-f]{16,40}$/);
  assert.equal(typeof f.createdAt, 'number');
  assert.equal(typeof f.sender, 'string');
  assert.ok(Array.isArray(f.transmissions));
  f.transmissions.forEach((t) => {
    assert.ok(t instanceof sdk.FaxResponseTransmission);
    assert.ok(Object.values(sdk.FaxResponseTransmission.StatusCodeEnum).includes(t.statusCode), t.statusCode);
  });
}

h.test('faxLineAreaCodeGet lists area codes as numbers', async () => {
  const { response, body } = await h.api(FaxLineApi).faxLineAreaCodeGet('US', 'CA');
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.FaxLineAreaCodeGetResponse);
  assert.ok(body.areaCodes.length > 0);
  body.areaCodes.forEach((c) => assert.equal(typeof c, 'number'));
  await expectHttpError(h.api(FaxLineApi).faxLineAreaCodeGet('XX'), { status: 400, errorPath: 'country' });
});

h.test('fax lines: create, get, list, add and remove a user, delete', async () => {
  const api = h.api(FaxLineApi);
  const area = (await api.faxLineAreaCodeGet('US', 'CA')).body.areaCodes[0];
  const req = new sdk.FaxLineCreateRequest();
  req.areaCode = area;
  req.country = sdk.FaxLineCreateRequest.CountryEnum.Us;
  const { response, body } = await api.faxLineCreate(req);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.FaxLineResponse);
  const line = body.faxLine;
  assert.ok(line instanceof sdk.FaxLineResponseFaxLine);
  assert.equal(typeof line.number, 'string');
  assert.equal(typeof line.createdAt, 'number');
  assert.equal(typeof line.updatedAt, 'number');
  assert.deepEqual(line.accounts.map((a) => a.accountId), [h.world.account_id]);
  line.accounts.forEach((a) => assert.ok(a instanceof sdk.AccountResponse));

  const got = (await api.faxLineGet(line.number)).body.faxLine;
  assert.equal(got.number, line.number);

  const list = (await api.faxLineList()).body;
  assert.ok(list instanceof sdk.FaxLineListResponse);
  assert.ok(list.listInfo instanceof sdk.ListInfoResponse);
  assert.ok(list.faxLines.some((l) => l.number === line.number));

  const add = new sdk.FaxLineAddUserRequest();
  add.number = line.number;
  add.emailAddress = FIXTURE.teammate.email;
  const added = (await api.faxLineAddUser(add)).body.faxLine;
  assert.deepEqual(added.accounts.map((a) => a.emailAddress).sort(), [FIXTURE.owner.email, FIXTURE.teammate.email]);
  const removed = (await api.faxLineRemoveUser({ number: line.number, accountId: FIXTURE.teammate.id })).body.faxLine;
  assert.deepEqual(removed.accounts.map((a) => a.emailAddress), [FIXTURE.owner.email]);

  const del = new sdk.FaxLineDeleteRequest();
  del.number = line.number;
  const d = await api.faxLineDelete(del);
  assert.equal(d.response.status, 200);
  await expectHttpError(api.faxLineGet(line.number), { status: 404, errorName: 'not_found' });
});

h.test('faxSend (multipart) transmits on the world clock; get, list, files, delete', async () => {
  const api = h.api(FaxApi);
  const req = new sdk.FaxSendRequest();
  Object.assign(req, { recipient: '+14155550123', files: [pdfUpload('fax.pdf', { pages: 2 })], title: 'My fax', coverPageTo: 'Jill', coverPageFrom: 'Jack', coverPageMessage: 'Hi', testMode: true });
  const { response, body } = await api.faxSend(req);
  assert.equal(response.status, 200);
  assert.match(String(response.config.headers['content-type'] || response.config.headers['Content-Type']), /^multipart\/form-data/);
  assert.ok(body instanceof sdk.FaxGetResponse);
  const fax = body.fax;
  checkFax(fax);
  assert.equal(fax.title, 'My fax');
  assert.equal(fax.transmissions[0].recipient, '+14155550123');
  assert.equal(fax.transmissions[0].statusCode, 'transmitting');

  await h.control.advance(31);
  const done = (await api.faxGet(fax.faxId)).body.fax;
  checkFax(done);
  assert.equal(done.transmissions[0].statusCode, 'success');
  assert.equal(typeof done.transmissions[0].sentAt, 'number');

  const list = (await api.faxList(1, 20)).body;
  assert.ok(list instanceof sdk.FaxListResponse);
  assert.ok(list.listInfo instanceof sdk.ListInfoResponse);
  assert.ok(list.faxes.some((f) => f.faxId === fax.faxId));

  const pdf = await api.faxFiles(fax.faxId);
  assert.ok(Buffer.isBuffer(pdf.body));
  assert.match(pdf.response.headers['content-type'], /^application\/pdf/);
  assert.ok(isPDF(pdf.body));

  const del = await api.faxDelete(fax.faxId);
  assert.equal(del.response.status, 204);
  await expectHttpError(api.faxGet(fax.faxId), { status: 404 });
  await expectHttpError(api.faxFiles(fax.faxId), { status: 410, errorName: 'deleted' });
});

h.test('a fax to a busy number ends in an error status; bad recipients are refused', async () => {
  const api = h.api(FaxApi);
  const fax = (await api.faxSend({ recipient: '+14155550486', fileUrls: ['https://example.com/f.pdf'], testMode: true })).body.fax;
  await h.control.advance(31);
  const done = (await api.faxGet(fax.faxId)).body.fax;
  assert.equal(done.transmissions[0].statusCode, 'error_busy');
  await expectHttpError(api.faxSend({ recipient: 'nobody', fileUrls: ['https://example.com/f.pdf'], testMode: true }), { status: 400, errorName: 'bad_request', errorPath: 'recipient' });
  await expectHttpError(api.faxSend({ fileUrls: ['https://example.com/f.pdf'], testMode: true }), { status: 400, errorPath: 'recipient' });
});

h.test('reportCreate answers a typed ReportResponse; bad dates are refused', async () => {
  const { now } = await h.control.clock();
  const d = new Date(now * 1000);
  const fmt = (x) => `${String(x.getUTCMonth() + 1).padStart(2, '0')}/${String(x.getUTCDate()).padStart(2, '0')}/${x.getUTCFullYear()}`;
  const start = new Date(d.getTime() - 30 * 86400000);
  const req = new sdk.ReportCreateRequest();
  req.startDate = fmt(start);
  req.endDate = fmt(d);
  req.reportType = [sdk.ReportCreateRequest.ReportTypeEnum.UserActivity, sdk.ReportCreateRequest.ReportTypeEnum.DocumentStatus];
  const { response, body } = await h.api(ReportApi).reportCreate(req);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.ReportCreateResponse);
  const r = body.report;
  assert.ok(r instanceof sdk.ReportResponse);
  assert.equal(typeof r.success, 'string');
  assert.equal(r.startDate, fmt(start));
  assert.equal(r.endDate, fmt(d));
  assert.deepEqual(r.reportType, ['user_activity', 'document_status']);
  await expectHttpError(h.api(ReportApi).reportCreate({ startDate: '2024-01-01', endDate: fmt(d), reportType: ['user_activity'] }), { status: 400, errorPath: 'start_date' });
  await expectHttpError(h.api(ReportApi).reportCreate({ startDate: fmt(start), endDate: fmt(d), reportType: [] }), { status: 400, errorPath: 'report_type' });
});

h.test('warnings reach the SDK as typed WarningResponse objects', async () => {
  const { body } = await h.api(FaxApi).faxSend({ recipient: 'someone@example.com', sender: '+14155550100', fileUrls: ['https://example.com/f.pdf'], testMode: true });
  assert.ok(Array.isArray(body.warnings), 'warnings is an array');
  const w = body.warnings.find((x) => x.warningName === 'parameter_ignored');
  assert.ok(w, JSON.stringify(body.warnings));
  assert.ok(w instanceof sdk.WarningResponse);
  assert.match(w.warningMsg, /sender/);
});
