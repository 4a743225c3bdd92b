'use strict';
// The embedded flows in a real browser, with the official hellosign-embedded
// library: objects are made through the official Node SDK, the URL it answers
// (sign_url, edit_url, claim_url) is opened by `new HelloSign({clientId})
// .open(url, {testMode: true})` on an integrator's page of its own origin, and
// headless Chromium (playwright-core) clicks inside the sandbox's page in the
// iframe. The tests read the events the library emits, exactly what an
// integrator's client.on(...) handlers see, then check the outcome through
// the SDK and the world's events.
//
// Without Chromium every test here skips with the reason (see
// browser/chromium.js); `npm test` still passes.

const { before, after } = require('node:test');
const { setup, signer, sdk, assert } = require('../lib/harness');
const { pdfUpload } = require('../lib/pdf');
const record = require('../lib/record');
const { findChromium, launch } = require('./chromium');
const { startHost, openSession, VERSION } = require('./host');

const h = setup({ config: { fetch_file_urls: false } });
const { SignatureRequestApi, EmbeddedApi, TemplateApi, UnclaimedDraftApi } = sdk;

const chromium = findChromium();
let browser;
let host;

before(async () => {
  if (!chromium.path) return;
  [browser, host] = await Promise.all([launch(chromium.path), startHost()]);
});
after(async () => {
  if (browser) await browser.close();
  if (host) await host.close();
});

/** h.test, skipped with the reason when there is no browser; s is a fresh session. */
function browserTest(name, fn) {
  h.test(name, async (t) => {
    if (!chromium.path) {
      record.note(`browser:skipped:${chromium.reason}`);
      t.skip(chromium.reason);
      return;
    }
    record.note(`browser:chromium:${browser.version()}`);
    const s = await openSession(browser, host.url);
    try {
      await fn(s, t);
      assert.deepEqual(s.consoleErrors, [], 'no uncaught errors in the host page or the library');
    } finally {
      await s.close();
    }
  });
}

/** An embedded request with one signer, processed; answers {request, signatureId, signUrl}. */
async function embeddedRequest(title, who, extra = {}) {
  const req = new sdk.SignatureRequestCreateEmbeddedRequest();
  Object.assign(req, { clientId: h.world.client_id, title, signers: [signer(who.name, who.email)], files: [pdfUpload(`${title}.pdf`)], testMode: true, ...extra });
  const sr = (await h.api(SignatureRequestApi).signatureRequestCreateEmbedded(req)).body.signatureRequest;
  await h.control.advance(60);
  const signatureId = sr.signatures[0].signatureId;
  const { signUrl } = (await h.api(EmbeddedApi).embeddedSignUrl(signatureId)).body.embedded;
  return { request: sr, signatureId, signUrl };
}

/** The event types the world recorded for an object, in order. */
async function eventTypes(objectId) {
  const { callbacks } = await h.control.get(`/callbacks?object_id=${objectId}`);
  return callbacks.map((c) => c.event_type);
}

/** The URL the library put in the iframe keeps the sandbox's and adds its own parameters. */
function checkFrameURL(opened, url) {
  const u = new URL(opened.url);
  const base = new URL(url);
  assert.equal(u.origin + u.pathname, base.origin + base.pathname, 'the iframe shows the URL the API answered');
  assert.equal(u.searchParams.get('client_id'), h.world.client_id);
  assert.equal(u.searchParams.get('skip_domain_verification'), '1', 'testMode sets skip_domain_verification');
  assert.equal(u.searchParams.get('parent_url'), host.url);
  assert.equal(u.searchParams.get('js_version'), VERSION);
  assert.equal(u.searchParams.get('ux_version'), '2');
}

