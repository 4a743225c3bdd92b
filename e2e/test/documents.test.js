'use strict';
// Documents through the official SDK: real PDF handling of uploads (page
// counts), the 409 while files are prepared, and every download form for
// signature requests and templates: binary PDF and ZIP (Buffer), data URI,
// file URL served by the sandbox; 410 after cancelation.

const { setup, expectHttpError, signer, sdk, assert } = require('../lib/harness');
const { pdfUpload, isPDF, countPages } = require('../lib/pdf');
const { samplePDF, MISSING_REFERENCE } = require('../lib/files');
const fs = require('node:fs');

const h = setup({ config: { fetch_file_urls: false } });
const { SignatureRequestApi, TemplateApi } = sdk;

function checkRequestShape(sr) {
  assert.ok(sr instanceof sdk.SignatureRequestResponse);
  assert.match(sr.signatureRequestId, /^[0-9a-f]{40}$/);
}

function process() { return h.control.advancePast('send_processing_delay'); }
function prepareFiles() { return h.control.advancePast('file_preparation_delay'); }
function prepareTemplate() { return h.control.advancePast('template_preparation_delay'); }

h.test('form fields may sit on any page of a multi-page upload', async () => {
  const sig = new sdk.SubFormFieldsPerDocumentSignature();
  Object.assign(sig, { documentIndex: 0, apiId: 'p3', required: true, signer: '0', x: 100, y: 200, width: 120, height: 30, page: 3 });
  const { body } = await h.api(SignatureRequestApi).signatureRequestSend({
    title: 'Three pages', signers: [signer('P', 'p@example.com')], files: [pdfUpload('three.pdf', { pages: 3 })], formFieldsPerDocument: [sig], testMode: true,
  });
  checkRequestShape(body.signatureRequest);
  await expectHttpError(h.api(SignatureRequestApi).signatureRequestSend({
    title: 'Too far', signers: [signer('P', 'p@example.com')], files: [pdfUpload('three.pdf', { pages: 3 })], formFieldsPerDocument: [{ ...sig, page: 4 }], testMode: true,
  }), { status: 400, errorName: 'bad_request', errorPath: 'form_fields_per_document[0][page]' });
});

h.test('downloads: 409 while preparing, then PDF and ZIP Buffers, data URI and file URL', async () => {
  const req = new sdk.SignatureRequestSendRequest();
  Object.assign(req, { title: 'Files', signers: [signer('F', 'f@example.com')], files: [pdfUpload('one.pdf', { pages: 2 }), pdfUpload('two.pdf')], testMode: true });
  const sr = (await h.api(SignatureRequestApi).signatureRequestSend(req)).body.signatureRequest;
  const api = h.api(SignatureRequestApi);
  await expectHttpError(api.signatureRequestFiles(sr.signatureRequestId), { status: 409, errorName: 'conflict' });
  await expectHttpError(api.signatureRequestFilesAsDataUri(sr.signatureRequestId), { status: 409, errorName: 'conflict' });
  await expectHttpError(api.signatureRequestFilesAsFileUrl(sr.signatureRequestId), { status: 409, errorName: 'conflict' });
  await process();
  await prepareFiles();

  const pdf = await api.signatureRequestFiles(sr.signatureRequestId, 'pdf');
  assert.equal(pdf.response.status, 200);
  assert.ok(Buffer.isBuffer(pdf.body), `body is a Buffer, got ${pdf.body && pdf.body.constructor.name}`);
  assert.match(pdf.response.headers['content-type'], /^application\/pdf/);
  assert.ok(isPDF(pdf.body));
  assert.ok(countPages(pdf.body) >= 3, `the merged PDF has at least the 3 uploaded pages (${countPages(pdf.body)})`);

  const zip = await api.signatureRequestFiles(sr.signatureRequestId, 'zip');
  assert.ok(Buffer.isBuffer(zip.body));
  assert.match(zip.response.headers['content-type'], /^application\/zip/);
  assert.equal(zip.body.subarray(0, 2).toString('latin1'), 'PK');

  const uri = await api.signatureRequestFilesAsDataUri(sr.signatureRequestId);
  assert.ok(uri.body instanceof sdk.FileResponseDataUri);
  const m = /^data:application\/pdf;base64,(.+)$/.exec(uri.body.dataUri);
  assert.ok(m, 'a PDF data URI');
  assert.ok(Buffer.from(m[1], 'base64').equals(pdf.body), 'the data URI holds the same bytes as the binary download');

  const url = await api.signatureRequestFilesAsFileUrl(sr.signatureRequestId, 1);
  assert.ok(url.body instanceof sdk.FileResponse);
  assert.equal(typeof url.body.expiresAt, 'number');
  const { now } = await h.control.clock();
  assert.ok(url.body.expiresAt > now);
  const fetched = await fetch(url.body.fileUrl);
  assert.equal(fetched.status, 200);
  assert.ok(Buffer.from(await fetched.arrayBuffer()).equals(pdf.body), 'the file URL serves the same PDF');
});

