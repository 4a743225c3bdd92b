'use strict';
// The sandbox's pages for people who hold a link, in headless Chromium: the
// signing page behind an e-mail's link and behind an embedded sign_url shows
// the request's PDF page by page with the signer's fields over it; filling
// them and signing completes the request, and the merged PDF shows the
// values. The template editor places, moves and removes fields that the API
// then returns; the console's field editor saves through the control plane;
// the claim page shows the draft's document and sends it.
//
// Without Chromium every test here skips with the reason (see
// ../chromium.js). Screenshots go to e2e/.tmp/console/ (SIGNSANDBOX_E2E_SHOTS
// names another directory, such as browser/console/screenshots).

const path = require('node:path');
const { setup, assert } = require('../../lib/harness');
const { makePDF } = require('../../lib/pdf');
const { openSession } = require('../host');
const { browserSuite, pdfText: suitePDFText } = require('./suite');

const h = setup();
const suite = browserSuite(h, { withHost: true });
const browserTest = suite.test;
const SHOTS = suite.shots;
const SCALE = 1.3; // the document view's points-to-pixels scale (docview.mjs)

/** A fresh tab; errors (uncaught, dialogs) are collected. */
async function newTab(viewport = { width: 1100, height: 900 }) {
  const context = await suite.browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, errors, close: () => context.close() };
}

function auth() {
  return { Authorization: `Basic ${Buffer.from(`${h.world.api_key}:`).toString('base64')}` };
}

/** An API call with the world's key, as JSON; fails unless 200. */
async function api(method, p, body) {
  const res = await fetch(`${h.base}/v3${p}`, { method, body, headers: auth() });
  const json = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}

/** The fields of one signer on a two-page PDF, of every kind a signer fills. */
const SIGNER_FIELDS = [
  { api_id: 'company', name: 'Company', type: 'text', x: 90, y: 110, width: 220, height: 24, required: true, signer: 0, page: 1 },
  { api_id: 'zip', name: 'ZIP', type: 'text', validation_type: 'numbers_only', x: 90, y: 160, width: 120, height: 24, required: false, signer: 0, page: 1 },
  { api_id: 'plan', name: 'Plan', type: 'dropdown', options: ['Basic', 'Premium'], x: 90, y: 210, width: 140, height: 24, required: true, signer: 0, page: 1 },
  { api_id: 'agree', name: 'Agree', type: 'checkbox', x: 90, y: 260, width: 16, height: 16, required: false, is_checked: false, signer: 0, page: 1 },
  { api_id: 'terms_a', name: 'Terms A', type: 'checkbox', group: 'terms', x: 90, y: 300, width: 16, height: 16, required: false, is_checked: false, signer: 0, page: 1 },
  { api_id: 'terms_b', name: 'Terms B', type: 'checkbox', group: 'terms', x: 130, y: 300, width: 16, height: 16, required: false, is_checked: false, signer: 0, page: 1 },
  { api_id: 'init', name: 'Initials', type: 'initials', x: 300, y: 255, width: 90, height: 30, required: true, signer: 0, page: 1 },
  { api_id: 'when', name: 'Date', type: 'date_signed', x: 330, y: 330, width: 120, height: 24, required: true, signer: 0, page: 2 },
  { api_id: 'sig', name: 'Signature', type: 'signature', x: 90, y: 320, width: 220, height: 44, required: true, signer: 0, page: 2 },
];

/** Sends a request with SIGNER_FIELDS (multipart, form_fields_per_document); extra keys are added. */
async function sendWithFields(title, endpoint, extra = {}) {
  const fd = new FormData();
  fd.set('title', title);
  fd.set('test_mode', '1');
  fd.set('signers[0][name]', 'Fay Fields');
  fd.set('signers[0][email_address]', 'fay@example.com');
  fd.set('form_fields_per_document', JSON.stringify([SIGNER_FIELDS]));
  fd.set('form_field_groups', JSON.stringify([{ group_id: 'terms', group_label: 'Terms', requirement: 'require_1' }]));
  for (const [k, v] of Object.entries(extra)) fd.set(k, v);
  fd.set('file[0]', new Blob([makePDF({ pages: 2, text: 'Lease agreement' })], { type: 'application/pdf' }), 'lease.pdf');
  return (await api('POST', `/signature_request/${endpoint}`, fd)).signature_request;
}

