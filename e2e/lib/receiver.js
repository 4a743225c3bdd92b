'use strict';
// A callback receiver as an integrator writes one: an HTTP server that takes
// the multipart POST the service sends (one field "json" holding the event),
// parses it into the SDK's EventCallbackRequest, and answers the body the
// service requires to count the delivery ("Hello API Event Received").

const http = require('node:http');
const sdk = require('@dropbox/sign');
const { checkShape } = require('./shape');

const ACK = 'Hello API Event Received';

/**
 * Starts a receiver on a loopback port. Each delivery is kept as
 * {raw, event (EventCallbackRequest), contentType, shapeProblems, path}.
 * respond(req) may answer {status, body} to simulate a failing receiver.
 */
async function startReceiver({ respond } = {}) {
  const deliveries = [];
  const waiters = [];
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    const contentType = req.headers['content-type'] || '';
    const d = { path: req.url, method: req.method, contentType, headers: req.headers, bytes: body.length };
    try {
      let json;
      if (contentType.startsWith('multipart/form-data')) {
        const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
        json = form.get('json');
        d.fields = [...form.keys()];
      } else if (contentType.startsWith('application/x-www-form-urlencoded')) {
        json = new URLSearchParams(body.toString('utf8')).get('json');
      } else {
        json = body.toString('utf8');
      }
      d.raw = JSON.parse(json);
      d.event = sdk.EventCallbackRequest.init(d.raw);
      d.shapeProblems = checkShape(d.raw, 'EventCallbackRequest');
    } catch (e) {
      d.parseError = String(e && e.message);
    }
    const answer = respond ? respond(d) : null;
    d.answered = answer || { status: 200, body: ACK };
    deliveries.push(d);
    res.writeHead(d.answered.status, { 'Content-Type': 'text/plain' });
    res.end(d.answered.body);
    for (const w of waiters.splice(0)) w();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    /** Deliveries whose event type is one of types (all when none given). */
    events(...types) {
      return deliveries.filter((d) => d.event && (!types.length || types.includes(d.event.event.eventType)));
    },
    /** Resolves when pred(deliveries) is true; rejects after timeoutMs of wall time. */
    async waitFor(pred, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(deliveries)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`receiver: condition not met in ${timeoutMs} ms; got ${deliveries.map((d) => d.event ? d.event.event.eventType : d.parseError).join(', ') || 'nothing'}`);
        await new Promise((resolve) => {
          const t = setTimeout(resolve, Math.min(left, 100));
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return deliveries;
    },
    /**
     * Problems of every delivery so far: unparsable payloads, payloads that
     * differ from the SDK model, and hashes that EventCallbackHelper.isValid
     * does not accept with keyFor(delivery) (the API key of its account).
     */
    problems(keyFor) {
      const out = [];
      for (const d of deliveries) {
        const what = `${d.path} ${d.event ? d.event.event.eventType : ''}`;
        if (d.parseError) out.push(`${what}: ${d.parseError}`);
        else {
          for (const p of d.shapeProblems) out.push(`${what}: ${p}`);
          const key = keyFor && keyFor(d);
          if (key && !sdk.EventCallbackHelper.isValid(key, d.event)) out.push(`${what}: event_hash does not validate`);
        }
      }
      return out;
    },
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections && server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

module.exports = { startReceiver, ACK };