h.test('template files: PDF and ZIP Buffers, data URI, file URL', async () => {
  const id = (await h.api(TemplateApi).templateCreate({ title: 'T', signerRoles: [{ name: 'S' }], files: [pdfUpload('a.pdf', { pages: 2 }), pdfUpload('b.pdf')], formFieldsPerDocument: [{ type: 'signature', documentIndex: 0, apiId: 's', required: true, signer: '0', x: 10, y: 10, width: 100, height: 30, page: 2 }], testMode: true })).body.template.templateId;
  const api = h.api(TemplateApi);
  await expectHttpError(api.templateFiles(id), { status: 409, errorName: 'conflict' });
  await expectHttpError(api.templateFilesAsDataUri(id), { status: 409, errorName: 'conflict' });
  await prepareTemplate();
  const pdf = await api.templateFiles(id, 'pdf');
  assert.ok(Buffer.isBuffer(pdf.body));
  assert.match(pdf.response.headers['content-type'], /^application\/pdf/);
  assert.ok(isPDF(pdf.body));
  assert.equal(countPages(pdf.body), 3);
  const zip = await api.templateFiles(id, 'zip');
  assert.match(zip.response.headers['content-type'], /^application\/zip/);
  assert.equal(zip.body.subarray(0, 2).toString('latin1'), 'PK');
  const uri = await api.templateFilesAsDataUri(id);
  assert.ok(uri.body instanceof sdk.FileResponseDataUri);
  assert.ok(Buffer.from(uri.body.dataUri.replace(/^data:application\/pdf;base64,/, ''), 'base64').equals(pdf.body));
  const url = await api.templateFilesAsFileUrl(id, 1);
  assert.ok(url.body instanceof sdk.FileResponse);
  const got = await fetch(url.body.fileUrl);
  assert.equal(got.status, 200);
  assert.ok(Buffer.from(await got.arrayBuffer()).equals(pdf.body));
});


h.test('file URLs expire on the world clock; force_download=0 displays inline', async () => {
  const sr = (await h.api(SignatureRequestApi).signatureRequestSend({ title: 'Expiring', signers: [signer('E', 'e@example.com')], files: [pdfUpload()], testMode: true })).body.signatureRequest;
  await process();
  await prepareFiles();
  const api = h.api(SignatureRequestApi);
  const inline = (await api.signatureRequestFilesAsFileUrl(sr.signatureRequestId, 0)).body;
  const r = await fetch(inline.fileUrl);
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type'), /^application\/pdf/);
  assert.match(r.headers.get('content-disposition') || 'inline', /^inline/);
  const dl = (await api.signatureRequestFilesAsFileUrl(sr.signatureRequestId, 1)).body;
  const r2 = await fetch(dl.fileUrl);
  assert.match(r2.headers.get('content-disposition') || '', /^attachment/);
  const { now } = await h.control.clock();
  await h.control.advance(dl.expiresAt - now + 1);
  const late = await fetch(dl.fileUrl);
  assert.ok(late.status >= 400 && late.status < 500, `an expired file URL answers 4xx, got ${late.status}`);
});

