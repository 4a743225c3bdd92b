'use strict';
// The console's outbox in headless Chromium, as a mail client: a request
// sent with the official Node SDK leaves an unread e-mail; opening it shows
// the HTML part in a frame sandboxed without scripts (styled, links opening
// outside it) and marks it read; the text, headers and source views show
// the same message; search finds it by a word of its body; clear-all
// empties the outbox. Its own world, so clear-all touches no other file.

const path = require('node:path');
const { setup, signer, sdk, assert } = require('../../lib/harness');
const { pdfUpload } = require('../../lib/pdf');
const { browserSuite } = require('./suite');

const h = setup();
const { SignatureRequestApi } = sdk;
const suite = browserSuite(h);
const browserTest = suite.test;
const XSS = '"><img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';

/** A console tab on this file's world; dialogs (clear-all's confirm) are accepted. */
async function openConsole(hash) {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => d.accept().catch(() => {}));
  // The top page only: an e-mail's sandboxed frame has no storage.
  await page.addInitScript((key) => { if (window === window.top) sessionStorage.setItem('signsandbox.console.key', key); }, h.world.api_key);
  await page.goto(`${h.base}/_sandbox/console/#${hash}`);
  await page.waitForSelector('#live.on');
  return { page, errors, close: () => context.close() };
}

async function send(title, message, who, email) {
  const req = new sdk.SignatureRequestSendRequest();
  Object.assign(req, { title, subject: `Subject ${title}`, message, signers: [signer(who, email)], files: [pdfUpload(`${title}.pdf`)], testMode: true });
  return (await h.api(SignatureRequestApi).signatureRequestSend(req)).body.signatureRequest;
}

browserTest('an e-mail opens as its recipient reads it: HTML in a sandboxed frame, text, headers and source', async () => {
  await send('Outbox lease', 'Please bring\nthe blue pen.', 'Olga Outbox', 'olga@example.com');
  await h.control.advance(60);
  const tab = await openConsole('/outbox');
  try {
    const row = await tab.page.waitForSelector('#outbox tr.unread >> text=olga@example.com');
    await row.click();
    const frame = await tab.page.waitForSelector('iframe.mail-html');
    assert.equal(await frame.getAttribute('sandbox'), 'allow-popups allow-popups-to-escape-sandbox', 'no scripts, no origin');
    const doc = tab.page.frameLocator('iframe.mail-html');
    assert.match(await doc.locator('h1').textContent(), /has requested your signature on .Outbox lease./);
    assert.match(await doc.locator('blockquote').textContent(), /Please bring\s*the blue pen\./);
    const button = doc.locator('a', { hasText: 'Review & sign' });
    assert.equal(await button.evaluate((a) => getComputedStyle(a).backgroundColor), 'rgb(0, 97, 254)', 'the e-mail\'s inline styles apply');
    assert.match(await button.getAttribute('href'), /\/_sandbox\/w\/[^/]+\/sign\//);
    await tab.page.screenshot({ path: path.join(suite.shots, 'outbox-html.png') });
    // Opening it read it.
    await tab.page.waitForSelector('#mail-read >> text=Mark unread');

    await tab.page.click('#mail-view-text');
    assert.match(await (await tab.page.waitForSelector('pre.mail-text')).textContent(), /Please bring\n {2}the blue pen\./);
    await tab.page.click('#mail-view-headers');
    const headers = await (await tab.page.waitForSelector('table.mail-headers')).textContent();
    for (const name of ['Date', 'From', 'Reply-To', 'To', 'Message-ID', 'Subject', 'MIME-Version']) assert.ok(headers.includes(name), name);
    assert.ok(headers.includes('Olga Outbox <olga@example.com>'));
    await tab.page.click('#mail-view-source');
    const source = await (await tab.page.waitForSelector('pre.mail-source')).textContent();
    assert.match(source, /^Date: /);
    assert.ok(source.includes('Content-Type: multipart/alternative;'));
    assert.ok(source.includes('Content-Type: text/html; charset=utf-8'));

    await tab.page.click('#mail-read');
    await tab.page.waitForSelector('#mail-read >> text=Mark read');
    await tab.page.goto(`${h.base}/_sandbox/console/#/outbox`);
    await tab.page.waitForSelector('#outbox tr.unread >> text=olga@example.com');
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});

browserTest('search finds e-mails by a word of their body or a field; hostile values run nothing in the frame', async () => {
  await send(`Hostile ${XSS}`, `M ${XSS}`, `N ${XSS}`, 'xss@example.com');
  await h.control.advance(60);
  const tab = await openConsole('/outbox');
  try {
    await tab.page.fill('#outbox-search', 'body:"blue pen"');
    await tab.page.click('form[role=search] button[type=submit]');
    // The unfiltered list (both e-mails) may still be on screen until the
    // search's answer is drawn: wait for the list to change, then check it.
    await tab.page.waitForFunction(() => document.querySelectorAll('#outbox tbody tr').length === 1, null, { timeout: 15000 }).catch(() => {});
    await tab.page.waitForSelector('#outbox >> text=olga@example.com');
    assert.equal(await tab.page.locator('#outbox tbody tr').count(), 1);
    await tab.page.goto(`${h.base}/_sandbox/console/#/outbox?q=${encodeURIComponent('to:nobody@example.com')}`);
    await tab.page.waitForSelector('text=No e-mail matches.');
    await tab.page.goto(`${h.base}/_sandbox/console/#/outbox?q=${encodeURIComponent('to:xss@example.com')}`);
    await (await tab.page.waitForSelector('#outbox >> text=xss@example.com')).click();
    const doc = tab.page.frameLocator('iframe.mail-html');
    assert.ok((await doc.locator('h1').textContent()).includes(XSS), 'the title is text');
    assert.equal(await doc.locator('img, script').count(), 0, 'no markup of the caller\'s in the e-mail');
    assert.equal(await tab.page.evaluate(() => window.__xss), undefined);
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});

browserTest('clear-all empties the outbox', async () => {
  const tab = await openConsole('/outbox');
  try {
    await tab.page.waitForSelector('#outbox tbody tr');
    await tab.page.click('#outbox-clear');
    await tab.page.waitForSelector('text=No e-mails yet.');
    const { emails } = await h.control.get('/emails');
    assert.deepEqual(emails, []);
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});
