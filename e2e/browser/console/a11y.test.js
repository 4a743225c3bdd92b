'use strict';
// Pages everyone can use, and a console that offers only what the control
// plane takes, in headless Chromium:
// - axe-core (the accessibility engine, from npm) over every console view
//   and the signing, claim and template editor pages finds no serious or
//   critical WCAG 2 A/AA violation;
// - at a phone's width (375 px) no console view scrolls sideways;
// - a signer who signed has every action disabled, each with the control
//   plane's own refusal as its reason (on hover and for screen readers);
//   a real clock's buttons are disabled with the reason;
// - the timeline is in causal order, the search takes status: and the list
//   API's fields, and the header lists the worlds of this (loopback) server.
//
// Without Chromium every test here skips with the reason (see ../chromium.js).

const fs = require('node:fs');
const { setup, assert } = require('../../lib/harness');
const { makePDF } = require('../../lib/pdf');
const { browserSuite } = require('./suite');

const h = setup();
const suite = browserSuite(h);
const browserTest = suite.test;

const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** The rules run: WCAG 2.0 and 2.1, levels A and AA. */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

function auth() {
  return { Authorization: `Basic ${Buffer.from(`${h.world.api_key}:`).toString('base64')}` };
}

async function api(method, p, body) {
  const res = await fetch(`${h.base}/v3${p}`, { method, body, headers: auth() });
  const json = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}

async function send(title, extra = {}) {
  const fd = new FormData();
  fd.set('title', title);
  fd.set('subject', `Subject ${title}`);
  fd.set('message', `Message ${title}`);
  fd.set('test_mode', '1');
  fd.set('signers[0][name]', 'Ada Axe');
  fd.set('signers[0][email_address]', 'ada@example.com');
  fd.set('form_fields_per_document', JSON.stringify([[
    { api_id: 'company', name: 'Company', type: 'text', x: 90, y: 110, width: 220, height: 24, required: true, signer: 0, page: 1 },
    { api_id: 'agree', name: 'Agree', type: 'checkbox', x: 90, y: 160, width: 16, height: 16, required: false, is_checked: false, signer: 0, page: 1 },
    { api_id: 'sig', name: 'Signature', type: 'signature', x: 90, y: 220, width: 220, height: 44, required: true, signer: 0, page: 1 },
  ]]));
  for (const [k, v] of Object.entries(extra)) fd.set(k, v);
  fd.set('file[0]', new Blob([makePDF({ pages: 1, text: title })], { type: 'application/pdf' }), 'doc.pdf');
  return (await api('POST', '/signature_request/send', fd)).signature_request;
}

