'use strict';
// Requests from templates through the official SDK: send_with_template
// (roles, ccs, merge fields), create_embedded_with_template with the embedded
// sign URL, edit_with_template and edit_embedded_with_template.

const { setup, expectHttpError, signer, sdk, assert } = require('../lib/harness');
const { pdfUpload } = require('../lib/pdf');

const h = setup({ config: { fetch_file_urls: false } });
const { SignatureRequestApi, TemplateApi, EmbeddedApi } = sdk;

let templateId;

function templateSigner(role, name, email) {
  const s = new sdk.SubSignatureRequestTemplateSigner();
  Object.assign(s, { role, name, emailAddress: email });
  return s;
}

function sigField(apiId, i) {
  const f = new sdk.SubFormFieldsPerDocumentSignature();
  Object.assign(f, { documentIndex: 0, apiId, required: true, signer: String(i), x: 100, y: 100 + 60 * i, width: 120, height: 30, page: 1 });
  return f;
}

/** A prepared template with roles Client and Witness, a CC role and a merge field. */
async function readyTemplate() {
  if (templateId) return templateId;
  const company = new sdk.SubMergeField();
  company.name = 'company';
  company.type = sdk.SubMergeField.TypeEnum.Text;
  const { body } = await h.api(TemplateApi).templateCreate({
    title: 'Service agreement', subject: 'Please sign', message: 'Thanks',
    signerRoles: [{ name: 'Client', order: 0 }, { name: 'Witness', order: 1 }], ccRoles: ['Accounting'],
    files: [pdfUpload('agreement.pdf')], formFieldsPerDocument: [sigField('client_sig', 0), sigField('witness_sig', 1)],
    mergeFields: [company], testMode: true,
  });
  templateId = body.template.templateId;
  await h.control.advance(120);
  return templateId;
}

async function processed() {
  await h.control.advance(60);
}

h.test('signatureRequestSendWithTemplate binds signers and CCs by role and fills merge fields', async () => {
  const tid = await readyTemplate();
  const req = new sdk.SignatureRequestSendWithTemplateRequest();
  const cf = new sdk.SubCustomField();
  cf.name = 'company';
  cf.value = 'ACME Ltd';
  const cc = new sdk.SubCC();
  cc.role = 'Accounting';
  cc.emailAddress = 'accounting@example.com';
  Object.assign(req, {
    templateIds: [tid], title: 'From template', subject: 'Sign please', message: 'Hello',
    signers: [templateSigner('Client', 'Carl', 'carl@example.com'), templateSigner('Witness', 'Wanda', 'wanda@example.com')],
    ccs: [cc], customFields: [cf], metadata: { ref: 'T-1' }, testMode: true,
  });
  const { response, body } = await h.api(SignatureRequestApi).signatureRequestSendWithTemplate(req);
  assert.equal(response.status, 200);
  assert.match(String(response.config.headers['content-type'] || response.config.headers['Content-Type']), /application\/json/);
  assert.ok(body instanceof sdk.SignatureRequestGetResponse);
  const sr = body.signatureRequest;
  assert.ok(sr instanceof sdk.SignatureRequestResponse);
  assert.deepEqual(sr.templateIds, [tid]);
  assert.equal(sr.title, 'From template');
  assert.deepEqual(sr.ccEmailAddresses, ['accounting@example.com']);
  const roles = Object.fromEntries(sr.signatures.map((s) => [s.signerRole, s]));
  assert.equal(roles.Client.signerEmailAddress, 'carl@example.com');
  assert.equal(roles.Client.order, 0);
  assert.equal(roles.Witness.signerName, 'Wanda');
  assert.equal(roles.Witness.order, 1);
  const company = sr.customFields.find((f) => f.name === 'company');
  assert.ok(company, `custom field company in ${JSON.stringify(sr.customFields)}`);
  assert.ok(company instanceof sdk.SignatureRequestResponseCustomFieldText, company.constructor.name);
  assert.equal(company.value, 'ACME Ltd');
  assert.equal(company.type, 'text');
});