/** Fills every field of SIGNER_FIELDS in a page or frame; the signature is drawn with the pointer. */
async function fillFields(scope, page) {
  await scope.locator('[data-api-id="company"]').fill('Acme Holdings');
  await scope.locator('[data-api-id="zip"]').fill('abc');
  assert.equal(await scope.locator('[data-api-id="zip"]').evaluate((n) => n.checkValidity()), false, 'numbers_only is enforced');
  await scope.locator('[data-api-id="zip"]').fill('94105');
  await scope.locator('[data-api-id="plan"]').selectOption('Premium');
  await scope.locator('[data-api-id="agree"]').check();
  await scope.locator('[data-api-id="terms_b"]').check(); // the group needs exactly one
  await scope.locator('[data-api-id="init"] .adopt').click();
  await scope.locator('[data-api-id="sig"]').scrollIntoViewIfNeeded();
  await scope.locator('[data-api-id="sig"] .draw').click();
  const pad = scope.locator('dialog canvas.pad');
  await pad.waitFor();
  const box = await pad.boundingBox();
  await page.mouse.move(box.x + 30, box.y + 90);
  await page.mouse.down();
  for (let i = 1; i <= 24; i++) await page.mouse.move(box.x + 30 + i * 14, box.y + 70 + Math.sin(i / 2) * 35);
  await page.mouse.up();
  await scope.getByRole('button', { name: 'Adopt this signature' }).click();
  await scope.locator('[data-api-id="sig"] canvas.drawn-sig').waitFor();
}

/** The text of a PDF the world's API serves, read with the sandbox's PDF.js inside page. */
function pdfText(page, apiPath) {
  return suitePDFText(page, h.world.api_key, apiPath);
}

function responseValues(sr) {
  return Object.fromEntries(sr.response_data.map((r) => [r.api_id, r.value]));
}

