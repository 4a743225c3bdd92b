'use strict';
// The legacy HelloSign Node SDK (hellosign-sdk, pinned to 2.1.0) against the
// sandbox, through its own methods only: older integrations still run on it,
// and they send the API's older verbs (POST /account, POST /team, ...) and
// parameter forms (file[0], file_url[0], signers keyed by role name, JSON
// text for custom and merge fields). Each test checks what the SDK hands its
// caller and, where it matters, what the world holds afterwards.

const http = require('node:http');
const https = require('node:https');
// hellosign-sdk writes a request's body and ends the request only on its
// socket's 'connect' event. A keep-alive socket reused from the pool (the
// default agents of Node 19 and later keep sockets alive) never emits it, so
// the second request on it hangs. Integrations on such Node versions give the
// SDK agents without keep-alive, and so does this suite.
http.globalAgent = new http.Agent({ keepAlive: false });
https.globalAgent = new https.Agent({ keepAlive: false });

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { after } = require('node:test');
const HelloSign = require('hellosign-sdk');
const { setup, assert, FIXTURE } = require('../lib/harness');
const { makePDF, isPDF } = require('../lib/pdf');

const h = setup({ config: { fetch_file_urls: false } });
const ID40 = /^[0-9a-f]{40}$/;

// The SDK uploads files by path.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'legacy-sdk-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
function pdfFile(name, opts) {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, makePDF(opts));
  return p;
}

/** A hellosign-sdk client of this world, as an integrator sets one up. */
function client(key = h.world.api_key) {
  const hs = HelloSign({ key, client_id: h.world.client_id });
  const u = new URL(h.base);
  hs.setHost(u.hostname, u.port, 'http');
  return hs;
}