h.test('signatureRequestSendWithTemplate refuses a missing role and an unknown template', async () => {
  const tid = await readyTemplate();
  const api = h.api(SignatureRequestApi);
  const e = await expectHttpError(api.signatureRequestSendWithTemplate({ templateIds: [tid], signers: [templateSigner('Client', 'C', 'c@example.com')], ccs: [{ role: 'Accounting', emailAddress: 'acc@example.com' }], testMode: true }), { status: 400, errorName: 'bad_request' });
  // "ccs: required when a CC role exists for the Template."
  await expectHttpError(api.signatureRequestSendWithTemplate({ templateIds: [tid], signers: [templateSigner('Client', 'C', 'c@example.com'), templateSigner('Witness', 'W', 'w@example.com')], testMode: true }), { status: 400, errorName: 'bad_request', errorPath: 'ccs' });
  assert.match(e.body.error.errorPath || '', /signers/);
  const u = await expectHttpError(api.signatureRequestSendWithTemplate({ templateIds: ['0'.repeat(40)], signers: [templateSigner('Client', 'C', 'c@example.com')], testMode: true }), {});
  assert.ok([400, 404].includes(u.statusCode), `status ${u.statusCode}`);
});

h.test('signatureRequestCreateEmbeddedWithTemplate makes an embedded request from a template', async () => {
  const tid = await readyTemplate();
  const req = new sdk.SignatureRequestCreateEmbeddedWithTemplateRequest();
  Object.assign(req, {
    templateIds: [tid], clientId: h.world.client_id,
    signers: [templateSigner('Client', 'Cora', 'cora@example.com'), templateSigner('Witness', 'Will', 'will@example.com')],
    ccs: [{ role: 'Accounting', emailAddress: 'acc@example.com' }], testMode: true,
  });
  const { response, body } = await h.api(SignatureRequestApi).signatureRequestCreateEmbeddedWithTemplate(req);
  assert.equal(response.status, 200);
  const sr = body.signatureRequest;
  assert.deepEqual(sr.templateIds, [tid]);
  assert.deepEqual(sr.signatures.map((s) => s.signerRole).sort(), ['Client', 'Witness']);
  await processed();
  const url = await h.api(EmbeddedApi).embeddedSignUrl(sr.signatures.find((s) => s.signerRole === 'Client').signatureId);
  assert.match(url.body.embedded.signUrl, /^https?:\/\//);
});

h.test('signatureRequestEditEmbeddedWithTemplate replaces an embedded request from a template', async () => {
  const api = h.api(SignatureRequestApi);
  const tid = await readyTemplate();
  const sr2 = (await api.signatureRequestCreateEmbeddedWithTemplate({ templateIds: [tid], clientId: h.world.client_id, signers: [templateSigner('Client', 'C', 'c@example.com'), templateSigner('Witness', 'W', 'w@example.com')], ccs: [{ role: 'Accounting', emailAddress: 'acc@example.com' }], testMode: true })).body.signatureRequest;
  await processed();
  const req = new sdk.SignatureRequestEditEmbeddedWithTemplateRequest();
  Object.assign(req, { templateIds: [tid], clientId: h.world.client_id, signers: [templateSigner('Client', 'C2', 'c2@example.com'), templateSigner('Witness', 'W2', 'w2@example.com')], ccs: [{ role: 'Accounting', emailAddress: 'acc@example.com' }], testMode: true });
  const e2 = await api.signatureRequestEditEmbeddedWithTemplate(sr2.signatureRequestId, req);
  assert.equal(e2.response.status, 200);
  assert.deepEqual(e2.body.signatureRequest.signatures.map((s) => s.signerEmailAddress).sort(), ['c2@example.com', 'w2@example.com']);
});

h.test('signatureRequestEditWithTemplate replaces a request sent from a template', async () => {
  const tid = await readyTemplate();
  const api = h.api(SignatureRequestApi);
  const sr = (await api.signatureRequestSendWithTemplate({ templateIds: [tid], signers: [templateSigner('Client', 'C', 'c@example.com'), templateSigner('Witness', 'W', 'w@example.com')], ccs: [{ role: 'Accounting', emailAddress: 'acc@example.com' }], testMode: true })).body.signatureRequest;
  await processed();
  const req = new sdk.SignatureRequestEditWithTemplateRequest();
  Object.assign(req, { templateIds: [tid], title: 'Edited from template', signers: [templateSigner('Client', 'Zed', 'zed@example.com'), templateSigner('Witness', 'W', 'w@example.com')], ccs: [{ role: 'Accounting', emailAddress: 'acc@example.com' }], testMode: true });
  const { response, body } = await api.signatureRequestEditWithTemplate(sr.signatureRequestId, req);
  assert.equal(response.status, 200);
  assert.equal(body.signatureRequest.title, 'Edited from template');
  assert.ok(body.signatureRequest.signatures.some((s) => s.signerEmailAddress === 'zed@example.com'));
});
