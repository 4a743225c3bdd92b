'use strict';
// The console (/_sandbox/console/) in headless Chromium: a request sent with
// the official Node SDK appears, live, in an open console; acting as its
// signer from the console completes it; the callback log and the outbox show
// it; a clock advance in one tab shows in another; and hostile values in
// every field a caller controls are shown as text, never run.
//
// Without Chromium every test here skips with the reason (see
// ../chromium.js). Screenshots go to e2e/.tmp/console/ (SIGNSANDBOX_E2E_SHOTS
// names another directory).

const path = require('node:path');
const { setup, signer, sdk, assert } = require('../../lib/harness');
const { pdfUpload, makePDF } = require('../../lib/pdf');
const { browserSuite } = require('./suite');

const h = setup();
const { SignatureRequestApi } = sdk;
const suite = browserSuite(h);
const browserTest = suite.test;
const SHOTS = suite.shots;
const XSS = '"><img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';

/** A console tab opened on this file's world (its key in the tab's session storage). */
async function openConsole(hash = '') {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
  // The top page only: an e-mail's sandboxed frame has no storage.
  await page.addInitScript((key) => { if (window === window.top) sessionStorage.setItem('signsandbox.console.key', key); }, h.world.api_key);
  await page.goto(`${h.base}/_sandbox/console/#${hash}`);
  await page.waitForSelector('#live.on');
  return { page, errors, close: () => context.close() };
}

async function send(title, who) {
  const req = new sdk.SignatureRequestSendRequest();
  Object.assign(req, {
    title, subject: `Subject ${title}`, message: `Message ${title}`, signers: [signer(who, 'signer@example.com')],
    files: [pdfUpload(`${title}.pdf`)], metadata: { note: title }, testMode: true,
  });
  return (await h.api(SignatureRequestApi).signatureRequestSend(req)).body.signatureRequest;
}

