'use strict';
// TemplateApi and EmbeddedApi.embeddedEditUrl through the official SDK:
// create (multipart), asynchronous preparation (409 until ready, then
// template_created), get, list, files in three forms, sharing, update_files,
// embedded drafts, delete.

const { before, after } = require('node:test');
const { setup, expectHttpError, sdk, assert, FIXTURE } = require('../lib/harness');
const { startReceiver } = require('../lib/receiver');
const { pdfUpload } = require('../lib/pdf');
const { durationSeconds } = require('../lib/sandbox');
const record = require('../lib/record');

const h = setup({ config: { fetch_file_urls: false } });
const { TemplateApi, EmbeddedApi, AccountApi, EventCallbackHelper } = sdk;
const ID40 = /^[0-9a-f]{40}$/;

let receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  if (receiver) await receiver.close();
});

function role(name, order) {
  const r = new sdk.SubTemplateRole();
  r.name = name;
  if (order !== undefined) r.order = order;
  return r;
}

function signatureField(apiId, signerIndex, page = 1) {
  const f = new sdk.SubFormFieldsPerDocumentSignature();
  Object.assign(f, { documentIndex: 0, apiId, required: true, signer: String(signerIndex), x: 100, y: 100 + 60 * signerIndex, width: 120, height: 30, page });
  return f;
}

function textField(apiId, signerIndex) {
  const f = new sdk.SubFormFieldsPerDocumentText();
  Object.assign(f, { documentIndex: 0, apiId, name: apiId, required: false, signer: String(signerIndex), x: 300, y: 100, width: 120, height: 16, page: 1 });
  return f;
}

async function createTemplate(extra = {}) {
  const req = new sdk.TemplateCreateRequest();
  Object.assign(req, {
    title: 'Employment contract',
    subject: 'Please sign',
    message: 'Welcome aboard',
    signerRoles: [role('Employee', 0), role('Manager', 1)],
    ccRoles: ['HR'],
    files: [pdfUpload('contract.pdf', { pages: 1 })],
    formFieldsPerDocument: [signatureField('emp_sig', 0), signatureField('mgr_sig', 1), textField('emp_name', 0)],
    metadata: { dept: 'eng' },
    testMode: true,
  }, extra);
  const { response, body } = await h.api(TemplateApi).templateCreate(req);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.TemplateCreateResponse);
  assert.ok(body.template instanceof sdk.TemplateCreateResponseTemplate);
  assert.match(body.template.templateId, ID40);
  return body.template.templateId;
}

async function prepare() {
  const cfg = await h.control.config();
  await h.control.advance(Math.max(durationSeconds(cfg.template_preparation_delay), 60) + 1);
}

function checkTemplate(t) {
  assert.ok(t instanceof sdk.TemplateResponse);
  assert.match(t.templateId, ID40);
  assert.equal(typeof t.title, 'string');
  assert.equal(typeof t.isEmbedded, 'boolean');
  assert.equal(typeof t.isCreator, 'boolean');
  assert.equal(typeof t.canEdit, 'boolean');
  assert.equal(typeof t.isLocked, 'boolean');
  assert.ok(Array.isArray(t.signerRoles));
  t.signerRoles.forEach((r) => assert.ok(r instanceof sdk.TemplateResponseSignerRole));
  assert.ok(Array.isArray(t.documents));
  t.documents.forEach((d) => assert.ok(d instanceof sdk.TemplateResponseDocument));
  assert.ok(Array.isArray(t.accounts));
  t.accounts.forEach((a) => assert.ok(a instanceof sdk.TemplateResponseAccount));
}