browserTest('signing: ready, Sign in the iframe, then sign (signatureId), finish and close; the request is signed', async (s) => {
  const { request, signatureId, signUrl } = await embeddedRequest('Browser sign', { name: 'Bianca', email: 'bianca@example.com' });
  await s.open(signUrl, h.world.client_id);
  checkFrameURL(await s.waitFor('open'), signUrl);
  assert.deepEqual(await s.waitFor('ready'), { signatureId });
  // The request has no fields: Bianca signs in her box on the appended
  // signature page (adopting her name) before Sign is enabled.
  const sign = s.frame().getByRole('button', { name: 'Sign as Bianca' });
  await s.frame().locator('[data-api-id="signature_page_1"] .adopt').click();
  assert.equal(await sign.isEnabled(), true, 'signed in her box');
  await sign.click();
  assert.deepEqual(await s.waitFor('sign'), { signatureId });
  await s.waitFor('close');
  assert.deepEqual(await s.names(), ['open', 'ready', 'sign', 'finish', 'close']);
  assert.equal(await s.isOpen(), false, 'the library removed the iframe');

  const cur = (await h.api(SignatureRequestApi).signatureRequestGet(request.signatureRequestId)).body.signatureRequest;
  assert.equal(cur.signatures[0].statusCode, 'signed');
  assert.equal(cur.isComplete, true);
  const types = await eventTypes(request.signatureRequestId);
  for (const want of ['signature_request_viewed', 'signature_request_signed', 'signature_request_all_signed']) {
    assert.ok(types.includes(want), `${want} in ${types.join(', ')}`);
  }
  assert.ok(types.indexOf('signature_request_viewed') < types.indexOf('signature_request_signed'), 'viewed before signed');
  record.note('browser:sign');
});

browserTest('declining (allow_decline): decline with the reason, then finish and close; the request is declined', async (s) => {
  const { request, signatureId, signUrl } = await embeddedRequest('Browser decline', { name: 'Dario', email: 'dario@example.com' }, { allowDecline: true });
  await s.open(signUrl, h.world.client_id);
  await s.waitFor('ready');
  await s.frame().getByLabel('Reason').fill('Wrong amount');
  await s.frame().getByRole('button', { name: 'Decline' }).click();
  assert.deepEqual(await s.waitFor('decline'), { signatureId, reason: 'Wrong amount' });
  await s.waitFor('close');
  assert.deepEqual(await s.names(), ['open', 'ready', 'decline', 'finish', 'close']);

  const cur = (await h.api(SignatureRequestApi).signatureRequestGet(request.signatureRequestId)).body.signatureRequest;
  assert.equal(cur.signatures[0].statusCode, 'declined');
  assert.equal(cur.signatures[0].declineReason, 'Wrong amount');
  assert.equal(cur.isDeclined, true);
  assert.ok((await eventTypes(request.signatureRequestId)).includes('signature_request_declined'));
  record.note('browser:decline');
});

browserTest('the modal\'s close button before signing asks the page, which cancels: cancel and close; nothing is signed', async (s) => {
  const { request, signUrl } = await embeddedRequest('Browser cancel', { name: 'Carla', email: 'carla@example.com' });
  await s.open(signUrl, h.world.client_id, {}); // no container: the library's modal with its close button
  await s.waitFor('ready');
  await s.page.click('.x-hellosign-embedded__modal-close-button');
  await s.waitFor('close');
  assert.deepEqual(await s.names(), ['open', 'ready', 'cancel', 'close']);
  const cur = (await h.api(SignatureRequestApi).signatureRequestGet(request.signatureRequestId)).body.signatureRequest;
  assert.equal(cur.signatures[0].statusCode, 'awaiting_signature');
  record.note('browser:cancel');
});

browserTest('an expired sign URL shows the error page and the library emits error (no ready)', async (s) => {
  const { request, signatureId, signUrl } = await embeddedRequest('Browser expired', { name: 'Ezra', email: 'ezra@example.com' });
  const { expiresAt } = (await h.api(EmbeddedApi).embeddedSignUrl(signatureId)).body.embedded;
  const { now } = await h.control.clock();
  await h.control.advance(expiresAt - now + 1);
  await s.open(signUrl, h.world.client_id);
  const err = await s.waitFor('error');
  assert.equal(err.signatureId, signatureId);
  assert.equal(err.code, 410);
  await assertText(s, /expired/i);
  assert.ok(!(await s.names()).includes('ready'), 'an error page does not initialize');
  assert.ok((await eventTypes(request.signatureRequestId)).includes('sign_url_invalid'));
  record.note('browser:expired');
});

browserTest('a used sign URL (the signer already signed) shows the error and the library emits error', async (s) => {
  const { signatureId, signUrl } = await embeddedRequest('Browser used', { name: 'Uma', email: 'uma@example.com' });
  await h.control.post(`/signatures/${signatureId}/sign`, {});
  await s.open(signUrl, h.world.client_id);
  const err = await s.waitFor('error');
  assert.equal(err.signatureId, signatureId);
  assert.equal(err.code, 409);
  await assertText(s, /already (been )?signed/i);
  assert.ok(!(await s.names()).includes('ready'));
  assert.equal(await s.frame().getByRole('button', { name: /Sign as/ }).count(), 0, 'no Sign button');
  record.note('browser:used');
});

