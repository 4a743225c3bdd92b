'use strict';
// The console's outbox with --smtp-relay, in headless Chromium: a sandbox of
// its own relays to a mail server on loopback (a few lines of SMTP here)
// that accepts one recipient and refuses the other for good; the list and
// the opened e-mail show each one's delivery ("delivered", "failed" with the
// server's reply). The relay needs the binary's flag, so this file starts
// its own sandbox rather than the shared one.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const net = require('node:net');
const sandbox = require('../../lib/sandbox');
const { findChromium, launch } = require('../chromium');

const FIXTURE_KEY = '0b1a94ccae9d6301cd0b5fae223a4e6b9ad0d67861716ffcff2a2cd8f7d8381c'; // fixtures/world.json
const chromium = findChromium();

/**
 * startSMTPSink is a mail server on a loopback port that speaks just enough
 * SMTP for the relay: it refuses RCPT TO for addresses refuse() names
 * (550) and keeps every accepted message's recipients.
 */
function startSMTPSink(refuse) {
  const received = [];
  const server = net.createServer((sock) => {
    let buf = '';
    let data = false;
    let rcpt = [];
    sock.write('220 sink ESMTP\r\n');
    sock.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (data) {
          if (line === '.') {
            data = false;
            received.push(rcpt);
            rcpt = [];
            sock.write('250 2.0.0 queued\r\n');
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') sock.write('250 sink\r\n');
        else if (verb === 'MAIL' || verb === 'RSET' || verb === 'NOOP') sock.write('250 2.0.0 ok\r\n');
        else if (verb === 'RCPT') {
          const to = /<([^>]*)>/.exec(line)[1];
          if (refuse(to)) sock.write('550 5.1.1 no such mailbox\r\n');
          else {
            rcpt.push(to);
            sock.write('250 2.1.5 ok\r\n');
          }
        } else if (verb === 'DATA') {
          data = true;
          sock.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          sock.end('221 2.0.0 bye\r\n');
        } else sock.write('502 5.5.2 not implemented\r\n');
      }
    });
    sock.on('error', () => {});
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ addr: `127.0.0.1:${server.address().port}`, received, close: () => new Promise((r) => server.close(r)) }));
  });
}

let sink;
let server;
let browser;

before(async () => {
  if (!chromium.path) return;
  sink = await startSMTPSink((to) => to === 'gone@example.com');
  server = await sandbox.startBinary(sandbox.buildBinary(), { args: ['--offline', '--smtp-relay', sink.addr] });
  browser = await launch(chromium.path);
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.child.kill();
  if (sink) await sink.close();
});

/** Polls the outbox until every e-mail's delivery settled. */
async function settledOutbox(base, n) {
  const deadline = Date.now() + 30000;
  for (;;) {
    const res = await fetch(`${base}/_sandbox/emails`);
    const { emails } = await res.json();
    if (emails.length >= n && emails.every((e) => e.delivery && e.delivery.state !== 'pending')) return emails;
    if (Date.now() > deadline) throw new Error(`the relay never settled: ${JSON.stringify(emails)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('the outbox shows each e-mail\'s delivery at the SMTP relay', async (t) => {
  if (!chromium.path) {
    t.skip(chromium.reason);
    return;
  }
  const base = sandbox.baseOf(server.url);
  const res = await fetch(`${base}/v3/signature_request/send`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${FIXTURE_KEY}:`).toString('base64')}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      test_mode: true, title: 'Relayed lease', file_urls: ['https://example.com/lease.pdf'],
      signers: [{ name: 'Ann Relay', email_address: 'ann@example.com' }, { name: 'Gone Away', email_address: 'gone@example.com' }],
    }),
  });
  assert.equal(res.status, 200, await res.text());
  const emails = await settledOutbox(base, 2);
  assert.deepEqual(emails.map((e) => [e.to, e.delivery.state]), [['ann@example.com', 'delivered'], ['gone@example.com', 'failed']]);
  assert.deepEqual(sink.received, [['ann@example.com']], 'the mail server got the accepted e-mail once');

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/_sandbox/console/#/outbox`);
    const ann = await page.waitForSelector('#outbox tr >> text=ann@example.com');
    assert.match(await ann.evaluate((td) => td.closest('tr').textContent), /delivered/);
    const gone = await page.waitForSelector('#outbox tr >> text=gone@example.com');
    const row = await gone.evaluateHandle((td) => td.closest('tr'));
    assert.match(await row.evaluate((tr) => tr.textContent), /failed/);
    assert.match(await row.evaluate((tr) => tr.querySelector('[title*="550"]').title), /failed, 1 attempt\(s\): 550 .*no such mailbox/,
      'the server\'s reply on hover');
    await gone.click();
    const header = await page.waitForSelector('article.mail header');
    await page.waitForSelector('article.mail header >> text=1 attempt(s)');
    assert.match(await header.textContent(), /relay\s*failed\s*1 attempt\(s\) — 550 .*no such mailbox/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