h.test('templateCreate (multipart) answers the template_id; template_created follows preparation', async () => {
  await h.api(AccountApi).accountUpdate({ callbackUrl: `${receiver.url}/tpl` });
  const id = await createTemplate();
  await prepare();
  await h.settleCallbacks();
  const d = receiver.events('template_created').find((x) => x.event.template && x.event.template.templateId === id);
  assert.ok(d, `template_created for ${id}; got ${receiver.events().map((x) => x.event.event.eventType).join(', ')}`);
  assert.deepEqual(d.shapeProblems, []);
  assert.equal(EventCallbackHelper.isValid(h.world.api_key, d.event), true);
  assert.equal(EventCallbackHelper.getCallbackType(d.event), EventCallbackHelper.EVENT_TYPE_ACCOUNT_CALLBACK);
  assert.ok(d.event.template instanceof sdk.TemplateResponse);
  record.note('accountUpdateEventCallback');
  await h.api(AccountApi).accountUpdate({ callbackUrl: '' });

  const { body } = await h.api(TemplateApi).templateGet(id);
  assert.ok(body instanceof sdk.TemplateGetResponse);
  const t = body.template;
  checkTemplate(t);
  assert.equal(t.templateId, id);
  assert.equal(t.title, 'Employment contract');
  assert.equal(t.message, 'Welcome aboard');
  assert.equal(t.isCreator, true);
  assert.equal(t.canEdit, true);
  assert.equal(t.isEmbedded, false);
  assert.deepEqual(t.signerRoles.map((r) => [r.name, r.order]), [['Employee', 0], ['Manager', 1]]);
  assert.deepEqual(t.ccRoles.map((r) => r.name), ['HR']);
  assert.equal(t.documents.length, 1);
  assert.equal(t.documents[0].index, 0);
  const fields = t.documents[0].formFields;
  assert.deepEqual(fields.map((f) => f.apiId).sort(), ['emp_name', 'emp_sig', 'mgr_sig']);
  const sig = fields.find((f) => f.apiId === 'emp_sig');
  assert.ok(sig instanceof sdk.TemplateResponseDocumentFormFieldSignature, sig.constructor.name);
  assert.equal(sig.type, 'signature');
  const text = fields.find((f) => f.apiId === 'emp_name');
  assert.ok(text instanceof sdk.TemplateResponseDocumentFormFieldText, text.constructor.name);
  assert.ok(t.accounts.some((a) => a.accountId === h.world.account_id));
});

h.test('templateList pages the templates and finds by query', async () => {
  const w = await h.newWorld();
  const api = h.api(TemplateApi, { apiKey: w.api_key });
  for (const title of ['Alpha', 'Beta', 'Gamma']) {
    await api.templateCreate({ title, signerRoles: [role('Signer')], files: [pdfUpload()], formFieldsPerDocument: [signatureField('s', 0)], testMode: true });
  }
  const { body } = await api.templateList(undefined, 1, 2);
  assert.ok(body instanceof sdk.TemplateListResponse);
  assert.ok(body.listInfo instanceof sdk.ListInfoResponse);
  assert.equal(body.listInfo.numResults, 3);
  assert.equal(body.listInfo.numPages, 2);
  assert.equal(body.templates.length, 2);
  body.templates.forEach(checkTemplate);
  const q = (await api.templateList(undefined, 1, 20, 'Beta')).body;
  assert.deepEqual(q.templates.map((t) => t.title), ['Beta']);
});

h.test('templateAddUser / templateRemoveUser share with a teammate', async () => {
  const id = await createTemplate({ title: 'Shared' });
  await prepare();
  const mate = h.api(TemplateApi, { apiKey: await h.keyOf(FIXTURE.teammate.id) });
  const before = (await mate.templateList()).body.templates.map((t) => t.templateId);
  assert.ok(!before.includes(id));
  const req = new sdk.TemplateAddUserRequest();
  req.emailAddress = FIXTURE.teammate.email;
  const { body } = await h.api(TemplateApi).templateAddUser(id, req);
  assert.ok(body instanceof sdk.TemplateGetResponse);
  assert.ok(body.template.accounts.some((a) => a.accountId === FIXTURE.teammate.id));
  const seen = (await mate.templateGet(id)).body.template;
  assert.equal(seen.isCreator, false);
  assert.ok((await mate.templateList()).body.templates.some((t) => t.templateId === id), 'in the teammate list');
  const rem = await h.api(TemplateApi).templateRemoveUser(id, { accountId: FIXTURE.teammate.id });
  assert.ok(!rem.body.template.accounts.some((a) => a.accountId === FIXTURE.teammate.id));
  const after = (await mate.templateList()).body.templates.map((t) => t.templateId);
  assert.ok(!after.includes(id), 'no longer in the teammate list');
  await expectHttpError(h.api(TemplateApi).templateAddUser(id, { emailAddress: FIXTURE.outsider.email }), { status: 403, errorName: 'forbidden' });
});