async function newTab({ key = h.world.api_key, width = 1280 } = {}) {
  const context = await suite.browser.newContext({ viewport: { width, height: 860 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => d.dismiss().catch(() => {}));
  // Not in the e-mail's frame, sandboxed without its origin (no storage).
  if (key) await page.addInitScript((k) => { try { sessionStorage.setItem('signsandbox.console.key', k); } catch { /* sandboxed frame */ } }, key);
  return { page, errors, close: () => context.close() };
}

/** Opens a console view and waits until it is drawn. */
async function openView(page, hash, ready) {
  await page.goto(`${h.base}/_sandbox/console/#${hash}`);
  await page.waitForSelector('#live.on');
  await page.waitForFunction(() => !document.querySelector('#view > p.muted'), null, { timeout: 20000 });
  if (ready) await page.waitForSelector(ready, { timeout: 20000 });
}

/**
 * axe answers the violations axe-core finds on the page as
 * {id, impact, nodes}; page.evaluate runs it through the DevTools protocol,
 * which the pages' content security policy does not govern.
 */
async function axe(page) {
  await page.evaluate(AXE);
  return page.evaluate(async (tags) => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  }, WCAG);
}

/** Every page's violations, printed for the report; serious and critical ones fail. */
const found = {};
async function audit(page, name) {
  const v = await axe(page);
  found[name] = v;
  const bad = v.filter((x) => x.impact === 'serious' || x.impact === 'critical');
  assert.deepEqual(bad, [], `${name}: serious or critical WCAG 2 A/AA violations`);
}

let sr; // a request whose signer signed
let open; // one still awaiting its signer
let ids = {};

browserTest('axe-core finds no serious or critical WCAG 2 A/AA violation on the console\'s views and the pages', async () => {
  sr = await send('Axe signed');
  open = await send('Axe open', { allow_decline: '1', allow_reassign: '1' });
  await h.control.advance(60);
  await h.control.post(`/signatures/${sr.signatures[0].signature_id}/sign`, {});
  await h.control.advance(60);
  const { emails } = await h.control.get(`/emails?signature_request_id=${open.signature_request_id}`);
  const signMail = emails.find((e) => e.link && e.link.includes('/sign/'));
  assert.ok(signMail, 'the open request\'s signer got the signing link');
  const events = await h.control.get('/callbacks?limit=1');
  const tpl = new FormData();
  tpl.set('client_id', h.world.client_id);
  tpl.set('test_mode', '1');
  tpl.set('title', 'Axe template');
  tpl.set('signer_roles[0][name]', 'Tenant');
  tpl.set('file[0]', new Blob([makePDF({ pages: 1, text: 'Template' })], { type: 'application/pdf' }), 't.pdf');
  const { template_id: templateID, edit_url: editURL } = (await api('POST', '/template/create_embedded_draft', tpl)).template;
  const claim = new FormData();
  claim.set('client_id', h.world.client_id);
  claim.set('test_mode', '1');
  claim.set('requester_email_address', h.world.email_address);
  claim.set('signers[0][name]', 'Cleo');
  claim.set('signers[0][email_address]', 'cleo@example.com');
  claim.set('file[0]', new Blob([makePDF({ pages: 1, text: 'Claim' })], { type: 'application/pdf' }), 'c.pdf');
  const draft = (await api('POST', '/unclaimed_draft/create_embedded', claim)).unclaimed_draft;
  ids = { sr: sr.signature_request_id, open: open.signature_request_id, sig: open.signatures[0].signature_id, template: templateID, mail: signMail.id, event: events.callbacks[0] && events.callbacks[0].id };

  const tab = await newTab();
  try {
    const views = [
      ['overview', '/', '#clock'],
      ['key', '/key', '#key-input'],
      ['requests', '/requests', '#requests'],
      ['request', `/requests/${ids.open}`, '#signers'],
      ['request signed', `/requests/${ids.sr}`, '#signers'],
      ['sign view', `/requests/${ids.open}/sign/${ids.sig}`, '.page canvas'],
      ['outbox', '/outbox', '#outbox'],
      ['e-mail', `/outbox/${ids.mail}`, 'article.mail'],
      ['callbacks', '/callbacks', '#callbacks'],
      ['callback', `/callbacks/${ids.event}`, 'h1'],
      ['templates', '/objects/template', '#objects'],
      ['template', `/objects/template/${ids.template}`, 'pre'],
      ['template fields', `/objects/template/${ids.template}/fields`, '.page canvas'],
      ['api apps', '/objects/api_app', '#objects'],
      ['oauth tokens', '/oauth_tokens', 'h1'],
      ['not found', '/nowhere', '.notfound'],
    ];
    for (const [name, hash, ready] of views) {
      await openView(tab.page, hash, ready);
      await audit(tab.page, `console ${name}`);
    }
    const pages = [
      ['signing page', signMail.link, '.page canvas'],
      ['template editor page', editURL, '.page canvas'],
      ['claim page', draft.claim_url, '.page canvas'],
    ];
    for (const [name, url, ready] of pages) {
      await tab.page.goto(url);
      await tab.page.waitForSelector(ready, { timeout: 20000 });
      await audit(tab.page, name);
    }
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
    for (const [name, v] of Object.entries(found)) {
      console.log(`# axe ${name}: ${v.length ? v.map((x) => `${x.id} (${x.impact}, ${x.nodes.length})`).join(', ') : 'no violation'}`);
    }
  }
});

browserTest('at 375 px no console view scrolls sideways', async () => {
  assert.ok(ids.open, 'the axe test made the objects');
  const tab = await newTab({ width: 375 });
  try {
    for (const [hash, ready] of [['/', '#clock'], ['/requests', '#requests'], [`/requests/${ids.open}`, '#signers'], [`/requests/${ids.sr}`, '#timeline'],
      ['/outbox', '#outbox'], ['/callbacks', '#callbacks'], ['/objects/template', '#objects'], ['/oauth_tokens', 'h1'], ['/key', '#key-input'],
      [`/requests/${ids.open}/sign/${ids.sig}`, '.page canvas'], [`/objects/template/${ids.template}/fields`, '.page canvas']]) {
      await openView(tab.page, hash, ready);
      const { scroll, client } = await tab.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      assert.ok(scroll <= client, `#${hash} is ${scroll} px wide in a ${client} px window`);
    }
  } finally {
    await tab.close();
  }
});

browserTest('a signer who signed has every action disabled with the control plane\'s reason; what is offered is taken', async () => {
  assert.ok(ids.sr, 'the axe test made the objects');
  const tab = await newTab();
  try {
    await openView(tab.page, `/requests/${ids.sr}`, '#signers');
    const buttons = await tab.page.$$eval('#signers tbody tr button', (bs) => bs.map((b) => ({
      label: b.textContent, disabled: b.disabled, reason: b.title,
      described: b.getAttribute('aria-describedby') ? document.getElementById(b.getAttribute('aria-describedby')).textContent : '',
    })));
    assert.deepEqual(buttons.map((b) => b.label), ['View', 'Sign', 'Decline', 'Reassign', 'Bounce']);
    const sig = sr.signatures[0].signature_id;
    for (const b of buttons) {
      assert.equal(b.disabled, true, `${b.label} after signing`);
      assert.ok(b.reason, `${b.label} says why`);
      assert.ok(b.described.includes(b.reason), `${b.label}'s reason reaches screen readers`);
      const action = b.label.toLowerCase();
      const body = { sign: {}, decline: { reason: 'x' }, reassign: { name: 'X', email_address: 'x@example.com' } }[action];
      const res = await fetch(`${h.base}/_sandbox/signatures/${sig}/${action}`, {
        method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined,
      });
      const json = await res.json();
      assert.notEqual(res.status, 200, `the control plane refuses ${action}`);
      assert.equal(json.error.error_msg, b.reason, `the console's reason for ${action} is the control plane's`);
    }

    // The open request's signer: what the console enables, the control
    // plane takes (View, then Sign: the request completes).
    await openView(tab.page, `/requests/${ids.open}`, '#signers');
    assert.equal(await tab.page.isDisabled('#signers button:has-text("View")'), false);
    await tab.page.click('#signers button:has-text("View")');
    await tab.page.waitForSelector('.flash.ok');
    await tab.page.click('#signers button:has-text("Sign")');
    await tab.page.waitForSelector('#signers >> text=signed');
    assert.equal((await api('GET', `/signature_request/${ids.open}`)).signature_request.is_complete, true);

    // The timeline, in causal order, "created" once.
    await openView(tab.page, `/requests/${ids.open}`, '#timeline');
    const lines = await tab.page.$$eval('#timeline li .what', (ns) => ns.map((n) => n.textContent));
    const at = (re) => lines.findIndex((l) => re.test(l));
    assert.equal(lines.filter((l) => /^created/.test(l)).length, 1, `created once: ${lines.join(' | ')}`);
    assert.ok(at(/event signature_request_signed/) >= 0 && at(/event signature_request_signed/) < at(/event signature_request_all_signed/),
      `signed before all_signed: ${lines.join(' | ')}`);
    assert.ok(at(/^signed/) < at(/^completed/), `the signature before the completion: ${lines.join(' | ')}`);
    const times = await tab.page.$$eval('#timeline time', (ns) => ns.map((n) => n.textContent));
    for (const t of times) assert.match(t, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC( · .+)?$/, 'one time format');

    // Search as the list API takes it, plus status:.
    await openView(tab.page, `/requests?q=${encodeURIComponent('status:signed AND title:Axe')}`, '#requests');
    const titles = await tab.page.$$eval('#requests tbody tr td:first-child', (ns) => ns.map((n) => n.textContent));
    assert.deepEqual(titles.sort(), ['Axe open', 'Axe signed']);
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});

browserTest('the default world\'s real clock: its buttons are disabled with the reason; the header lists this server\'s worlds', async () => {
  const tab = await newTab({ key: '' });
  try {
    await openView(tab.page, '/', '#clock');
    const plusDay = tab.page.locator('#clock button:has-text("+1 day")');
    assert.equal(await plusDay.isDisabled(), true);
    assert.match(await plusDay.getAttribute('title'), /real and cannot be advanced/);
    // Loopback, no admin token: the switcher lists the worlds, and picking
    // one opens it. Through the router (npm run test:router) the list is
    // the first server's, which may not hold this file's world: then
    // another of its worlds is picked.
    const options = await tab.page.$$eval('#world-switch option', (os) => os.map((o) => ({ id: o.value, label: o.textContent })));
    const routed = process.env.SIGNSANDBOX_E2E_ROUTER === '1';
    const mine = options.find((o) => o.id === h.world.world_id);
    if (!routed) assert.ok(mine, `this file's world is listed: ${JSON.stringify(options)}`);
    const pick = mine || options.find((o) => !o.label.includes('(default)'));
    if (!pick) return; // through the router, the first server may hold only its default world
    await tab.page.selectOption('#world-switch', pick.id);
    await tab.page.waitForFunction((id) => document.getElementById('world-name').textContent === `world ${id}`, pick.id);
    if (mine) {
      // This file's world has a fake clock: its buttons are enabled.
      await tab.page.waitForSelector('#clock button:has-text("+1 day"):not([disabled])', { timeout: 10000 });
    }
    assert.deepEqual(tab.errors, []);
  } finally {
    await tab.close();
  }
});
