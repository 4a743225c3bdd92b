'use strict';
// Every form field type through the SDK's discriminated models: sent with
// the SDK's Sub* field classes, read back as typed TemplateResponse form
// fields and custom fields, and as typed response_data values once signed.

const { setup, sdk, assert } = require('../lib/harness');
const { pdfUpload } = require('../lib/pdf');

const h = setup({ config: { fetch_file_urls: false } });
const { SignatureRequestApi, TemplateApi } = sdk;

let y = 40;
function field(Cls, props) {
  const f = new Cls();
  Object.assign(f, { documentIndex: 0, required: false, signer: '0', x: 60, y: (y += 40), width: 120, height: 20, page: 1 }, props);
  return f;
}

function allFields() {
  y = 40;
  return [
    field(sdk.SubFormFieldsPerDocumentText, { apiId: 'f_text', name: 'Text', validationType: 'numbers_only' }),
    field(sdk.SubFormFieldsPerDocumentSignature, { apiId: 'f_sig', required: true, height: 30 }),
    field(sdk.SubFormFieldsPerDocumentInitials, { apiId: 'f_init' }),
    field(sdk.SubFormFieldsPerDocumentDateSigned, { apiId: 'f_date' }),
    field(sdk.SubFormFieldsPerDocumentCheckbox, { apiId: 'f_check', width: 14, height: 14, isChecked: false }),
    field(sdk.SubFormFieldsPerDocumentDropdown, { apiId: 'f_drop', options: ['Red', 'Green', 'Blue'], content: 'Green' }),
    field(sdk.SubFormFieldsPerDocumentRadio, { apiId: 'f_radio_a', group: 'g1', width: 14, height: 14, isChecked: true }),
    field(sdk.SubFormFieldsPerDocumentRadio, { apiId: 'f_radio_b', group: 'g1', width: 14, height: 14, isChecked: false }),
    field(sdk.SubFormFieldsPerDocumentHyperlink, { apiId: 'f_link', content: 'Terms', contentUrl: 'https://example.com/terms' }),
  ];
}

function radioGroup() {
  const g = new sdk.SubFormFieldGroup();
  Object.assign(g, { groupId: 'g1', groupLabel: 'Choice', requirement: 'require_0-1' });
  return g;
}

h.test('a request with every field type signs into typed response_data values', async () => {
  const signer = new sdk.SubSignatureRequestSigner();
  Object.assign(signer, { name: 'Fiona', emailAddress: 'fiona@example.com' });
  const { body } = await h.api(SignatureRequestApi).signatureRequestSend({
    title: 'All fields', signers: [signer], files: [pdfUpload('fields.pdf')],
    formFieldsPerDocument: allFields(), formFieldGroups: [radioGroup()], testMode: true,
  });
  const sr = body.signatureRequest;
  await h.control.advance(60);
  await h.control.post(`/signatures/${sr.signatures[0].signatureId}/sign`, { values: { f_text: '42', f_check: true, f_drop: 'Blue' } });
  const got = (await h.api(SignatureRequestApi).signatureRequestGet(sr.signatureRequestId)).body.signatureRequest;
  const byId = Object.fromEntries(got.responseData.map((d) => [d.apiId, d]));
  const expect = {
    f_text: sdk.SignatureRequestResponseDataValueText,
    f_sig: sdk.SignatureRequestResponseDataValueSignature,
    f_init: sdk.SignatureRequestResponseDataValueInitials,
    f_date: sdk.SignatureRequestResponseDataValueDateSigned,
    f_check: sdk.SignatureRequestResponseDataValueCheckbox,
    f_drop: sdk.SignatureRequestResponseDataValueDropdown,
    f_radio_a: sdk.SignatureRequestResponseDataValueRadio,
  };
  for (const [id, Cls] of Object.entries(expect)) {
    assert.ok(byId[id], `response_data has ${id}: ${Object.keys(byId).join(', ')}`);
    assert.ok(byId[id] instanceof Cls, `${id} deserializes as ${Cls.name}, got ${byId[id].constructor.name}`);
    assert.equal(byId[id].signatureId, sr.signatures[0].signatureId);
  }
  assert.equal(byId.f_text.value, '42');
  assert.equal(byId.f_check.value, true);
  assert.equal(byId.f_drop.value, 'Blue');
  assert.equal(byId.f_radio_a.value, true);
  assert.equal(typeof byId.f_date.value, 'string');
});

h.test('a template with every field type and merge fields reads back as typed form and custom fields', async () => {
  const merge = [Object.assign(new sdk.SubMergeField(), { name: 'm_text', type: 'text' }), Object.assign(new sdk.SubMergeField(), { name: 'm_check', type: 'checkbox' })];
  const fields = allFields();
  fields.push(field(sdk.SubFormFieldsPerDocumentTextMerge, { apiId: 'm_text', name: 'm_text' }));
  fields.push(field(sdk.SubFormFieldsPerDocumentCheckboxMerge, { apiId: 'm_check', name: 'm_check', width: 14, height: 14 }));
  const id = (await h.api(TemplateApi).templateCreate({
    title: 'All template fields', signerRoles: [{ name: 'Signer' }], files: [pdfUpload('tpl.pdf')],
    formFieldsPerDocument: fields, formFieldGroups: [radioGroup()], mergeFields: merge, testMode: true,
  })).body.template.templateId;
  await h.control.advance(120);
  const t = (await h.api(TemplateApi).templateGet(id)).body.template;
  const doc = t.documents[0];
  const byId = Object.fromEntries(doc.formFields.map((f) => [f.apiId, f]));
  const expect = {
    f_text: sdk.TemplateResponseDocumentFormFieldText,
    f_sig: sdk.TemplateResponseDocumentFormFieldSignature,
    f_init: sdk.TemplateResponseDocumentFormFieldInitials,
    f_date: sdk.TemplateResponseDocumentFormFieldDateSigned,
    f_check: sdk.TemplateResponseDocumentFormFieldCheckbox,
    f_drop: sdk.TemplateResponseDocumentFormFieldDropdown,
    f_radio_a: sdk.TemplateResponseDocumentFormFieldRadio,
    f_link: sdk.TemplateResponseDocumentFormFieldHyperlink,
  };
  for (const [fid, Cls] of Object.entries(expect)) {
    assert.ok(byId[fid], `form field ${fid}: ${Object.keys(byId).join(', ')}`);
    assert.ok(byId[fid] instanceof Cls, `${fid} deserializes as ${Cls.name}, got ${byId[fid].constructor.name}`);
  }
  assert.equal(byId.f_radio_a.group, 'g1');
  const groups = doc.fieldGroups.map((g) => g.name);
  assert.ok(groups.includes('g1') || doc.fieldGroups.length === 1, JSON.stringify(doc.fieldGroups));
  const custom = Object.fromEntries(doc.customFields.map((f) => [f.name, f]));
  assert.ok(custom.m_text instanceof sdk.TemplateResponseDocumentCustomFieldText, `m_text is ${custom.m_text && custom.m_text.constructor.name}`);
  assert.ok(custom.m_check instanceof sdk.TemplateResponseDocumentCustomFieldCheckbox, `m_check is ${custom.m_check && custom.m_check.constructor.name}`);
});