h.test('the binary download names the file in Content-Disposition', async () => {
  const sr = (await h.api(SignatureRequestApi).signatureRequestSend({ title: 'Named', signers: [signer('N', 'n@example.com')], files: [pdfUpload()], testMode: true })).body.signatureRequest;
  await process();
  await prepareFiles();
  const pdf = await h.api(SignatureRequestApi).signatureRequestFiles(sr.signatureRequestId, 'pdf');
  assert.match(pdf.response.headers['content-disposition'], /^attachment; filename="?[^"]+\.pdf"?/);
  const zip = await h.api(SignatureRequestApi).signatureRequestFiles(sr.signatureRequestId, 'zip');
  assert.match(zip.response.headers['content-disposition'], /\.zip"?$/);
});

h.test('after cancelation every download form answers 410', async () => {
  const sr = (await h.api(SignatureRequestApi).signatureRequestSend({ title: 'Canceled', signers: [signer('C', 'c@example.com')], files: [pdfUpload()], testMode: true })).body.signatureRequest;
  await process();
  await prepareFiles();
  const api = h.api(SignatureRequestApi);
  await api.signatureRequestCancel(sr.signatureRequestId);
  await h.control.advancePast('cancel_delay');
  await expectHttpError(api.signatureRequestFiles(sr.signatureRequestId), { status: 410, errorName: 'deleted' });
  await expectHttpError(api.signatureRequestFilesAsDataUri(sr.signatureRequestId), { status: 410, errorName: 'deleted' });
  await expectHttpError(api.signatureRequestFilesAsFileUrl(sr.signatureRequestId), { status: 410, errorName: 'deleted' });
});

h.test('an fs.ReadStream of the official sample PDF uploads with its real page count', async (t) => {
  const sample = samplePDF();
  if (!sample) return t.skip(MISSING_REFERENCE);
  const sr = (await h.api(SignatureRequestApi).signatureRequestSend({ title: 'Sample', signers: [signer('S', 's@example.com')], files: [fs.createReadStream(sample)], testMode: true })).body.signatureRequest;
  checkRequestShape(sr);
  await process();
  await prepareFiles();
  const pdf = (await h.api(SignatureRequestApi).signatureRequestFiles(sr.signatureRequestId)).body;
  assert.ok(isPDF(pdf));
  assert.ok(countPages(pdf) >= countPages(fs.readFileSync(sample)));
});

h.test('a corrupt upload ends the request in error (has_error, error_file)', async () => {
  const broken = { value: Buffer.from('%PDF-1.4\nthis is not really a pdf'), options: { filename: 'broken.pdf', contentType: 'application/pdf' } };
  let sr;
  try {
    sr = (await h.api(SignatureRequestApi).signatureRequestSend({ title: 'Broken', signers: [signer('B', 'b@example.com')], files: [broken], testMode: true })).body.signatureRequest;
  } catch (e) {
    // Refusing it at once with a 400 is the other documented answer.
    assert.ok(e instanceof sdk.HttpError && e.statusCode === 400, String(e));
    return;
  }
  await process();
  const cur = (await h.api(SignatureRequestApi).signatureRequestGet(sr.signatureRequestId)).body.signatureRequest;
  assert.equal(cur.hasError, true);
  assert.ok(cur.signatures.every((s) => s.statusCode === 'error_file'), cur.signatures.map((s) => s.statusCode).join(','));
  const { callbacks } = await h.control.get(`/callbacks?object_id=${sr.signatureRequestId}&event_type=file_error`);
  assert.equal(callbacks.length, 1);
});

h.test('file_urls are fetched by the sandbox; an unreachable one ends in file_error', async () => {
  const http = require('node:http');
  const { makePDF } = require('../lib/pdf');
  const served = makePDF({ pages: 2 });
  const srv = http.createServer((req, res) => {
    if (req.url === '/two.pdf') {
      res.writeHead(200, { 'Content-Type': 'application/pdf' });
      res.end(served);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${srv.address().port}`;
  try {
    const w = await h.newWorld();
    const ctl = h.controlFor(w.api_key);
    await ctl.config({ fetch_file_urls: true });
    const api = h.api(SignatureRequestApi, { apiKey: w.api_key });
    const sig = { type: 'signature', documentIndex: 0, apiId: 's', required: true, signer: '0', x: 10, y: 10, width: 100, height: 30, page: 2 };
    const sr = (await api.signatureRequestSend({ title: 'Fetched', signers: [signer('F', 'f@example.com')], fileUrls: [`${base}/two.pdf`], formFieldsPerDocument: [sig], testMode: true })).body.signatureRequest;
    await ctl.advancePast('send_processing_delay', 'file_preparation_delay');
    const pdf = (await api.signatureRequestFiles(sr.signatureRequestId)).body;
    assert.ok(countPages(pdf) >= 2, `the fetched 2-page document is in the download (${countPages(pdf)} pages)`);

    const bad = (await api.signatureRequestSend({ title: 'Nowhere', signers: [signer('N', 'n@example.com')], fileUrls: [`${base}/missing.pdf`], testMode: true })).body.signatureRequest;
    await ctl.advancePast('send_processing_delay');
    const cur = (await api.signatureRequestGet(bad.signatureRequestId)).body.signatureRequest;
    assert.equal(cur.hasError, true);
    assert.ok(cur.signatures.every((s) => s.statusCode === 'error_file'));
  } finally {
    srv.closeAllConnections();
    await new Promise((r) => srv.close(r));
  }
});
