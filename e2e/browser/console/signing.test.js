'use strict';
// The signing page as a signer meets it on the real service, in headless
// Chromium: a request sent without fields is signed on its appended
// signature page, one box per signer (a typed signature stays as typed,
// and the merged PDF's signature page shows each signature); linked fields
// fill together and auto-fill fields start with the signer's data; an API
// app's white labeling colours the page, and another client_id another
// way. Every input of the page has an accessible name.
//
// Without Chromium every test here skips with the reason (see
// ../chromium.js).

const path = require('node:path');
const { setup, assert } = require('../../lib/harness');
const { makePDF } = require('../../lib/pdf');
const { browserSuite, pdfText } = require('./suite');

const h = setup();
const suite = browserSuite(h);
const browserTest = suite.test;

/** A fresh tab; uncaught page errors are collected. */
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

/** An API call with the world's key; fails unless 2xx. */
async function api(method, p, body) {
  const res = await fetch(`${h.base}/v3${p}`, { method, body, headers: auth() });
  const json = await res.json();
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A request body (multipart) with one PDF, signers [name, email] and extra fields. */
function requestForm(title, signers, extra = {}) {
  const fd = new FormData();
  fd.set('title', title);
  fd.set('test_mode', '1');
  signers.forEach(([name, email], i) => {
    fd.set(`signers[${i}][name]`, name);
    fd.set(`signers[${i}][email_address]`, email);
  });
  for (const [k, v] of Object.entries(extra)) fd.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  fd.set('file[0]', new Blob([makePDF({ pages: 1, text: title })], { type: 'application/pdf' }), 'doc.pdf');
  return fd;
}

/** The signing link of a signer's e-mail. */
async function signLink(requestId, email) {
  const { emails } = await h.control.get(`/emails?signature_request_id=${requestId}`);
  const mail = emails.find((e) => e.to === email && e.link && e.link.includes('/sign/'));
  assert.ok(mail, `${email} got an e-mail with the signing link`);
  return mail.link;
}

/** The sign_url of an embedded request's signer. */
async function signURL(signatureId) {
  return (await api('GET', `/embedded/sign_url/${signatureId}`)).embedded.sign_url;
}

function responseValues(sr) {
  return Object.fromEntries(sr.response_data.map((r) => [r.api_id, r.value]));
}

/** The inputs of a page that no label, aria-label or aria-labelledby names. */
function unnamedInputs(page) {
  return page.evaluate(() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
    .filter((n) => !(n.labels && n.labels.length) && !n.getAttribute('aria-label') && !n.getAttribute('aria-labelledby'))
    .map((n) => n.outerHTML));
}

/** Draws a stroke on the open signature pad and adopts it. */
async function drawAndAdopt(page) {
  const pad = page.locator('dialog canvas.pad');
  await pad.waitFor();
  const box = await pad.boundingBox();
  await page.mouse.move(box.x + 30, box.y + 90);
  await page.mouse.down();
  for (let i = 1; i <= 20; i++) await page.mouse.move(box.x + 30 + i * 15, box.y + 70 + Math.sin(i / 2) * 30);
  await page.mouse.up();
  await page.getByRole('button', { name: 'Adopt this signature' }).click();
}

browserTest('a request without fields is signed on its appended signature page, one box per signer; the merged PDF shows each signature', async () => {
  const { signature_request: sr } = await api('POST', '/signature_request/send',
    requestForm('Field-less NDA', [['Jack', 'jack@example.com'], ['Jill', 'jill@example.com']]));
  await h.control.advance(60);
  const tab = await newTab();
  try {
    await tab.page.goto(await signLink(sr.signature_request_id, 'jack@example.com'));
    await tab.page.waitForSelector('.page[data-doc="1"] canvas', { timeout: 20000 });
    assert.equal(await tab.page.locator('h2.docname').last().textContent(), 'Signature page', 'the appended page after the document');
    assert.match(await tab.page.textContent('#doc-status'), /Sign in your box on the signature page/);
    assert.equal(await tab.page.isDisabled('#sign'), true, 'Sign waits for the signature');
    assert.equal(await tab.page.textContent('#missing'), '1 required field(s) left');
    assert.equal(await tab.page.locator('.sigpage-other.pending').textContent(), 'Waiting for Jill', 'Jill\'s box shows she has not signed');
    await tab.page.click('#next-field');
    const input = tab.page.locator('[data-api-id="signature_page_1"] input');
    assert.equal(await input.evaluate((n) => n === document.activeElement), true, 'the link goes to the signer\'s box');
    await input.fill('Jack Example');
    await tab.page.click('[data-api-id="signature_page_1"] .adopt');
    assert.equal(await input.inputValue(), 'Jack Example', 'Adopt keeps the typed signature as typed');
    assert.deepEqual(await unnamedInputs(tab.page), [], 'every input is named');
    await tab.page.screenshot({ path: path.join(suite.shots, 'sign-page-appended.png') });
    await tab.page.click('#sign');
    await tab.page.waitForSelector('text=Thank you');

    await tab.page.goto(await signLink(sr.signature_request_id, 'jill@example.com'));
    await tab.page.waitForSelector('.page[data-doc="1"] canvas', { timeout: 20000 });
    assert.equal(await tab.page.locator('.sigpage-other.signed').textContent(), 'Signed by Jack', 'Jack\'s box shows he signed');
    await tab.page.locator('[data-api-id="signature_page_2"]').scrollIntoViewIfNeeded();
    await tab.page.click('[data-api-id="signature_page_2"] .draw');
    await drawAndAdopt(tab.page);
    await tab.page.locator('[data-api-id="signature_page_2"] canvas.drawn-sig').waitFor();
    await tab.page.click('#sign');
    await tab.page.waitForSelector('text=Thank you');

    const got = (await api('GET', `/signature_request/${sr.signature_request_id}`)).signature_request;
    assert.equal(got.is_complete, true);
    const entries = Object.fromEntries(got.response_data.map((r) => [r.api_id, r]));
    assert.deepEqual(entries.signature_page_1, {
      api_id: 'signature_page_1', signature_id: sr.signatures[0].signature_id, name: 'Signature', required: true,
      type: 'signature', value: 'Jack Example', is_signed: true,
    });
    assert.equal(entries.signature_page_2.value, 'Jill', 'a drawn signature is recorded in the signer\'s name');

    await h.control.advance(300); // the final copy is prepared
    const text = await pdfText(tab.page, h.world.api_key, `/signature_request/files/${sr.signature_request_id}?file_type=pdf`);
    const sigPage = text.slice(text.indexOf('Signature page'));
    assert.equal(sigPage.split('Jack Example').length - 1, 1, `Jack's signature once on the signature page: ${sigPage}`);
    assert.ok(!sigPage.includes('(not signed)'), `both boxes are signed: ${sigPage}`);
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});

browserTest('linked fields fill together and auto-fill fields start with the signer\'s data, on the page and in response_data', async () => {
  const text = (api_id, y, more = {}) => Object.assign({ api_id, name: api_id, type: 'text', x: 90, y, width: 220, height: 24, required: false, signer: 0, page: 1 }, more);
  const fields = [
    text('street', 100, { name: 'Street', required: true, link_id: 'addr' }),
    text('street_again', 140, { name: 'Street (again)', link_id: 'addr' }),
    text('full_name', 180, { name: 'Full name', auto_fill_type: 'name' }),
    text('email', 220, { name: 'E-mail', auto_fill_type: 'email', validation_type: 'email_address', required: true }),
    text('company', 260, { name: 'Company', auto_fill_type: 'company' }),
    text('first', 430, { name: 'First name', auto_fill_type: 'firstName' }),
    { api_id: 'agree', name: 'I agree', type: 'checkbox', x: 90, y: 300, width: 16, height: 16, required: false, is_checked: false, signer: 0, page: 1 },
    { api_id: 'sig', name: 'Signature', type: 'signature', x: 90, y: 340, width: 220, height: 44, required: true, signer: 0, page: 1 },
  ];
  const { signature_request: sr } = await api('POST', '/signature_request/create_embedded', requestForm('Linked and auto-filled',
    [['Jack Example', 'jack@example.com']], { client_id: h.world.client_id, populate_auto_fill_fields: '1', form_fields_per_document: [fields] }));
  await h.control.advance(60);
  const tab = await newTab();
  try {
    await tab.page.goto(await signURL(sr.signatures[0].signature_id));
    await tab.page.waitForSelector('.page canvas', { timeout: 20000 });
    const value = (id) => tab.page.inputValue(`[data-api-id="${id}"]`);
    assert.equal(await value('full_name'), 'Jack Example', 'auto-filled with the signer\'s name');
    assert.equal(await value('email'), 'jack@example.com', 'auto-filled with the signer\'s e-mail');
    assert.equal(await value('company'), '', 'the sandbox does not know the signer\'s company');
    await tab.page.fill('[data-api-id="street"]', '12 Main St');
    assert.equal(await value('street_again'), '12 Main St', 'typing in one linked field fills the other');
    await tab.page.fill('[data-api-id="full_name"]', 'J. Example'); // auto-filled fields stay editable
    assert.equal(await value('first'), 'Jack');
    await tab.page.fill('[data-api-id="first"]', ''); // and one the signer empties stays empty
    await tab.page.check('[data-api-id="agree"]');
    await tab.page.fill('[data-api-id="sig"] input', 'Jack Example');
    await tab.page.click('[data-api-id="sig"] .adopt');
    assert.deepEqual(await unnamedInputs(tab.page), [], 'every input, the checkbox included, is named');
    assert.equal(await tab.page.getByRole('checkbox', { name: 'I agree' }).count(), 1, 'the checkbox is named by its field');
    await tab.page.screenshot({ path: path.join(suite.shots, 'sign-page-linked.png') });
    await tab.page.click('#sign');
    await tab.page.waitForSelector('text=Thank you');
    const v = responseValues((await api('GET', `/signature_request/${sr.signature_request_id}`)).signature_request);
    assert.deepEqual(v, {
      street: '12 Main St', street_again: '12 Main St', full_name: 'J. Example', email: 'jack@example.com', company: '', first: '',
      agree: true, sig: 'Jack Example',
    });
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});

/** A 1x1 PNG (the app's logo). */
const LOGO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Creates an API app with white labeling options (and a logo); answers its client_id. */
async function brandedApp(name, options, logo) {
  const fd = new FormData();
  fd.set('name', name);
  fd.set('domains[0]', 'example.com');
  fd.set('white_labeling_options', JSON.stringify(options));
  if (logo) fd.set('custom_logo_file', new Blob([LOGO], { type: 'image/png' }), 'logo.png');
  return (await api('POST', '/api_app', fd)).api_app.client_id;
}

/** The computed colours of a signing page's parts. */
function pageColours(page) {
  return page.evaluate(() => {
    const css = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
    return {
      page: css('body', 'backgroundColor'),
      header: css('.bar', 'backgroundColor'),
      headerText: css('.bar', 'color'),
      button: css('#sign', 'backgroundColor'),
      buttonText: css('#sign', 'color'),
      secondaryText: css('[data-api-id="sig"] .adopt', 'color'),
      link: css('#next-field', 'color'),
    };
  });
}

browserTest('an API app\'s white labeling colours the signing page; another client_id shows another look', async () => {
  const teal = await brandedApp('Teal Co', {
    page_background_color: '#EEF7F6', header_background_color: '#0B1F1C', primary_button_color: '#00796B',
    primary_button_text_color: '#FFFFFF', secondary_button_text_color: '#00695C', text_color2: '#E0F2F1', link_color: '#004D40',
  }, true);
  const plum = await brandedApp('Plum Co', { primary_button_color: '#8E24AA' }, false);
  const sig = [{ api_id: 'sig', name: 'Signature', type: 'signature', x: 90, y: 340, width: 220, height: 44, required: true, signer: 0, page: 1 }];
  const open = async (tab, clientId) => {
    const { signature_request: sr } = await api('POST', '/signature_request/create_embedded', requestForm('Branded',
      [['Jack', 'jack@example.com']], { client_id: clientId, form_fields_per_document: [sig] }));
    await h.control.advance(60);
    await tab.page.goto(await signURL(sr.signatures[0].signature_id));
    await tab.page.waitForSelector('.page canvas', { timeout: 20000 });
    return pageColours(tab.page);
  };
  const tab = await newTab();
  try {
    assert.deepEqual(await open(tab, teal), {
      page: 'rgb(238, 247, 246)', header: 'rgb(11, 31, 28)', headerText: 'rgb(224, 242, 241)', button: 'rgb(0, 121, 107)',
      buttonText: 'rgb(255, 255, 255)', secondaryText: 'rgb(0, 105, 92)', link: 'rgb(0, 77, 64)',
    });
    const logo = tab.page.locator('.bar img.logo');
    assert.equal(await logo.getAttribute('alt'), 'Teal Co');
    assert.equal(await logo.evaluate((n) => n.complete && n.naturalWidth), 1, 'the app\'s logo is shown');
    await tab.page.screenshot({ path: path.join(suite.shots, 'sign-page-branded.png') });

    const other = await open(tab, plum);
    assert.equal(other.button, 'rgb(142, 36, 170)', 'another app, another primary colour');
    assert.equal(other.page, 'rgb(247, 248, 249)', 'the real service\'s default page colour where the app sets none');
    assert.equal(await tab.page.locator('.bar img.logo').count(), 0);

    const plain = await open(tab, h.world.client_id);
    assert.equal(plain.button, 'rgb(0, 97, 254)', 'an app without white labeling: the default look');
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});
