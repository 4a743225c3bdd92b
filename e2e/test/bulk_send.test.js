'use strict';
// Bulk send through the official SDK: bulk_send_with_template (signer_list
// as JSON, signer_file as a CSV upload), bulk_create_embedded_with_template,
// and BulkSendJobApi get and list.

const fs = require('node:fs');
const { setup, expectHttpError, sdk, assert } = require('../lib/harness');
const { pdfUpload } = require('../lib/pdf');
const { referenceFile, MISSING_REFERENCE } = require('../lib/files');

const h = setup({ config: { fetch_file_urls: false } });
const { SignatureRequestApi, BulkSendJobApi, TemplateApi } = sdk;
const ID40 = /^[0-9a-f]{40}$/;

let templateId;

async function singleRoleTemplate() {
  if (templateId) return templateId;
  templateId = (await h.api(TemplateApi).templateCreate({
    title: 'Bulk template', signerRoles: [{ name: 'Signer' }], files: [pdfUpload()],
    formFieldsPerDocument: [{ type: 'signature', documentIndex: 0, apiId: 's', required: true, signer: '0', x: 10, y: 10, width: 100, height: 30, page: 1 }],
    mergeFields: [{ name: 'ref', type: 'text' }], testMode: true,
  })).body.template.templateId;
  await h.control.advance(120);
  return templateId;
}

function entry(name, email, ref) {
  const l = new sdk.SubBulkSignerList();
  const s = new sdk.SubSignatureRequestTemplateSigner();
  Object.assign(s, { role: 'Signer', name, emailAddress: email });
  l.signers = [s];
  if (ref) {
    const cf = new sdk.SubBulkSignerListCustomField();
    cf.name = 'ref';
    cf.value = ref;
    l.customFields = [cf];
  }
  return l;
}

function checkJob(job) {
  assert.ok(job instanceof sdk.BulkSendJobResponse);
  assert.match(job.bulkSendJobId, ID40);
  assert.equal(typeof job.total, 'number');
  assert.equal(typeof job.isCreator, 'boolean');
  assert.equal(typeof job.createdAt, 'number');
}

h.test('signatureRequestBulkSendWithTemplate (signer_list) makes one request per entry; bulkSendJobGet lists them', async () => {
  const tid = await singleRoleTemplate();
  const req = new sdk.SignatureRequestBulkSendWithTemplateRequest();
  Object.assign(req, { templateIds: [tid], signerList: [entry('One', 'one@example.com', 'R1'), entry('Two', 'two@example.com', 'R2'), entry('Three', 'three@example.com', 'R3')], title: 'Bulk', testMode: true });
  const { response, body } = await h.api(SignatureRequestApi).signatureRequestBulkSendWithTemplate(req);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.BulkSendJobSendResponse);
  const job = body.bulkSendJob;
  checkJob(job);
  assert.equal(job.total, 3);
  assert.equal(job.isCreator, true);
  await h.control.advance(120);

  const got = await h.api(BulkSendJobApi).bulkSendJobGet(job.bulkSendJobId, 1, 2);
  assert.equal(got.response.status, 200);
  assert.ok(got.body instanceof sdk.BulkSendJobGetResponse);
  checkJob(got.body.bulkSendJob);
  assert.ok(got.body.listInfo instanceof sdk.ListInfoResponse);
  assert.deepEqual({ ...got.body.listInfo }, { numPages: 2, numResults: 3, page: 1, pageSize: 2 });
  assert.equal(got.body.signatureRequests.length, 2);
  for (const sr of got.body.signatureRequests) {
    assert.ok(sr instanceof sdk.BulkSendJobGetResponseSignatureRequests);
    assert.match(sr.signatureRequestId, ID40);
    assert.equal(sr.bulkSendJobId, job.bulkSendJobId);
  }
  const page2 = (await h.api(BulkSendJobApi).bulkSendJobGet(job.bulkSendJobId, 2, 2)).body;
  const emails = [...got.body.signatureRequests, ...page2.signatureRequests].map((s) => s.signatures[0].signerEmailAddress).sort();
  assert.deepEqual(emails, ['one@example.com', 'three@example.com', 'two@example.com']);
  const one = (await h.api(SignatureRequestApi).signatureRequestGet(got.body.signatureRequests[0].signatureRequestId)).body.signatureRequest;
  assert.equal(one.bulkSendJobId, job.bulkSendJobId);
});

h.test('signatureRequestBulkSendWithTemplate with the official CSV as signer_file (fs.ReadStream)', async (t) => {
  const csv = referenceFile('test_fixtures', 'bulk-send-sample.csv');
  if (!csv) return t.skip(MISSING_REFERENCE);
  const tid = await singleRoleTemplate();
  const { body } = await h.api(SignatureRequestApi).signatureRequestBulkSendWithTemplate({ templateIds: [tid], signerFile: fs.createReadStream(csv), testMode: true });
  checkJob(body.bulkSendJob);
  assert.equal(body.bulkSendJob.total, 2);
});

h.test('signatureRequestBulkCreateEmbeddedWithTemplate needs client_id; bulkSendJobList lists the jobs', async () => {
  const tid = await singleRoleTemplate();
  const api = h.api(SignatureRequestApi);
  await expectHttpError(api.signatureRequestBulkCreateEmbeddedWithTemplate({ templateIds: [tid], signerList: [entry('E', 'e@example.com')], testMode: true }), { status: 400, errorName: 'bad_request', errorPath: 'client_id' });
  const req = new sdk.SignatureRequestBulkCreateEmbeddedWithTemplateRequest();
  Object.assign(req, { templateIds: [tid], clientId: h.world.client_id, signerList: [entry('E1', 'e1@example.com'), entry('E2', 'e2@example.com')], testMode: true });
  const { response, body } = await api.signatureRequestBulkCreateEmbeddedWithTemplate(req);
  assert.equal(response.status, 200);
  checkJob(body.bulkSendJob);
  assert.equal(body.bulkSendJob.total, 2);

  const list = await h.api(BulkSendJobApi).bulkSendJobList(1, 20);
  assert.ok(list.body instanceof sdk.BulkSendJobListResponse);
  assert.ok(list.body.listInfo instanceof sdk.ListInfoResponse);
  list.body.bulkSendJobs.forEach(checkJob);
  assert.ok(list.body.bulkSendJobs.some((j) => j.bulkSendJobId === body.bulkSendJob.bulkSendJobId));
});

h.test('bulk send refuses both or neither of signer_list and signer_file, and an unknown job', async () => {
  const tid = await singleRoleTemplate();
  const api = h.api(SignatureRequestApi);
  await expectHttpError(api.signatureRequestBulkSendWithTemplate({ templateIds: [tid], testMode: true }), { status: 400, errorName: 'bad_request' });
  await expectHttpError(h.api(BulkSendJobApi).bulkSendJobGet('0'.repeat(40)), { status: 404, errorName: 'not_found' });
});