/** Reads a response stream (downloads) to a Buffer. */
function readAll(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** Awaits promise and answers the SDK's error (type is the error_name). */
async function sdkError(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail('expected the call to fail');
}

const processed = () => h.control.advancePast('send_processing_delay');

h.test('legacy SDK: account.get, account.update (POST /v3/account) with callback_url', async () => {
  const hs = client();
  const got = await hs.account.get();
  assert.equal(got.statusCode, 200);
  assert.equal(got.account.email_address, FIXTURE.owner.email);
  assert.equal(got.account.callback_url, null);

  const updated = await hs.account.update({ callback_url: 'https://example.com/legacy-hook' });
  assert.equal(updated.statusCode, 200);
  assert.equal(updated.account.callback_url, 'https://example.com/legacy-hook');
  assert.equal((await hs.account.get()).account.callback_url, 'https://example.com/legacy-hook');
  const cleared = await hs.account.update({ callback_url: '' });
  assert.equal(cleared.account.callback_url, null);

  const verified = await hs.account.verify({ email_address: FIXTURE.teammate.email });
  assert.equal(verified.account.email_address, FIXTURE.teammate.email);
});

h.test('legacy SDK: signatureRequest.send with files (file[0]) and with file_url, get, list with query', async () => {
  const hs = client();
  const withFiles = await hs.signatureRequest.send({
    test_mode: 1, title: 'Legacy NDA', subject: 'NDA', message: 'Please sign',
    signers: [{ email_address: 'jack@example.com', name: 'Jack', order: 0 }, { email_address: 'jill@example.com', name: 'Jill', order: 1 }],
    cc_email_addresses: ['lawyer@example.com'],
    metadata: { custom_id: '1234', note: 'legacy' },
    files: [pdfFile('nda.pdf', { pages: 2 })],
  });
  assert.equal(withFiles.statusCode, 200);
  const sr = withFiles.signature_request;
  assert.match(sr.signature_request_id, ID40);
  assert.equal(sr.title, 'Legacy NDA');
  assert.deepEqual(sr.signatures.map((s) => s.signer_email_address), ['jack@example.com', 'jill@example.com']);
  assert.deepEqual(sr.cc_email_addresses, ['lawyer@example.com']);
  assert.deepEqual(sr.metadata, { custom_id: '1234', note: 'legacy' });

  const withURL = await hs.signatureRequest.send({
    test_mode: 1, title: 'Legacy lease', file_url: ['https://example.com/lease.pdf', 'https://example.com/annex.pdf'],
    signers: [{ email_address: 'tenant@example.com', name: 'Tenant' }],
  });
  assert.equal(withURL.statusCode, 200);
  assert.equal(withURL.signature_request.title, 'Legacy lease');
  await processed();

  const got = await hs.signatureRequest.get(sr.signature_request_id);
  assert.equal(got.signature_request.signature_request_id, sr.signature_request_id);
  assert.equal(got.signature_request.signatures.length, 2);

  const list = await hs.signatureRequest.list({ query: 'title:lease', page_size: 10 });
  assert.equal(list.statusCode, 200);
  assert.deepEqual(list.signature_requests.map((r) => r.title), ['Legacy lease']);
  assert.equal(list.list_info.num_results, 1);
});

h.test('legacy SDK: remind, update, download, cancel', async () => {
  const hs = client();
  const sr = (await hs.signatureRequest.send({
    test_mode: 1, title: 'Remind me', signers: [{ email_address: 'slow@example.com', name: 'Slow' }], files: [pdfFile('r.pdf')],
    // A placed field: a request with an appended signature page cannot be updated.
    form_fields_per_document: [{ type: 'signature', document_index: 0, api_id: 'sig', required: true, signer: 0, x: 100, y: 100, width: 120, height: 30, page: 1 }],
  })).signature_request;
  await processed();
  const id = sr.signature_request_id;

  const reminded = await hs.signatureRequest.remind(id, { email_address: 'slow@example.com' });
  assert.equal(reminded.statusCode, 200);
  assert.equal(reminded.signature_request.signature_request_id, id);

  const updated = await hs.signatureRequest.update(id, { signature_id: sr.signatures[0].signature_id, email_address: 'fast@example.com' });
  assert.equal(updated.statusCode, 200);
  assert.equal(updated.signature_request.signatures[0].signer_email_address, 'fast@example.com');

  await h.control.advancePast('file_preparation_delay');
  const res = await hs.signatureRequest.download(id, { file_type: 'pdf' });
  assert.equal(res.statusCode, 200);
  assert.ok(isPDF(await readAll(res)), 'the download is a PDF');

  const canceled = await hs.signatureRequest.cancel(id);
  assert.equal(canceled.statusCode, 200);
  await h.control.advancePast('cancel_delay');
  const gone = await sdkError(hs.signatureRequest.get(id));
  assert.equal(gone.type, 'deleted');
});

h.test('legacy SDK: createEmbedded with the client id, embedded.getSignUrl', async () => {
  const hs = client();
  const created = await hs.signatureRequest.createEmbedded({
    test_mode: 1, title: 'Embedded', signers: [{ email_address: 'emma@example.com', name: 'Emma' }], files: [pdfFile('e.pdf')],
  });
  assert.equal(created.statusCode, 200);
  await processed();
  const url = await hs.embedded.getSignUrl(created.signature_request.signatures[0].signature_id);
  assert.equal(url.statusCode, 200);
  assert.match(url.embedded.sign_url, /^https?:\/\//);
  assert.equal(typeof url.embedded.expires_at, 'number');
});

/** A finished embedded template draft with two roles (one with a space) and a CC role. */
async function legacyTemplate(hs) {
  const draft = await hs.template.createEmbeddedDraft({
    test_mode: 1, title: 'Legacy agreement', subject: 'Please sign', message: 'Thanks',
    files: [pdfFile('agreement.pdf')],
    signer_roles: [{ name: 'Client Party', order: 0 }, { name: 'Witness', order: 1 }],
    cc_roles: ['Account Manager'],
    merge_fields: [{ name: 'Full Name', type: 'text' }],
  });
  assert.equal(draft.statusCode, 200);
  const tpl = draft.template;
  assert.match(tpl.template_id, ID40);
  assert.match(tpl.edit_url, /^https?:\/\//);
  await h.control.post(`/templates/${tpl.template_id}/finish_draft`, {});
  await h.control.advancePast('template_preparation_delay');
  return tpl.template_id;
}

h.test('legacy SDK: template createEmbeddedDraft, sendWithTemplate with role-keyed signers and CCs, addUser, getEditUrl (GET), delete', async () => {
  const hs = client();
  const templateId = await legacyTemplate(hs);
  const tpl = (await hs.template.get(templateId)).template;
  assert.deepEqual(tpl.signer_roles.map((r) => r.name), ['Client Party', 'Witness']);
  assert.deepEqual(tpl.cc_roles.map((r) => r.name), ['Account Manager']);

  // The SDK turns role signers into signers[Client Party][name]=... and
  // ccs into ccs[Account Manager][email_address]=...
  const sent = await hs.signatureRequest.sendWithTemplate({
    test_mode: 1, template_id: templateId, title: 'From the legacy SDK',
    signers: [
      { role: 'Witness', name: 'Wendy', email_address: 'wendy@example.com' },
      { role: 'Client Party', name: 'Carl', email_address: 'carl@example.com', pin: '1234' },
    ],
    ccs: [{ role_name: 'Account Manager', email_address: 'manager@example.com' }],
    custom_fields: [{ name: 'Full Name', value: 'Carl Client' }],
  });
  assert.equal(sent.statusCode, 200);
  const sr = sent.signature_request;
  const byRole = Object.fromEntries(sr.signatures.map((s) => [s.signer_role, s.signer_email_address]));
  assert.deepEqual(byRole, { 'Client Party': 'carl@example.com', Witness: 'wendy@example.com' });
  assert.deepEqual(sr.cc_email_addresses, ['manager@example.com']);
  const full = sr.custom_fields.find((f) => f.name === 'Full Name');
  assert.equal(full && full.value, 'Carl Client');

  const files = await hs.template.files(templateId, { file_type: 'pdf' });
  assert.equal(files.statusCode, 200);
  assert.ok(isPDF(await readAll(files)), 'the template download is a PDF');

  const added = await hs.template.addUser(templateId, { email_address: FIXTURE.teammate.email });
  assert.equal(added.statusCode, 200);
  assert.ok(added.template.accounts.some((a) => a.email_address === FIXTURE.teammate.email));

  // GET /v3/embedded/edit_url/{id} with its options in the query string.
  const edit = await hs.embedded.getEditUrl(templateId, { test_mode: 1, cc_roles: ['Auditor'] });
  assert.equal(edit.statusCode, 200);
  assert.match(edit.embedded.edit_url, /^https?:\/\//);

  const deleted = await hs.template.delete(templateId);
  assert.equal(deleted.statusCode, 200);
  const gone = await sdkError(hs.template.get(templateId));
  assert.ok(['not_found', 'deleted'].includes(gone.type), gone.type);
});

h.test('legacy SDK: unclaimedDraft create, createEmbedded, createEmbeddedWithTemplate (role-keyed signers)', async () => {
  const hs = client();
  const draft = await hs.unclaimedDraft.create({
    test_mode: 1, type: 'request_signature', file_url: ['https://example.com/draft.pdf'],
    signers: [{ email_address: 'claimer@example.com', name: 'Claimer' }],
  });
  assert.equal(draft.statusCode, 200);
  assert.match(draft.unclaimed_draft.claim_url, /^https?:\/\//);

  const embedded = await hs.unclaimedDraft.createEmbedded({
    test_mode: 1, requester_email_address: FIXTURE.owner.email, files: [pdfFile('u.pdf')],
  });
  assert.equal(embedded.statusCode, 200);
  assert.match(embedded.unclaimed_draft.claim_url, /^https?:\/\//);

  const templateId = await legacyTemplate(hs);
  const fromTemplate = await hs.unclaimedDraft.createEmbeddedWithTemplate({
    test_mode: 1, template_id: templateId, requester_email_address: FIXTURE.owner.email,
    signers: [{ role: 'Client Party', name: 'Carl', email_address: 'carl@example.com' }, { role: 'Witness', name: 'Wendy', email_address: 'wendy@example.com' }],
    ccs: [{ role_name: 'Account Manager', email_address: 'manager@example.com' }],
  });
  assert.equal(fromTemplate.statusCode, 200);
  assert.match(fromTemplate.unclaimed_draft.signature_request_id, ID40);
});

h.test('legacy SDK: team get, update (POST /v3/team), addMember and removeMember (POST), create and destroy (POST)', async () => {
  const hs = client();
  const team = await hs.team.get();
  assert.equal(team.team.name, 'Sandbox Team');
  const renamed = await hs.team.update({ name: 'Legacy Team' });
  assert.equal(renamed.statusCode, 200);
  assert.equal(renamed.team.name, 'Legacy Team');
  assert.equal((await hs.team.get()).team.name, 'Legacy Team');

  const invited = await hs.team.addMember({ email_address: 'newcomer@example.com' });
  assert.equal(invited.statusCode, 200);
  assert.ok(invited.team.invited_emails.includes('newcomer@example.com'), JSON.stringify(invited.team.invited_emails));
  const removed = await hs.team.removeMember({ email_address: 'newcomer@example.com' });
  assert.equal(removed.statusCode, 201, 'teamRemoveMember answers 201, as the official description says');
  assert.ok(!removed.team.invited_emails.includes('newcomer@example.com'));

  const outsider = client(await h.keyOf(FIXTURE.outsider.id));
  const created = await outsider.team.create({ name: 'Outsider Team' });
  assert.equal(created.team.name, 'Outsider Team');
  const destroyed = await outsider.team.destroy();
  assert.equal(destroyed.statusCode, 200);
  const gone = await sdkError(outsider.team.get());
  assert.equal(gone.type, 'not_found');
});

h.test('legacy SDK: apiApp list, get, create (domain), update, delete', async () => {
  const hs = client();
  const list = await hs.apiApp.list();
  assert.ok(list.api_apps.some((a) => a.client_id === h.world.client_id));
  const got = await hs.apiApp.get(h.world.client_id);
  assert.equal(got.api_app.client_id, h.world.client_id);

  const created = await hs.apiApp.create({ name: 'Legacy App', domain: 'legacy.example.com' });
  assert.equal(created.statusCode, 201);
  const app = created.api_app;
  assert.deepEqual(app.domains, ['legacy.example.com']);
  const updated = await hs.apiApp.update(app.client_id, { name: 'Legacy App v2' });
  assert.equal(updated.api_app.name, 'Legacy App v2');
  const deleted = await hs.apiApp.delete(app.client_id);
  assert.equal(deleted.statusCode, 204);
  const gone = await sdkError(hs.apiApp.get(app.client_id));
  assert.equal(gone.type, 'not_found');
});

h.test('legacy SDK: bulkSendWithTemplate (old signer_list), bulkSendJob get and list', async () => {
  const hs = client();
  const tpl = await hs.template.createEmbeddedDraft({
    test_mode: 1, title: 'Bulk', files: [pdfFile('bulk.pdf')], signer_roles: [{ name: 'Signer' }],
    merge_fields: [{ name: 'ref', type: 'text' }],
  });
  const templateId = tpl.template.template_id;
  await h.control.post(`/templates/${templateId}/finish_draft`, {});
  await h.control.advancePast('template_preparation_delay');

  // signer_list in the old API reference's shape, as JSON text.
  const sent = await hs.signatureRequest.bulkSendWithTemplate({
    test_mode: 1, template_id: templateId, title: 'Legacy bulk',
    signer_list: JSON.stringify([
      { signers: { Signer: { name: 'One', email_address: 'one@example.com' } }, custom_fields: { ref: 'R1' } },
      { signers: { Signer: { name: 'Two', email_address: 'two@example.com' } } },
    ]),
  });
  assert.equal(sent.statusCode, 200);
  const job = sent.bulk_send_job;
  assert.match(job.bulk_send_job_id, ID40);
  assert.equal(job.total, 2);
  await h.control.advance(120);

  const got = await hs.bulkSendJob.get(job.bulk_send_job_id);
  assert.equal(got.bulk_send_job.bulk_send_job_id, job.bulk_send_job_id);
  assert.equal(got.signature_requests.length, 2);
  const list = await hs.bulkSendJob.list();
  assert.ok(list.bulk_send_jobs.some((j) => j.bulk_send_job_id === job.bulk_send_job_id));
});

h.test('legacy SDK: a body with both the old and the current shape is refused, naming both', async () => {
  const hs = client();
  const e = await sdkError(hs.signatureRequest.send({
    test_mode: 1, file_url: ['https://example.com/a.pdf'], file_urls: ['https://example.com/b.pdf'],
    signers: [{ email_address: 'a@example.com', name: 'A' }],
  }));
  assert.equal(e.type, 'bad_request');
  assert.match(e.message, /file_url and file_urls/);
});

h.test('legacy SDK: reports.get (GET /v3/get_report with the parameters in the query)', async () => {
  const hs = client();
  const report = await hs.reports.get({ start_date: '12/01/2024', end_date: '01/01/2025', report_type: 'user_activity' });
  assert.equal(report.statusCode, 200);
  assert.equal(report.report.start_date, '12/01/2024');
  assert.deepEqual(report.report.report_type, ['user_activity']);
  const e = await sdkError(hs.reports.get({}));
  assert.equal(e.type, 'bad_request');
});