browserTest('the e-mail link opens the signing page with the PDF\'s pages and fields; filling and signing completes the request, and the merged PDF shows the values', async () => {
  const sr = await sendWithFields('Lease with fields', 'send');
  await h.control.advance(60);
  const { emails } = await h.control.get(`/emails?signature_request_id=${sr.signature_request_id}`);
  const mail = emails.find((e) => e.link && e.link.includes('/sign/'));
  assert.ok(mail, 'the signer got an e-mail with the signing link');
  const tab = await newTab();
  try {
    await tab.page.goto(mail.link);
    await tab.page.waitForSelector('.page[data-page="2"] canvas', { timeout: 20000 });
    assert.equal(await tab.page.locator('.page canvas').count(), 2, 'both pages drawn');
    for (const f of SIGNER_FIELDS) {
      const node = tab.page.locator(`[data-api-id="${f.api_id}"]`);
      const pageBox = await tab.page.locator(`.page[data-page="${f.page}"]`).boundingBox();
      const box = await node.boundingBox();
      assert.ok(Math.abs(box.x - pageBox.x - f.x * SCALE) <= 2 && Math.abs(box.y - pageBox.y - f.y * SCALE) <= 2,
        `${f.api_id} is over its position on page ${f.page}`);
    }
    assert.match(await tab.page.inputValue('[data-api-id="when"]'), /^\d\d\/\d\d\/\d{4}$/, 'date_signed shows the date');
    assert.equal(await tab.page.isDisabled('#sign'), true, 'Sign waits for the required fields');
    assert.equal(await tab.page.textContent('#missing'), '5 required field(s) left', 'company, plan, initials, signature and the terms group');
    assert.equal(await tab.page.locator('text=Decline').count(), 0, 'no decline: the request does not allow it');
    await tab.page.screenshot({ path: path.join(SHOTS, 'sign-page-empty.png') });
    await fillFields(tab.page, tab.page);
    assert.equal(await tab.page.isDisabled('#sign'), false, 'every required field is filled');
    await tab.page.locator('.page[data-page="1"]').scrollIntoViewIfNeeded();
    await tab.page.screenshot({ path: path.join(SHOTS, 'sign-page.png') });
    await tab.page.locator('[data-api-id="sig"]').scrollIntoViewIfNeeded();
    await tab.page.screenshot({ path: path.join(SHOTS, 'sign-page-2.png') });
    await tab.page.click('#sign');
    await tab.page.waitForSelector('text=Thank you');

    const got = (await api('GET', `/signature_request/${sr.signature_request_id}`)).signature_request;
    assert.equal(got.is_complete, true);
    const v = responseValues(got);
    assert.equal(v.company, 'Acme Holdings');
    assert.equal(v.zip, '94105');
    assert.equal(v.plan, 'Premium');
    assert.equal(String(v.agree), 'true');
    assert.equal(v.init, 'FF');
    assert.deepEqual([v.terms_a, v.terms_b].map(String), ['false', 'true']);
    assert.equal(v.sig, 'Fay Fields', 'a drawn signature is recorded in the signer\'s name');

    await h.control.advance(300); // the final copy is prepared
    const text = await pdfText(tab.page, `/signature_request/files/${sr.signature_request_id}?file_type=pdf`);
    for (const want of ['Acme Holdings', '94105', 'Premium', 'FF', v.when]) {
      assert.ok(text.includes(want), `the merged PDF shows ${want}: ${text}`);
    }
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});

browserTest('the embedded sign page in an integrator\'s iframe shows the document and fields; signing sends the values and emits sign', async () => {
  const sr = await sendWithFields('Embedded lease', 'create_embedded', { client_id: h.world.client_id, allow_decline: '1' });
  await h.control.advance(60);
  const sid = sr.signatures[0].signature_id;
  const { sign_url: signUrl } = (await api('GET', `/embedded/sign_url/${sid}`)).embedded;
  const s = await openSession(suite.browser, suite.host.url);
  try {
    await s.page.setViewportSize({ width: 1100, height: 1000 });
    await s.open(signUrl, h.world.client_id);
    assert.deepEqual(await s.waitFor('ready'), { signatureId: sid });
    const frame = s.frame();
    await frame.locator('.page[data-page="2"] canvas').waitFor({ timeout: 20000 });
    assert.equal(await frame.getByRole('button', { name: 'Sign as Fay Fields' }).isDisabled(), true);
    assert.equal(await frame.getByRole('button', { name: 'Decline' }).count(), 1, 'decline where the request allows it');
    assert.equal(await frame.getByRole('button', { name: 'Reassign' }).count(), 0, 'no reassign: not allowed');
    await fillFields(frame, s.page);
    await s.page.screenshot({ path: path.join(SHOTS, 'embedded-sign.png') });
    await frame.getByRole('button', { name: 'Sign as Fay Fields' }).click();
    assert.deepEqual(await s.waitFor('sign'), { signatureId: sid });
    await s.waitFor('close');
    const got = (await api('GET', `/signature_request/${sr.signature_request_id}`)).signature_request;
    assert.equal(got.is_complete, true);
    assert.equal(responseValues(got).company, 'Acme Holdings');
    assert.deepEqual(s.consoleErrors, []);
  } finally {
    await s.close();
  }
});

/** Places a field of type for role by clicking at (x, y) points on page n of the editor in scope. */
async function placeField(page, type, role, n, x, y) {
  await page.selectOption('#field-type', type);
  await page.selectOption('#field-role', role);
  const target = page.locator(`.page[data-page="${n}"]`);
  // Bring the point to the middle of the window (the tool bar sticks to the top).
  await target.evaluate((node, py) => {
    const r = node.getBoundingClientRect();
    window.scrollBy(0, r.top + py - window.innerHeight / 2);
  }, y * SCALE);
  const box = await target.boundingBox();
  await page.mouse.click(box.x + x * SCALE, box.y + y * SCALE);
}

/** The template's form fields as the API returns them: api_id -> [type, signer, x, y, width, height]. */
async function apiTemplateFields(id) {
  const { template } = await api('GET', `/template/${id}`);
  const out = {};
  for (const d of template.documents) {
    for (const f of d.form_fields) out[f.api_id] = [f.type, String(f.signer), f.x, f.y, f.width, f.height];
  }
  return out;
}

/** The editor's fields keyed like apiTemplateFields (signer: 1-based role number). */
function editorFields(fields, roles) {
  return Object.fromEntries(fields.map((f) => [f.api_id, [f.type, String(roles.indexOf(f.signer) + 1), f.x, f.y, f.width, f.height]]));
}

browserTest('template editor: fields placed, moved and removed on the page are those GET /v3/template returns', async () => {
  const fd = new FormData();
  fd.set('client_id', h.world.client_id);
  fd.set('test_mode', '1');
  fd.set('title', 'Editor lease');
  fd.set('signer_roles[0][name]', 'Tenant');
  fd.set('signer_roles[1][name]', 'Landlord');
  fd.set('file[0]', new Blob([makePDF({ pages: 2, text: 'Lease template' })], { type: 'application/pdf' }), 'lease.pdf');
  const { template_id: id, edit_url: editUrl } = (await api('POST', '/template/create_embedded_draft', fd)).template;
  const tab = await newTab();
  try {
    await tab.page.goto(editUrl);
    await tab.page.waitForSelector('.page[data-page="2"] canvas', { timeout: 20000 });
    await placeField(tab.page, 'signature', 'Tenant', 1, 80, 500);
    await placeField(tab.page, 'date_signed', 'Tenant', 1, 330, 510);
    await placeField(tab.page, 'text', 'Landlord', 1, 80, 120);
    await placeField(tab.page, 'initials', 'Landlord', 2, 400, 700);
    await placeField(tab.page, 'checkbox', 'Tenant', 1, 80, 200);
    await placeField(tab.page, 'checkbox', 'Tenant', 1, 80, 240);
    assert.equal(await tab.page.locator('.efield').count(), 6);
    // Move the text field 60 points right and 40 down.
    const text = tab.page.locator('.efield-text');
    await text.evaluate((node) => node.scrollIntoView({ block: 'center' }));
    const tb = await text.boundingBox();
    await tab.page.mouse.move(tb.x + 30, tb.y + 10);
    await tab.page.mouse.down();
    await tab.page.mouse.move(tb.x + 30 + 30 * SCALE, tb.y + 10 + 20 * SCALE, { steps: 4 });
    await tab.page.mouse.move(tb.x + 30 + 60 * SCALE, tb.y + 10 + 40 * SCALE, { steps: 4 });
    await tab.page.mouse.up();
    // Remove the second checkbox.
    await tab.page.locator('.efield-checkbox').nth(1).locator('.del').click();
    assert.equal(await tab.page.locator('.efield').count(), 5);
    await tab.page.getByLabel('Title').fill('Editor lease, placed');
    const placed = JSON.parse(await tab.page.inputValue('#fields'));
    const moved = placed.find((f) => f.type === 'text');
    assert.deepEqual([moved.x, moved.y], [140, 160], 'the drag moved the field by 60 and 40 points');
    await tab.page.locator('.page[data-page="1"]').scrollIntoViewIfNeeded();
    await tab.page.screenshot({ path: path.join(SHOTS, 'template-editor.png') });
    await tab.page.getByRole('button', { name: 'Save' }).click();
    await tab.page.waitForSelector('text=Template saved');
    await h.control.advance(120);
    assert.deepEqual(await apiTemplateFields(id), editorFields(placed, ['Tenant', 'Landlord']),
      'the API returns the fields placed in the editor');
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});

browserTest('the console\'s field editor saves a template\'s fields through the control plane; the API returns them', async () => {
  const fd = new FormData();
  fd.set('test_mode', '1');
  fd.set('title', 'Console template');
  fd.set('signer_roles[0][name]', 'Client');
  fd.set('form_fields_per_document', JSON.stringify([[{ api_id: 'old_sig', name: '', type: 'signature', x: 100, y: 600, width: 180, height: 40, required: true, signer: 0, page: 1 }]]));
  fd.set('file[0]', new Blob([makePDF({ pages: 1, text: 'Console template' })], { type: 'application/pdf' }), 'c.pdf');
  const { template_id: id } = (await api('POST', '/template/create', fd)).template;
  await h.control.advance(120);
  const tab = await newTab();
  try {
    await tab.page.addInitScript((key) => sessionStorage.setItem('signsandbox.console.key', key), h.world.api_key);
    await tab.page.goto(`${h.base}/_sandbox/console/#/objects/template/${id}`);
    await tab.page.click('#place-fields');
    await tab.page.waitForSelector('.page[data-page="1"] canvas', { timeout: 20000 });
    assert.equal(await tab.page.locator('.efield').count(), 1, 'the template\'s field is shown');
    await placeField(tab.page, 'text', 'Client', 1, 100, 100);
    await tab.page.locator('.efield[data-api-id="old_sig"] .del').click();
    await tab.page.click('#save-fields');
    await tab.page.waitForSelector('.flash.ok');
    await tab.page.screenshot({ path: path.join(SHOTS, 'console-template-fields.png') });
    const fields = await apiTemplateFields(id);
    assert.deepEqual(Object.values(fields), [['text', '1', 100, 100, 160, 22]]);
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});

browserTest('the claim page shows the draft\'s document and sends it', async () => {
  const fd = new FormData();
  fd.set('client_id', h.world.client_id);
  fd.set('test_mode', '1');
  fd.set('requester_email_address', h.world.email_address);
  fd.set('signers[0][name]', 'Cleo');
  fd.set('signers[0][email_address]', 'cleo@example.com');
  fd.set('file[0]', new Blob([makePDF({ pages: 1, text: 'Claimed contract' })], { type: 'application/pdf' }), 'claim.pdf');
  const draft = (await api('POST', '/unclaimed_draft/create_embedded', fd)).unclaimed_draft;
  const tab = await newTab();
  try {
    await tab.page.goto(draft.claim_url);
    await tab.page.waitForSelector('.page[data-page="1"] canvas', { timeout: 20000 });
    await tab.page.screenshot({ path: path.join(SHOTS, 'claim-page.png') });
    await tab.page.getByRole('button', { name: 'Send for signature' }).click();
    await tab.page.waitForSelector('text=was sent');
    await h.control.advance(60);
    const sr = (await api('GET', `/signature_request/${draft.signature_request_id}`)).signature_request;
    assert.equal(sr.signatures[0].signer_email_address, 'cleo@example.com');
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});

browserTest('conditional logic: a field a rule hides is not asked for until the trigger shows it', async () => {
  const fd = new FormData();
  fd.set('title', 'Conditional');
  fd.set('test_mode', '1');
  fd.set('signers[0][name]', 'Cory Rule');
  fd.set('signers[0][email_address]', 'cory@example.com');
  fd.set('form_fields_per_document', JSON.stringify([[
    { api_id: 'has_co', name: 'Co-signer?', type: 'checkbox', x: 90, y: 110, width: 16, height: 16, required: false, is_checked: false, signer: 0, page: 1 },
    { api_id: 'co_name', name: 'Co-signer name', type: 'text', x: 90, y: 150, width: 200, height: 24, required: true, signer: 0, page: 1 },
    { api_id: 'sig', name: 'Signature', type: 'signature', x: 90, y: 220, width: 200, height: 40, required: true, signer: 0, page: 1 },
  ]]));
  fd.set('form_field_rules', JSON.stringify([{
    id: 'hide_co', trigger_operator: 'AND', triggers: [{ id: 'has_co', operator: 'is', value: '0' }],
    actions: [{ field_id: 'co_name', hidden: true, type: 'change-field-visibility' }],
  }]));
  fd.set('file[0]', new Blob([makePDF({ pages: 1, text: 'Conditional' })], { type: 'application/pdf' }), 'c.pdf');
  const sr = (await api('POST', '/signature_request/send', fd)).signature_request;
  await h.control.advance(60);
  const { emails } = await h.control.get(`/emails?signature_request_id=${sr.signature_request_id}`);
  const tab = await newTab();
  try {
    await tab.page.goto(emails.find((e) => e.link && e.link.includes('/sign/')).link);
    await tab.page.waitForSelector('.page canvas', { timeout: 20000 });
    assert.equal(await tab.page.isHidden('[data-api-id="co_name"]'), true, 'hidden while the box is unchecked');
    await tab.page.click('[data-api-id="sig"] .adopt');
    assert.equal(await tab.page.isDisabled('#sign'), false, 'the hidden required field is not asked for');
    await tab.page.check('[data-api-id="has_co"]');
    assert.equal(await tab.page.isVisible('[data-api-id="co_name"]'), true, 'the trigger shows it');
    assert.equal(await tab.page.isDisabled('#sign'), true, 'now it is asked for');
    await tab.page.fill('[data-api-id="co_name"]', 'Dana Co');
    await tab.page.click('#sign');
    await tab.page.waitForSelector('text=Thank you');
    const got = (await api('GET', `/signature_request/${sr.signature_request_id}`)).signature_request;
    assert.equal(got.is_complete, true);
    assert.equal(responseValues(got).co_name, 'Dana Co');
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});