browserTest('a request sent with the SDK appears live; signing it from the console completes it', async () => {
  const tab = await openConsole('/requests');
  try {
    const sr = await send('Console lease', 'Jack Console');
    // No reload: the feed redraws the list.
    await tab.page.waitForSelector(`#requests >> text=Console lease`, { timeout: 10000 });
    await h.control.advance(60);
    await tab.page.click('#requests >> text=Console lease');
    await tab.page.waitForSelector('#signers');
    await tab.page.screenshot({ path: path.join(SHOTS, 'request.png'), fullPage: false });
    await tab.page.click('#signers button:has-text("Sign")');
    await tab.page.waitForSelector('.flash.ok');
    await tab.page.waitForSelector('#signers >> text=signed', { timeout: 10000 });
    const got = (await h.api(SignatureRequestApi).signatureRequestGet(sr.signatureRequestId)).body.signatureRequest;
    assert.equal(got.isComplete, true, 'the console signed through the control plane');

    await tab.page.goto(`${h.base}/_sandbox/console/#/callbacks`);
    await tab.page.waitForSelector('#callbacks >> text=signature_request_all_signed');
    // The signing e-mail opens rendered, and its button leads to the request's page.
    await tab.page.goto(`${h.base}/_sandbox/console/#/outbox`);
    await tab.page.click('#outbox >> text=signature_request');
    const link = await (await tab.page.waitForSelector('article.mail a.cta')).getAttribute('href');
    const res = await tab.page.request.get(link);
    assert.equal(res.status(), 200, `the e-mail's link ${link} works`);
    await h.control.advance(60); // the final copy is prepared
    await tab.page.click('#sign-in-console');
    await tab.page.waitForSelector('.page canvas', { timeout: 20000 });
    assert.equal(await tab.page.isDisabled('#sign'), true, 'a signer who signed cannot sign again');
    await tab.page.goto(`${h.base}/_sandbox/console/#/outbox`);
    await tab.page.waitForSelector('#outbox >> text=signer@example.com');
    await tab.page.click('#outbox >> text=signer@example.com');
    await tab.page.waitForSelector('article.mail');
    await tab.page.frameLocator('iframe.mail-html').locator('h1').waitFor(); // the e-mail's HTML part, drawn
    await tab.page.screenshot({ path: path.join(SHOTS, 'outbox.png') });
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});

browserTest('a refused action shows the control plane\'s error and changes nothing', async () => {
  const sr = await send('Refusal', 'Jill');
  await h.control.advance(60);
  // The console disables what the control plane would refuse, so a refusal
  // reaches it only from a view drawn before the world moved: here the live
  // feed is cut, and the signer signs elsewhere after the view is drawn.
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.route('**/console/api/changes**', (route) => route.abort());
  await page.addInitScript((key) => sessionStorage.setItem('signsandbox.console.key', key), h.world.api_key);
  try {
    await page.goto(`${h.base}/_sandbox/console/#/requests/${sr.signatureRequestId}`);
    await page.waitForSelector('#signers');
    assert.equal(await page.isDisabled('#signers button:has-text("Sign")'), false, 'the signer may sign when the view is drawn');
    await h.control.post(`/signatures/${sr.signatures[0].signatureId}/sign`, {});
    const signed = (await h.api(SignatureRequestApi).signatureRequestGet(sr.signatureRequestId)).body.signatureRequest;
    await page.click('#signers button:has-text("Sign")');
    const msg = await (await page.waitForSelector('.flash:not(.ok)')).textContent();
    assert.match(msg, /Sign refused: .+/);
    const after = (await h.api(SignatureRequestApi).signatureRequestGet(sr.signatureRequestId)).body.signatureRequest;
    assert.deepEqual(after, signed, 'the refused action changed nothing');
    // Drawn again, the view disables Sign with the control plane's reason.
    await page.waitForSelector('#signers button:has-text("Sign")[disabled][title*="already been signed"]');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

browserTest('a clock advance in one tab shows in another', async () => {
  const a = await openConsole('/');
  const b = await openConsole('/');
  try {
    await a.page.waitForSelector('[data-field=now]');
    await b.page.waitForSelector('[data-field=now]');
    const before = await b.page.textContent('[data-field=now]');
    await a.page.click('button:has-text("+1 day")');
    await b.page.waitForFunction((old) => { const n = document.querySelector('[data-field=now]'); return n && n.textContent !== old; }, before, { timeout: 10000 });
    await b.page.screenshot({ path: path.join(SHOTS, 'overview.png') });
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
  }
});

browserTest('hostile values in every caller-controlled field are shown as text and never run', async () => {
  const req = new sdk.SignatureRequestSendRequest();
  Object.assign(req, {
    title: `T ${XSS}`, subject: `S ${XSS}`, message: `M ${XSS}`, signers: [signer(`N ${XSS}`, 'xss@example.com')],
    files: [pdfUpload('x<img src=x onerror=window.__xss=3>.pdf')], metadata: { k: `V ${XSS}` }, testMode: true,
  });
  const sr = (await h.api(SignatureRequestApi).signatureRequestSend(req)).body.signatureRequest;
  await h.control.advance(60);
  const tab = await openConsole('/requests');
  try {
    for (const hash of ['/requests', `/requests/${sr.signatureRequestId}`, '/outbox', '/callbacks', '/objects/signature_request']) {
      await tab.page.goto(`${h.base}/_sandbox/console/#${hash}`);
      // The page long-polls the feed, so it is never network-idle: wait for the view instead.
      await tab.page.waitForSelector('main h1');
      await tab.page.waitForTimeout(300);
      const state = await tab.page.evaluate(() => ({ xss: window.__xss, imgs: document.querySelectorAll('main img').length, scripts: document.querySelectorAll('main script').length }));
      assert.deepEqual(state, { xss: undefined, imgs: 0, scripts: 0 }, `nothing ran on ${hash}`);
    }
    await tab.page.goto(`${h.base}/_sandbox/console/#/requests/${sr.signatureRequestId}`);
    await tab.page.waitForSelector('#signers');
    const title = await tab.page.textContent('main h1');
    assert.ok(title.includes(XSS), 'the title is shown as the caller wrote it');
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});

browserTest('unknown ids show a not-found page', async () => {
  const tab = await openConsole('/requests/ffffffffffffffffffffffffffffffffffffffff');
  try {
    await tab.page.waitForSelector('[data-status="404"]');
    await tab.page.goto(`${h.base}/_sandbox/console/#/no/such/page`);
    await tab.page.waitForSelector('[data-status="404"]');
  } finally {
    await tab.close();
  }
});

/** A request with form fields for one signer, sent as multipart (form_fields_per_document). */
async function sendWithFields(title) {
  const fd = new FormData();
  fd.set('title', title);
  fd.set('test_mode', '1');
  fd.set('signers[0][name]', 'Fay Fields');
  fd.set('signers[0][email_address]', 'fay@example.com');
  fd.set('form_fields_per_document', JSON.stringify([[
    { api_id: 'company', name: 'Company', type: 'text', x: 100, y: 120, width: 200, height: 24, required: true, signer: 0, page: 1 },
    { api_id: 'zip', name: 'ZIP', type: 'text', validation_type: 'numbers_only', x: 100, y: 170, width: 120, height: 24, required: false, signer: 0, page: 1 },
    { api_id: 'agree', name: 'Agree', type: 'checkbox', x: 100, y: 220, width: 16, height: 16, required: false, is_checked: false, signer: 0, page: 1 },
    { api_id: 'sig', name: 'Signature', type: 'signature', x: 100, y: 300, width: 220, height: 40, required: true, signer: 0, page: 2 },
  ]]));
  fd.set('file[0]', new Blob([makePDF({ pages: 2 })], { type: 'application/pdf' }), 'fields.pdf');
  const res = await fetch(`${h.base}/v3/signature_request/send`, {
    method: 'POST', body: fd, headers: { Authorization: `Basic ${Buffer.from(`${h.world.api_key}:`).toString('base64')}` },
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.signature_request;
}

browserTest('the signing view shows the PDF\'s pages and the signer\'s fields; filling and signing completes the request', async () => {
  const sr = await sendWithFields('Fields to fill');
  await h.control.advance(60);
  const sid = sr.signatures[0].signature_id;
  const tab = await openConsole(`/requests/${sr.signature_request_id}/sign/${sid}`);
  try {
    await tab.page.waitForSelector('.page[data-page="2"] canvas', { timeout: 20000 });
    assert.ok(await tab.page.locator('.page canvas').count() >= 2, 'every page rendered');
    const painted = await tab.page.evaluate(() => {
      const c = document.querySelector('.page canvas');
      return c.width > 300 && c.height > 300;
    });
    assert.ok(painted, 'the page canvas has the page size');
    for (const id of ['company', 'zip', 'agree', 'sig']) await tab.page.waitForSelector(`[data-api-id="${id}"]`);
    assert.equal(await tab.page.isDisabled('#sign'), true, 'Sign waits for the required fields');
    await tab.page.fill('[data-api-id="company"]', 'Acme Co.');
    await tab.page.fill('[data-api-id="zip"]', 'abc');
    assert.equal(await tab.page.evaluate(() => document.querySelector('[data-api-id="zip"]').checkValidity()), false, 'numbers_only is enforced');
    await tab.page.fill('[data-api-id="zip"]', '12345');
    await tab.page.check('[data-api-id="agree"]');
    assert.equal(await tab.page.isDisabled('#sign'), true, 'the signature is still missing');
    await tab.page.click('[data-api-id="sig"] .adopt');
    assert.equal(await tab.page.isDisabled('#sign'), false);
    await tab.page.screenshot({ path: path.join(SHOTS, 'sign.png'), fullPage: true });
    await tab.page.click('#sign');
    await tab.page.waitForSelector('#signers >> text=signed', { timeout: 10000 });
    const got = (await h.api(SignatureRequestApi).signatureRequestGet(sr.signature_request_id)).body.signatureRequest;
    assert.equal(got.isComplete, true);
    const byId = Object.fromEntries(got.responseData.map((r) => [r.apiId, r.value]));
    assert.equal(byId.company, 'Acme Co.');
    assert.equal(byId.zip, '12345');
    assert.equal(String(byId.agree), 'true');
    assert.equal(byId.sig, 'Fay Fields');
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});

browserTest('a delivered callback appears with its attempts, payload and a verified hash', async () => {
  const { startReceiver } = require('../../lib/receiver');
  const receiver = await startReceiver();
  const w = await h.newWorld();
  const tab = await (async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.addInitScript((key) => sessionStorage.setItem('signsandbox.console.key', key), w.api_key);
    await page.goto(`${h.base}/_sandbox/console/#/callbacks`);
    await page.waitForSelector('#live.on');
    return { page, errors, close: () => context.close() };
  })();
  try {
    await h.api(sdk.AccountApi, { apiKey: w.api_key }).accountUpdate({ callbackUrl: `${receiver.url}/hook` });
    const control = h.controlFor(w.api_key);
    await control.post('/callbacks/wait', { timeout: '10s' });
    // The callback_test event shows up live, delivered.
    await tab.page.waitForSelector('#callbacks >> text=callback_test', { timeout: 10000 });
    await tab.page.click('#callbacks >> text=callback_test');
    await tab.page.waitForSelector('text=hash verifies');
    const verifies = await tab.page.textContent('[data-field=hash-verifies]');
    assert.equal(verifies, 'true', 'the event_hash verifies with the account key');
    assert.ok((await tab.page.textContent('main pre')).includes('callback_test'), 'the payload is shown');
    assert.equal(await tab.page.textContent('[data-field=duration]'), '0 ms', 'the attempt took no time on the world\'s fake clock');
    await tab.page.screenshot({ path: path.join(SHOTS, 'callback.png') });
    await tab.page.click('button:has-text("Redeliver")');
    await tab.page.waitForSelector('.flash.ok');
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
    await receiver.close();
  }
});