h.test('templateUpdateFiles answers a new template_id; the old template stays usable', async () => {
  const id = await createTemplate({ title: 'Overlay' });
  await prepare();
  const req = new sdk.TemplateUpdateFilesRequest();
  req.files = [pdfUpload('v2.pdf', { pages: 2 })];
  const { response, body } = await h.api(TemplateApi).templateUpdateFiles(id, req);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.TemplateUpdateFilesResponse);
  assert.ok(body.template instanceof sdk.TemplateUpdateFilesResponseTemplate);
  assert.match(body.template.templateId, ID40);
  assert.notEqual(body.template.templateId, id);
  await prepare();
  const fresh = (await h.api(TemplateApi).templateGet(body.template.templateId)).body.template;
  checkTemplate(fresh);
  assert.equal(fresh.title, 'Overlay');
  checkTemplate((await h.api(TemplateApi).templateGet(id)).body.template);
});

h.test('templateCreateEmbeddedDraft answers an edit_url; embeddedEditUrl gives a fresh one (F3, fixed)', async () => {
  const req = new sdk.TemplateCreateEmbeddedDraftRequest();
  Object.assign(req, { clientId: h.world.client_id, title: 'Draft', files: [pdfUpload('draft.pdf')], signerRoles: [role('Client')], testMode: true });
  const { response, body } = await h.api(TemplateApi).templateCreateEmbeddedDraft(req);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.TemplateCreateEmbeddedDraftResponse);
  const d = body.template;
  assert.ok(d instanceof sdk.TemplateCreateEmbeddedDraftResponseTemplate);
  assert.match(d.templateId, ID40);
  assert.match(d.editUrl, /^https?:\/\//);
  assert.equal(typeof d.expiresAt, 'number');
  const page = await fetch(d.editUrl);
  assert.equal(page.status, 200, 'the edit URL is served by the sandbox');

  const er = new sdk.EmbeddedEditUrlRequest();
  er.ccRoles = [''];
  er.testMode = true;
  const edit = await h.api(EmbeddedApi).embeddedEditUrl(d.templateId, er);
  assert.equal(edit.response.status, 200);
  assert.ok(edit.body instanceof sdk.EmbeddedEditUrlResponse);
  assert.ok(edit.body.embedded instanceof sdk.EmbeddedEditUrlResponseEmbedded);
  assert.match(edit.body.embedded.editUrl, /^https?:\/\//);
  assert.equal(typeof edit.body.embedded.expiresAt, 'number');

  const fin = await h.control.post(`/templates/${d.templateId}/finish_draft`, {});
  assert.equal(fin.template.template_id, d.templateId);
  await prepare();
  const t = (await h.api(TemplateApi).templateGet(d.templateId)).body.template;
  checkTemplate(t);
  assert.equal(t.isEmbedded, true);
});

h.test('embeddedEditUrl is refused for a template that is not embedded', async () => {
  const id = await createTemplate({ title: 'Not embedded' });
  await prepare();
  const e = await expectHttpError(h.api(EmbeddedApi).embeddedEditUrl(id, { testMode: true }), {});
  assert.ok(e.statusCode >= 400 && e.statusCode < 500);
});

h.test('templateDelete answers 200; the template is then gone', async () => {
  const id = await createTemplate({ title: 'Delete me' });
  await prepare();
  const { response } = await h.api(TemplateApi).templateDelete(id);
  assert.equal(response.status, 200);
  const e = await expectHttpError(h.api(TemplateApi).templateGet(id), {});
  assert.ok([404, 410].includes(e.statusCode), `status ${e.statusCode}`);
});

h.test('templateCreate validation: missing signer_roles, fields for a role that does not exist', async () => {
  const api = h.api(TemplateApi);
  await expectHttpError(api.templateCreate({ title: 'x', files: [pdfUpload()], formFieldsPerDocument: [signatureField('s', 0)], testMode: true }), { status: 400, errorName: 'bad_request', errorPath: 'signer_roles' });
  const e = await expectHttpError(api.templateCreate({ title: 'x', files: [pdfUpload()], signerRoles: [role('A')], formFieldsPerDocument: [signatureField('s', 3)], testMode: true }), { status: 400 });
  assert.match(e.body.error.errorPath, /^form_fields_per_document\[0\]/);
  await expectHttpError(api.templateGet('0'.repeat(40)), { status: 404, errorName: 'not_found' });
});

h.test('every callback this file received matches the SDK model and validates with EventCallbackHelper', () => {
  assert.ok(receiver.deliveries.length > 0, 'callbacks were received');
  assert.deepEqual(receiver.problems(() => h.world.api_key), []);
});