browserTest('template editor: create_embedded_draft edit_url, Save, createTemplate (templateId), finish and close; template_created after the clock moves', async (s) => {
  const req = new sdk.TemplateCreateEmbeddedDraftRequest();
  const role = new sdk.SubTemplateRole();
  role.name = 'Client';
  Object.assign(req, { clientId: h.world.client_id, title: 'Browser template', files: [pdfUpload('tpl.pdf')], signerRoles: [role], testMode: true });
  const { templateId, editUrl } = (await h.api(TemplateApi).templateCreateEmbeddedDraft(req)).body.template;
  await s.open(editUrl, h.world.client_id);
  checkFrameURL(await s.waitFor('open'), editUrl);
  assert.deepEqual(await s.waitFor('ready'), { templateId });
  await s.frame().getByLabel('Title').fill('Browser template, saved');
  await s.frame().getByRole('button', { name: 'Save' }).click();
  const created = await s.waitFor('createTemplate');
  assert.equal(created.templateId, templateId);
  assert.equal(created.title, 'Browser template, saved');
  assert.deepEqual(created.signerRoles, ['Client']);
  await s.waitFor('close');
  assert.deepEqual(await s.names(), ['open', 'ready', 'createTemplate', 'finish', 'close']);

  await h.control.advance(120);
  assert.ok((await eventTypes(templateId)).includes('template_created'), 'template_created after preparation');
  const t = (await h.api(TemplateApi).templateGet(templateId)).body.template;
  assert.equal(t.title, 'Browser template, saved');
  assert.equal(t.isEmbedded, true);

  // The created template opens again through embedded/edit_url.
  const er = new sdk.EmbeddedEditUrlRequest();
  er.testMode = true;
  const again = (await h.api(EmbeddedApi).embeddedEditUrl(templateId, er)).body.embedded.editUrl;
  const s2 = await openSession(browser, host.url);
  try {
    await s2.open(again, h.world.client_id);
    assert.deepEqual(await s2.waitFor('ready'), { templateId });
    await s2.frame().getByRole('button', { name: 'Save' }).click();
    assert.equal((await s2.waitFor('createTemplate')).templateId, templateId);
    await s2.waitFor('close');
  } finally {
    await s2.close();
  }
  record.note('browser:edit_template');
});

browserTest('claim page: create_embedded claim_url, Send, send (signatureRequestId, signatureId), finish and close; the request is sent', async (s) => {
  const req = new sdk.UnclaimedDraftCreateEmbeddedRequest();
  const ds = new sdk.SubUnclaimedDraftSigner();
  Object.assign(ds, { name: 'Cleo', emailAddress: 'cleo@example.com' });
  Object.assign(req, { clientId: h.world.client_id, requesterEmailAddress: h.world.email_address, files: [pdfUpload('claim.pdf')], signers: [ds], testMode: true });
  const draft = (await h.api(UnclaimedDraftApi).unclaimedDraftCreateEmbedded(req)).body.unclaimedDraft;
  await s.open(draft.claimUrl, h.world.client_id);
  checkFrameURL(await s.waitFor('open'), draft.claimUrl);
  await s.waitFor('ready');
  await s.frame().getByRole('button', { name: 'Send for signature' }).click();
  const sent = await s.waitFor('send');
  assert.equal(sent.signatureRequestId, draft.signatureRequestId);
  await s.waitFor('close');
  assert.deepEqual(await s.names(), ['open', 'ready', 'send', 'finish', 'close']);

  await h.control.advance(60);
  const sr = (await h.api(SignatureRequestApi).signatureRequestGet(draft.signatureRequestId)).body.signatureRequest;
  assert.deepEqual(sr.signatures.map((x) => [x.signerEmailAddress, x.statusCode]), [['cleo@example.com', 'awaiting_signature']]);
  assert.equal(sent.signatureId, sr.signatures[0].signatureId);
  assert.ok((await eventTypes(draft.signatureRequestId)).includes('signature_request_sent'));
  record.note('browser:claim_draft');
});

/** The iframe's page shows text matching re. */
async function assertText(s, re) {
  const text = await s.frame().locator('body').innerText();
  assert.match(text, re);
}
