// The signsandbox console: one page, views chosen by the URL's hash, data
// from /_sandbox/console/api/ and actions through the ordinary /_sandbox/
// control calls. Every value from the world is put into the page with
// textContent or DOM properties, never parsed as HTML. The API key, when the
// user gives one, lives in sessionStorage and travels only in the
// Authorization header.
"use strict";

(function () {
  const KEY_STORE = "signsandbox.console.key";
  const ADMIN_STORE = "signsandbox.console.admin";
  const CONTROL = "/_sandbox";
  const API = CONTROL + "/console/api";
  const view = document.getElementById("view");
  const flash = document.getElementById("flash");
  let worldKey = ""; // the world's own key, learned from GET /_sandbox/world, for /v3 downloads
  let renderSeq = 0;
  // navigated is true while the view being drawn was reached by moving to
  // its URL, false for a redraw of the same view (live updates, actions).
  let navigated = true;

  // ---------- DOM helpers: text nodes and properties, never markup ----------
  function el(tag, attrs, ...children) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") n.className = v;
      else if (k === "href") n.href = safeHref(v);
      else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
      else n.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      n.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return n;
  }
  // safeHref lets through only links a browser can follow safely: http(s)
  // and the console's own hash routes. A javascript: or data: URL from a
  // caller's value becomes a dead link.
  function safeHref(v) {
    const s = String(v);
    if (s.startsWith("#")) return s;
    try {
      const u = new URL(s, location.href);
      if (u.protocol === "http:" || u.protocol === "https:") return u.href;
    } catch (e) { /* not a URL */ }
    return "#/invalid-link";
  }
  function badge(s) { return el("span", { class: "badge " + String(s).replace(/[^a-z_]/gi, "") }, String(s)); }
  // One time format everywhere: the instant on the world clock in UTC,
  // then how long before or after the world's now (read from
  // /_sandbox/clock at every draw, so a fake clock's "now" is the world's,
  // not the browser's).
  let worldNow = 0;
  function utc(unix) { return new Date(unix * 1000).toISOString().replace("T", " ").replace(/\.\d{3}Z$/, " UTC"); }
  function relative(unix) {
    if (!worldNow) return "";
    const d = unix - worldNow;
    const a = Math.abs(d);
    if (a < 1) return "now";
    const units = [[86400 * 365, "year"], [86400, "day"], [3600, "h"], [60, "min"], [1, "s"]];
    const [n, u] = units.find(([n]) => a >= n);
    const v = Math.floor(a / n);
    const word = u === "year" || u === "day" ? v + " " + u + (v === 1 ? "" : "s") : v + " " + u;
    return d < 0 ? word + " ago" : "in " + word;
  }
  function when(unix) {
    if (!unix) return "—";
    const rel = relative(unix);
    return el("time", { datetime: new Date(unix * 1000).toISOString() }, utc(unix), rel ? el("span", { class: "rel" }, " · " + rel) : "");
  }
  // table draws a table whose cells carry their column's name, so that on
  // a narrow screen each row stacks as label: value (see app.css).
  function table(attrs, headers, rows) {
    return el("table", attrs,
      el("thead", {}, el("tr", {}, headers.map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, rows));
  }
  function row(headers, cells, attrs) {
    return el("tr", attrs || {}, cells.map((c, i) => el("td", { "data-label": headers[i] || null }, c)));
  }
  // actionButton is a button for an action the control plane judges: one
  // it would refuse is disabled, with the control plane's reason on hover
  // (title) and for screen readers (aria-describedby).
  let reasonSeq = 0;
  function actionButton(label, verdict, attrs) {
    const refused = verdict && !verdict.allowed;
    const b = el("button", Object.assign({}, attrs, { disabled: refused || attrs.disabled }), label);
    if (!refused) return b;
    const id = "why-" + (++reasonSeq);
    b.title = verdict.reason;
    b.setAttribute("aria-describedby", id);
    b.dataset.reason = verdict.reason;
    return [b, el("span", { class: "sr-only", id }, label + " is unavailable: " + verdict.reason)];
  }
  // A scrollable block can be reached by keyboard (tabindex), as WCAG asks.
  function pretty(v, label) { return el("pre", { tabindex: 0, role: "region", "aria-label": label || "JSON" }, JSON.stringify(v, null, 2)); }
  function kv(pairs) {
    const dl = el("dl", { class: "kv" });
    for (const [k, v] of pairs) dl.append(el("dt", {}, k), el("dd", {}, v === undefined || v === null || v === "" ? "—" : v));
    return dl;
  }
  function show(msg, ok) {
    flash.textContent = msg;
    flash.className = ok ? "flash ok" : "flash";
    flash.hidden = false;
  }
  function clearFlash() { flash.hidden = true; flash.textContent = ""; }

  // ---------- calls ----------
  function key() { return sessionStorage.getItem(KEY_STORE) || ""; }
  function adminToken() { return sessionStorage.getItem(ADMIN_STORE) || ""; }
  function authHeader(k) { return "Basic " + btoa(k + ":"); }
  class CallError extends Error {
    constructor(status, body) {
      const e = body && body.error;
      super(e ? e.error_msg + (e.error_name ? " (" + e.error_name + ")" : "") : "HTTP " + status);
      this.status = status;
    }
  }
  // call sends a control or API call with the console's header (which makes
  // every cross-origin call need a preflight the sandbox never approves) and
  // the user's key, if any.
  async function call(method, path, body, opts) {
    opts = opts || {};
    const headers = { "X-Sandbox-Console": "1", Accept: "application/json" };
    const k = opts.noKey ? "" : opts.apiKey || key();
    if (k) headers.Authorization = authHeader(k);
    // The admin token (a shared server's) goes with every call when given:
    // the default world and the world list need it there.
    if (adminToken()) headers["X-Signsandbox-Admin-Token"] = adminToken();
    let payload;
    if (body instanceof Blob || typeof body === "string") payload = body;
    else if (body !== undefined) { payload = JSON.stringify(body); headers["Content-Type"] = "application/json"; }
    const res = await fetch(path, { method, headers, body: payload, credentials: "omit", signal: opts.signal });
    if (opts.raw) {
      if (!res.ok) throw new CallError(res.status, await res.json().catch(() => null));
      return res;
    }
    const text = await res.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
    if (!res.ok) throw new CallError(res.status, data);
    return data;
  }
  const get = (p) => call("GET", p);
  // act runs a state-changing control call and says how it went; a refused
  // call shows the control plane's own error, and the world is unchanged.
  async function act(label, method, path, body) {
    try {
      await call(method, path, body);
      show(label + ": done.", true);
      render();
    } catch (e) {
      show(label + " refused: " + e.message);
      render(); // the world moved under this view: draw what it is now
    }
  }
  async function download(path, name, apiKey) {
    try {
      const res = await call("GET", path, undefined, { raw: true, apiKey });
      const blob = await res.blob();
      const a = el("a", {});
      a.href = URL.createObjectURL(blob);
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    } catch (e) {
      show("Download refused: " + e.message);
    }
  }

  // ---------- routing ----------
  const routes = [
    [/^\/?$/, overview],
    [/^\/key$/, keyForm],
    [/^\/requests$/, requests],
    [/^\/requests\/([^/]+)$/, requestDetail],
    [/^\/requests\/([^/]+)\/sign\/([^/]+)$/, signView],
    [/^\/outbox$/, outbox],
    [/^\/outbox\/([^/]+)$/, emailDetail],
    [/^\/callbacks$/, callbacks],
    [/^\/callbacks\/([^/]+)$/, callbackDetail],
    [/^\/oauth_tokens$/, oauthTokens],
    [/^\/objects\/([a-z_]+)$/, objects],
    [/^\/objects\/template\/([^/]+)\/fields$/, templateFields],
    [/^\/objects\/([a-z_]+)\/([^/]+)$/, objectDetail],
  ];
  function parseHash() {
    const h = location.hash.replace(/^#/, "") || "/";
    const [p, q] = h.split("?");
    return { path: p, query: new URLSearchParams(q || "") };
  }
  async function render(byNavigation) {
    navigated = byNavigation === true;
    const seq = ++renderSeq;
    const { path, query } = parseHash();
    for (const a of document.querySelectorAll("#nav a")) {
      const target = a.getAttribute("href").slice(1);
      a.classList.toggle("active", target === "/" ? path === "/" : path.startsWith(target));
    }
    for (const [re, fn] of routes) {
      const m = path.match(re);
      if (!m) continue;
      try {
        try { worldNow = (await get(CONTROL + "/clock")).now; } catch (e) { worldNow = 0; }
        const node = await fn(query, ...m.slice(1).map(decodeURIComponent));
        if (seq === renderSeq) view.replaceChildren(node);
      } catch (e) {
        if (seq === renderSeq) view.replaceChildren(errorView(e));
      }
      return;
    }
    view.replaceChildren(notFound("There is no console page " + path + "."));
  }
  function notFound(msg) {
    return el("div", { class: "notfound", "data-status": "404" }, el("h1", {}, "Not found"), el("p", {}, msg),
      el("p", {}, el("a", { href: "#/" }, "Back to the overview")));
  }
  function errorView(e) {
    if (e.status === 404) return notFound(e.message);
    if (e.status === 401) {
      return el("div", { class: "card" }, el("h1", {}, "This world needs its API key"), el("p", {}, e.message),
        el("p", {}, el("a", { href: "#/key" }, "Give the API key")));
    }
    return el("div", { class: "card" }, el("h1", {}, "Something went wrong"), el("p", {}, e.message));
  }

  // ---------- views ----------
  async function keyForm() {
    const input = el("input", { id: "key-input", type: "password", size: 50, placeholder: "API key of the world", autocomplete: "off" });
    const form = el("form", {
      onsubmit: async (ev) => {
        ev.preventDefault();
        const k = input.value.trim();
        try {
          await call("GET", CONTROL + "/world", undefined, { apiKey: k });
        } catch (e) {
          show("That key opens no world: " + e.message);
          return;
        }
        sessionStorage.setItem(KEY_STORE, k);
        input.value = "";
        await worldChanged();
        location.hash = "#/";
      },
    }, el("label", { for: "key-input" }, "API key"), el("div", { class: "row" }, input, el("button", { class: "primary", type: "submit" }, "Open the world")));
    const forget = el("button", {
      type: "button",
      onclick: async () => { sessionStorage.removeItem(KEY_STORE); await worldChanged(); location.hash = "#/"; },
    }, "Forget the key (default world)");
    const admin = el("input", { id: "admin-input", type: "password", size: 50, placeholder: "admin token of a shared server", autocomplete: "off" });
    const adminForm = el("form", {
      onsubmit: async (ev) => {
        ev.preventDefault();
        const tok = admin.value.trim();
        if (tok) sessionStorage.setItem(ADMIN_STORE, tok); else sessionStorage.removeItem(ADMIN_STORE);
        admin.value = "";
        await worldChanged();
        show(tok ? "Admin token kept for this tab." : "Admin token forgotten.", true);
      },
    }, el("label", { for: "admin-input" }, "Admin token"), el("div", { class: "row" }, admin, el("button", { type: "submit" }, "Use the token")));
    return el("div", { class: "card" }, el("h1", {}, "Open a world"),
      el("p", { class: "muted" }, "Without a key the console shows the default world (on a loopback address). " +
        "Any other world opens with one of its API keys, or from the world list in the header; the key stays in this tab's session storage and is sent only in the Authorization header."),
      form, el("div", { class: "row" }, forget),
      el("h2", {}, "Shared server"),
      el("p", { class: "muted" }, "A server started with --admin-token lists its worlds (and opens its default world) only for the token's holder. " +
        "The token stays in this tab's session storage and travels only in the X-Signsandbox-Admin-Token header."),
      adminForm);
  }

  async function overview() {
    const [world, clock, counts, scen, worldActions] = await Promise.all([
      get(CONTROL + "/world"), get(CONTROL + "/clock"), get(API + "/counts"), get(CONTROL + "/scenarios"), get(API + "/world_actions"),
    ]);
    let account = null;
    if (worldKey) {
      try { account = (await call("GET", "/v3/account", undefined, { apiKey: worldKey })).account; } catch (e) { account = null; }
    }
    const at = el("input", { id: "advance-to", type: "datetime-local", step: 1 });
    const advance = (body, label) => () => act(label, "POST", CONTROL + "/clock/advance", body);
    // The control plane's verdict on moving this clock (a real clock moves
    // by itself and cannot be advanced): refused, every clock button is
    // disabled with its reason.
    const canAdvance = worldActions.actions.find((a) => a.name === "advance");
    const noJob = { allowed: false, reason: "No job is queued: nothing falls due." };
    const nextJob = canAdvance && !canAdvance.allowed ? canAdvance : clock.next_job_at ? canAdvance : noJob;
    const clockCard = el("div", { class: "card", id: "clock" },
      el("h2", {}, "Clock"),
      kv([["now", el("span", { "data-field": "now" }, when(clock.now))], ["mode", clock.mode],
        ["next job due", clock.next_job_at ? when(clock.next_job_at) : "none"]]),
      el("div", { class: "row" },
        actionButton("+1 min", canAdvance, { onclick: advance({ duration: "1m" }, "Advance 1 minute") }),
        actionButton("+1 h", canAdvance, { onclick: advance({ duration: "1h" }, "Advance 1 hour") }),
        actionButton("+1 day", canAdvance, { onclick: advance({ duration: "24h" }, "Advance 1 day") }),
        actionButton("to next job", nextJob, {
          onclick: () => act("Advance to the next job", "POST", CONTROL + "/clock/advance", { to: new Date(clock.next_job_at * 1000).toISOString() }),
        })),
      el("div", { class: "row" },
        el("label", { for: "advance-to" }, "Instant (UTC)"), at,
        actionButton("to instant (UTC)", canAdvance, {
          onclick: () => {
            if (!at.value) { show("Choose an instant first."); return; }
            act("Advance", "POST", CONTROL + "/clock/advance", { to: new Date(at.value + "Z").toISOString() });
          },
        })));
    if (canAdvance && !canAdvance.allowed) at.disabled = true;
    const grid = el("div", { class: "grid" });
    for (const c of counts.counts) grid.append(el("div", { class: "stat" }, el("b", {}, c.count), c.kind.replace(/_/g, " ")));
    const quota = account && account.quotas ? kv(Object.entries(account.quotas).map(([k, v]) => [k.replace(/_/g, " "), v === null ? "unlimited" : v])) : el("p", { class: "muted" }, "Quotas show once the world's key is known.");
    const scenHeaders = ["name", "source", "action"];
    const loaded = scen.scenarios.map((s) => row(scenHeaders, [s.name, s.source || "",
      el("button", { class: "danger", onclick: () => act("Remove " + s.name, "DELETE", CONTROL + "/scenarios/" + encodeURIComponent(s.name)) }, "Remove " + s.name)]));
    const pick = el("select", { id: "scenario-pick" }, scen.library.map((n) => el("option", { value: n }, n)));
    const upload = el("input", { id: "state-file", type: "file", accept: "application/json" });
    return el("div", {},
      el("h1", {}, "World ", world.world_id),
      clockCard,
      el("div", { class: "card" }, el("h2", {}, "Objects"), grid),
      el("div", { class: "card" }, el("h2", {}, "Quotas"), quota),
      el("div", { class: "card" }, el("h2", {}, "Scenarios"),
        scen.scenarios.length ? table({}, scenHeaders, loaded) : el("p", { class: "muted" }, "No scenario loaded."),
        el("div", { class: "row" }, el("label", { for: "scenario-pick" }, "Ready scenario"), pick,
          el("button", { onclick: () => act("Load " + pick.value, "POST", CONTROL + "/scenarios?name=" + encodeURIComponent(pick.value)) }, "Load"))),
      el("div", { class: "card" }, el("h2", {}, "State"),
        el("div", { class: "row" },
          el("button", { onclick: () => download(CONTROL + "/state", "world-" + world.world_id + ".json") }, "Download state")),
        el("div", { class: "row" },
          el("label", { for: "state-file" }, "State file"), upload,
          el("button", {
            onclick: () => {
              if (!upload.files[0]) { show("Choose a state file first."); return; }
              act("Upload state", "PUT", CONTROL + "/state", upload.files[0]);
            },
          }, "Upload state"),
          el("button", { class: "danger", onclick: () => { if (confirm("Reset the world to its fixtures?")) act("Reset", "POST", CONTROL + "/reset"); } }, "Reset"))));
  }

  function pager(base, query, next) {
    const row = el("div", { class: "row" });
    if (query.get("cursor")) {
      const q = new URLSearchParams(query); q.delete("cursor");
      row.append(el("a", { class: "button", href: "#" + base + (q.toString() ? "?" + q : "") }, "Newest"));
    }
    if (next) {
      const q = new URLSearchParams(query); q.set("cursor", next);
      row.append(el("a", { class: "button", href: "#" + base + "?" + q }, "Next page"));
    }
    return row;
  }
  function linkRow(href, ...cells) {
    return el("tr", { class: "link", onclick: () => { location.hash = href; } }, cells.map((c) => el("td", {}, c)));
  }

  async function requests(query) {
    const params = new URLSearchParams();
    if (query.get("q")) params.set("q", query.get("q"));
    if (query.get("cursor")) params.set("cursor", query.get("cursor"));
    const page = await get(API + "/signature_requests?" + params);
    const search = el("input", { id: "request-search", type: "search", name: "q", placeholder: "status:signed, to:ann@example.com, title:lease AND complete:false", size: 40, "aria-describedby": "search-help" });
    search.value = query.get("q") || "";
    const form = el("form", {
      role: "search",
      onsubmit: (ev) => { ev.preventDefault(); location.hash = "#/requests" + (search.value ? "?q=" + encodeURIComponent(search.value) : ""); },
    }, el("label", { for: "request-search" }, "Search"), el("div", { class: "row" }, search, el("button", { type: "submit" }, "Search")),
      el("p", { class: "muted", id: "search-help" }, "As the list API's query: free words, or fields to:, from:, title:, subject:, message:, metadata:, filename:, " +
        "template:, created:[2025-01-01 TO 2025-12-31], complete:true, declined:true, test_mode:true, joined with AND or OR; " +
        "and, in the console only, status: (a request's or a signer's state, such as status:signed) and id:."));
    const headers = ["title", "status", "signers", "requester", "created"];
    const rows = page.items.map((r) => row(headers, [
      el("a", { href: "#/requests/" + encodeURIComponent(r.signature_request_id) }, r.title || "(untitled)"),
      badge(r.status), r.signers.map((s) => el("div", {}, s.name || s.email_address, " ", badge(s.status_code))),
      r.requester_email_address, when(r.created_at)], { class: "link", onclick: () => { location.hash = "#/requests/" + encodeURIComponent(r.signature_request_id); } }));
    return el("div", {}, el("h1", {}, "Signature requests"), form,
      table({ id: "requests" }, headers, rows),
      page.items.length ? "" : el("p", { class: "muted" }, query.get("q") ? "No signature request matches." : "No signature requests."),
      pager("/requests", query, page.next));
  }

  // timeline puts a request's audit trail, e-mails and events in causal
  // order: by world time, and within one second the audit entry first (the
  // act), then the events and e-mails it caused, each source in the order
  // it was written (the e-mail and event pages come newest first).
  function timeline(d, mails, cbs) {
    const items = [];
    d.audit.forEach((a, i) => items.push({ t: a.time, rank: 0, i, what: a.action + (a.actor ? " by " + a.actor : "") + (a.detail ? " — " + a.detail : "") }));
    if (!d.audit.some((a) => a.action === "created")) items.push({ t: d.created_at, rank: 0, i: -1, what: "created" });
    cbs.slice().reverse().forEach((c, i) => items.push({ t: c.event_time, rank: 1, i, what: "event " + c.event_type + " (" + c.state + ")" }));
    mails.slice().reverse().forEach((m, i) => items.push({ t: m.sent_at, rank: 2, i, what: "e-mail " + m.kind + " to " + m.to }));
    items.sort((a, b) => a.t - b.t || a.rank - b.rank || a.i - b.i);
    return el("ol", { class: "timeline", id: "timeline" }, items.map((i) => el("li", {}, when(i.t), " ", el("span", { class: "what" }, i.what))));
  }

  // signerActions are the control plane's actions for one signer, each
  // enabled only when the control plane would take it (the server's
  // verdict, from the same rules the control calls run).
  function signerActions(enc, s) {
    const sp = CONTROL + "/signatures/" + encodeURIComponent(s.signature_id);
    const verdict = Object.fromEntries((s.actions || []).map((a) => [a.name, a]));
    const who = s.name || s.email_address;
    return el("div", { class: "row" },
      actionButton("View", verdict.view, { "aria-label": "View as " + who, onclick: () => act("View", "POST", sp + "/view") }),
      actionButton("Sign", verdict.sign, { class: "primary", "aria-label": "Sign as " + who, onclick: () => act("Sign", "POST", sp + "/sign", {}) }),
      actionButton("Decline", verdict.decline, { "aria-label": "Decline as " + who, onclick: () => act("Decline", "POST", sp + "/decline", { reason: prompt("Reason for declining?", "") || "" }) }),
      actionButton("Reassign", verdict.reassign, {
        "aria-label": "Reassign " + who,
        onclick: () => {
          const email = prompt("Reassign to which e-mail address?");
          if (email === null) return;
          const name = prompt("Their name?", "") || "";
          act("Reassign", "POST", sp + "/reassign", { email_address: email, name, reason: "" });
        },
      }),
      actionButton("Bounce", verdict.bounce, { "aria-label": "Bounce the e-mail to " + who, onclick: () => act("Bounce", "POST", sp + "/bounce") }),
      el("a", { class: "button", href: "#/requests/" + enc + "/sign/" + encodeURIComponent(s.signature_id) }, "Open the document"));
  }

  async function requestDetail(query, id) {
    const enc = encodeURIComponent(id);
    const [d, mails, cbs] = await Promise.all([
      get(API + "/signature_requests/" + enc),
      get(API + "/emails?limit=100&signature_request_id=" + enc),
      get(API + "/callbacks?limit=100&object_id=" + enc),
    ]);
    const r = d.signature_request;
    const signerHeaders = ["name", "e-mail", "role", "state", "act as this signer"];
    const signers = d.signers.map((s) => row(signerHeaders, [s.name, s.email_address, s.role || "", badge(s.status_code), signerActions(enc, s)],
      { "data-signature-id": s.signature_id }));
    const docs = el("div", {},
      el("ul", {}, d.documents.map((n) => el("li", {}, n))),
      el("div", { class: "row" },
        el("button", { onclick: () => download("/v3/signature_request/files/" + enc + "?file_type=pdf", id + ".pdf", worldKey) }, "PDF"),
        el("button", { onclick: () => download("/v3/signature_request/files/" + enc + "?file_type=zip", id + ".zip", worldKey) }, "ZIP"),
        el("button", { onclick: () => download("/v3/signature_request/files_as_data_uri/" + enc, id + "-data-uri.json", worldKey) }, "as data URI"),
        el("button", { onclick: () => download("/v3/signature_request/files_as_file_url/" + enc, id + "-file-url.json", worldKey) }, "as file URL")));
    const mailHeaders = ["kind", "to", "subject", "sent"];
    const mailRows = mails.items.map((m) => row(mailHeaders, [m.kind, m.to, m.subject, when(m.sent_at)],
      { class: "link", onclick: () => { location.hash = "#/outbox/" + encodeURIComponent(m.id); } }));
    const cbHeaders = ["event", "state", "time"];
    const cbRows = cbs.items.map((c) => row(cbHeaders, [c.event_type, badge(c.state), when(c.event_time)],
      { class: "link", onclick: () => { location.hash = "#/callbacks/" + encodeURIComponent(c.id); } }));
    return el("div", {},
      el("p", {}, el("a", { href: "#/requests" }, "← Signature requests")),
      el("h1", {}, r.title || "(untitled)", " ", badge(d.status)),
      el("div", { class: "card" }, kv([["id", r.signature_request_id], ["subject", r.subject], ["message", r.message],
        ["requester", r.requester_email_address], ["created", when(r.created_at)], ["expires", r.expires_at ? when(r.expires_at) : "never"],
        ["test mode", String(r.test_mode)], ["signing page", r.signing_url ? el("a", { href: r.signing_url, target: "_blank", rel: "noopener" }, "open") : ""],
        ["details page", r.details_url ? el("a", { href: r.details_url, target: "_blank", rel: "noopener" }, "open") : ""]])),
      el("h2", {}, "Signers"),
      table({ id: "signers" }, signerHeaders, signers),
      el("h2", {}, "Timeline"), el("div", { class: "card" }, timeline(d, mails.items, cbs.items)),
      el("h2", {}, "Documents"), el("div", { class: "card" }, docs),
      el("h2", {}, "Metadata"), pretty(r.metadata || {}, "Metadata"),
      el("h2", {}, "Custom fields"), pretty(r.custom_fields || [], "Custom fields"),
      el("h2", {}, "Form fields"), pretty(d.form_fields, "Form fields"),
      el("h2", {}, "Response data"), pretty(r.response_data || [], "Response data"),
      el("h2", {}, "E-mails"), mails.items.length ? table({}, mailHeaders, mailRows) : el("p", { class: "muted" }, "No e-mails."),
      el("h2", {}, "Callbacks"), cbs.items.length ? table({}, cbHeaders, cbRows) : el("p", { class: "muted" }, "No events."));
  }

  // ---------- the outbox, as a mail client ----------
  // The list (unread marks, search, clear-all) and one e-mail as its
  // recipient reads it: the HTML part in a sandboxed frame that runs no
  // script, the text part, the header fields and the message's source.
  function deliveryBadge(d) {
    if (!d) return "";
    const b = badge(d.state);
    b.title = d.state + (d.attempts ? ", " + d.attempts + " attempt(s)" : "") + (d.error ? ": " + d.error : "");
    return b;
  }
  async function outbox(query) {
    const params = new URLSearchParams();
    for (const k of ["cursor", "q"]) if (query.get(k)) params.set(k, query.get(k));
    const page = await get(API + "/emails?" + params);
    const search = el("input", {
      type: "search", name: "q", id: "outbox-search", size: 40, "aria-label": "Search the outbox",
      placeholder: "words, to:, from:, subject:, kind:, body:, is:unread",
    });
    search.value = query.get("q") || "";
    const form = el("form", {
      role: "search",
      onsubmit: (ev) => { ev.preventDefault(); location.hash = "#/outbox" + (search.value ? "?q=" + encodeURIComponent(search.value) : ""); },
    }, el("div", { class: "row" }, search, el("button", { type: "submit" }, "Search"),
      el("button", {
        type: "button", class: "danger", id: "outbox-clear",
        onclick: () => { if (confirm("Delete every e-mail of this world's outbox?")) act("Clear the outbox", "DELETE", CONTROL + "/emails"); },
      }, "Clear all")));
    const body = el("tbody");
    for (const m of page.items) {
      const row = linkRow("#/outbox/" + encodeURIComponent(m.id),
        el("span", { class: m.read ? "dot" : "dot unread", title: m.read ? "read" : "unread" }, m.read ? "" : "●"),
        m.name ? m.name + " <" + m.to + ">" : m.to, badge(m.kind), m.subject, when(m.sent_at),
        [m.bounced ? badge("bounced") : "", deliveryBadge(m.delivery)]);
      if (!m.read) row.classList.add("unread");
      body.append(row);
    }
    return el("div", {}, el("h1", {}, "Outbox"), form,
      el("table", { id: "outbox" }, el("thead", {}, el("tr", {}, ["", "to", "kind", "subject", "sent", "state"].map((h) => el("th", {}, h)))), body),
      page.items.length ? "" : el("p", { class: "muted" }, query.get("q") ? "No e-mail matches." : "No e-mails yet."),
      pager("/outbox", query, page.next));
  }

  const MAIL_VIEWS = [["html", "HTML"], ["text", "Text"], ["headers", "Headers"], ["source", "Source"]];
  // mailFrame shows an e-mail's HTML part in a frame that is sandboxed
  // without scripts or same-origin access (links open in a new tab, outside
  // the sandbox): whatever the part held could run nothing and reach
  // neither the console nor its key.
  function mailFrame(html) {
    const frame = el("iframe", {
      class: "mail-html", title: "The e-mail's HTML part", sandbox: "allow-popups allow-popups-to-escape-sandbox",
      referrerpolicy: "no-referrer",
    });
    frame.srcdoc = String(html).replace(/<head>/i, '<head><base target="_blank">');
    return frame;
  }
  async function fetchText(path) {
    return (await call("GET", path, undefined, { raw: true })).text();
  }
  async function emailDetail(query, id) {
    const opened = navigated; // read before the first await: a later render may change it
    const enc = encodeURIComponent(id);
    const m = await get(API + "/emails/" + enc);
    const shown = MAIL_VIEWS.some(([v]) => v === query.get("view")) ? query.get("view") : "html";
    let pane;
    if (shown === "html") pane = mailFrame(await fetchText(CONTROL + "/emails/" + enc + "/html"));
    else if (shown === "text") pane = el("pre", { class: "mail-text" }, await fetchText(CONTROL + "/emails/" + enc + "/text"));
    else if (shown === "source") pane = el("pre", { class: "mail-source" }, await fetchText(CONTROL + "/emails/" + enc));
    else pane = el("table", { class: "mail-headers" }, el("tbody", {}, m.headers.map((h) => el("tr", {}, el("th", { scope: "row" }, h.name), el("td", {}, h.value)))));
    if (!m.read && opened) {
      // Opening an e-mail reads it, as in a mail client; a redraw (a live
      // update, "Mark unread") does not.
      call("PATCH", CONTROL + "/emails/" + enc, { read: true }).catch(() => {});
    }
    const tabs = el("nav", { class: "tabs", "aria-label": "How to show the e-mail" }, MAIL_VIEWS.map(([v, label]) =>
      el("a", { href: "#/outbox/" + enc + "?view=" + v, "aria-current": v === shown ? "page" : false, id: "mail-view-" + v }, label)));
    const header = m.headers.reduce((acc, h) => { acc[h.name] = h.value; return acc; }, {});
    return el("div", {},
      el("p", {}, el("a", { href: "#/outbox" }, "← Outbox")),
      el("article", { class: "mail" },
        el("header", {}, el("h1", {}, m.subject),
          kv([["from", header.From], ["reply to", header["Reply-To"]], ["to", header.To], ["date", when(m.sent_at)],
            ["kind", badge(m.kind)], ["message id", m.message_id], ["bounced", m.bounced ? "yes" : "no"],
            ["relay", m.delivery ? [deliveryBadge(m.delivery), " ", m.delivery.attempts + " attempt(s)", m.delivery.error ? " — " + m.delivery.error : ""] : "not relayed (no --smtp-relay)"]]),
          el("div", { class: "row" },
            m.link ? el("a", { class: "cta", href: m.link, target: "_blank", rel: "noopener" }, "Open the link it carries") : "",
            el("button", { id: "mail-read", onclick: () => act(m.read ? "Mark unread" : "Mark read", "PATCH", CONTROL + "/emails/" + enc, { read: !m.read }) }, m.read ? "Mark unread" : "Mark read"),
            el("button", { onclick: () => download(CONTROL + "/emails/" + enc, m.id + ".eml") }, "Download .eml")),
          m.signature_request_id ? el("p", {}, el("a", { href: "#/requests/" + encodeURIComponent(m.signature_request_id) }, "Request in the console"),
            m.signature_id ? [" · ", el("a", { id: "sign-in-console", href: "#/requests/" + encodeURIComponent(m.signature_request_id) + "/sign/" + encodeURIComponent(m.signature_id) }, "Sign with the document in the console")] : "") : ""),
        tabs, el("div", { class: "body", id: "mail-view" }, pane)));
  }

  function callbackTable(items) {
    const headers = ["event", "state", "object", "targets", "time"];
    // The first cell is a link too, so the row opens by keyboard.
    const rows = items.map((c) => row(headers, [el("a", { href: "#/callbacks/" + encodeURIComponent(c.id) }, c.event_type), badge(c.state),
      c.object_id ? c.object_type + " " + c.object_id : "", c.targets.map((t) => el("div", {}, t.url)), when(c.event_time)],
    { class: "link", onclick: () => { location.hash = "#/callbacks/" + encodeURIComponent(c.id); } }));
    return table({ id: "callbacks" }, headers, rows);
  }
  async function callbacks(query) {
    const params = new URLSearchParams();
    if (query.get("cursor")) params.set("cursor", query.get("cursor"));
    const page = await get(API + "/callbacks?" + params);
    return el("div", {}, el("h1", {}, "Callbacks"), callbackTable(page.items),
      page.items.length ? "" : el("p", { class: "muted" }, "No events yet."), pager("/callbacks", query, page.next));
  }
  async function callbackDetail(query, id) {
    const c = await get(API + "/callbacks/" + encodeURIComponent(id));
    const attemptHeaders = ["time", "status", "duration", "delivered", "body / error"];
    const targets = c.targets.map((t) => el("div", { class: "card" },
      el("h2", {}, t.kind + " callback ", badge(t.state)),
      kv([["url", t.url], ["round", t.round], ["event_hash", t.event_hash], ["hash verifies", el("span", { "data-field": "hash-verifies" }, badge(String(t.hash_verifies)))]]),
      table({ class: "attempts" }, attemptHeaders, t.attempts.map((a) => row(attemptHeaders, [when(a.at), a.status || "—",
        el("span", { "data-field": "duration" }, (a.duration_ms || 0) + " ms"),
        String(a.delivered), [(a.body || "").slice(0, 200), a.error ? " " + a.error : ""]]))),
      el("h2", {}, "Payload"), pretty(t.payload, "Payload")));
    return el("div", {},
      el("p", {}, el("a", { href: "#/callbacks" }, "← Callbacks")),
      el("h1", {}, c.event_type, " ", badge(c.state)),
      el("div", { class: "card" }, kv([["event id", c.id], ["time", when(c.event_time)], ["message", c.event_message],
        ["object", c.object_type === "signature_request" ? el("a", { href: "#/requests/" + encodeURIComponent(c.object_id) }, c.object_id) : c.object_id]]),
        el("div", { class: "row" }, el("button", { class: "primary", onclick: () => act("Redeliver", "POST", CONTROL + "/callbacks/" + encodeURIComponent(c.id) + "/redeliver") }, "Redeliver"))),
      targets);
  }

  const objectTitles = {
    template: "Templates", unclaimed_draft: "Unclaimed drafts", bulk_send_job: "Bulk send jobs", fax: "Faxes",
    fax_line: "Fax lines", team: "Team", api_app: "API apps", account: "Accounts", signature_request: "Signature requests",
  };
  // objectID and objectLabel find an object's id and a readable name in the
  // API's view of it, whatever its kind.
  function unwrap(v) {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && v[keys[0]] && typeof v[keys[0]] === "object") return v[keys[0]];
    }
    return v;
  }
  function objectID(kind, v) {
    const o = unwrap(v);
    for (const k of [kind + "_id", "id", "client_id", "signature_request_id", "bulk_send_job_id", "fax_id", "team_id", "number", "account_id", "name"]) {
      if (o && o[k] !== undefined && o[k] !== null && typeof o[k] !== "object") return String(o[k]);
    }
    return "";
  }
  function objectLabel(v) {
    const o = unwrap(v);
    return (o && (o.title || o.name || o.email_address || o.subject)) || "";
  }
  async function objects(query, kind) {
    const params = new URLSearchParams();
    if (query.get("cursor")) params.set("cursor", query.get("cursor"));
    const page = await get(API + "/objects/" + encodeURIComponent(kind) + "?" + params);
    const headers = ["id", "name"];
    const rows = page.items.map((v) => {
      const oid = objectID(kind, v);
      return row(headers, [el("a", { href: "#/objects/" + kind + "/" + encodeURIComponent(oid) }, oid), String(objectLabel(v))], { class: "link", onclick: () => { location.hash = "#/objects/" + kind + "/" + encodeURIComponent(oid); } });
    });
    const extra = kind === "fax" ? el("p", {}, el("a", { href: "#/objects/fax_line" }, "Fax lines")) : "";
    return el("div", {}, el("h1", {}, objectTitles[kind] || kind), extra,
      table({ id: "objects" }, headers, rows),
      page.items.length ? "" : el("p", { class: "muted" }, "None in this world."),
      pager("/objects/" + kind, query, page.next));
  }
  async function objectDetail(query, kind, id) {
    const v = await get(API + "/objects/" + encodeURIComponent(kind) + "/" + encodeURIComponent(id));
    const place = kind === "template" ? el("p", {}, el("a", { class: "button", id: "place-fields", href: "#/objects/template/" + encodeURIComponent(id) + "/fields" }, "Place fields on the documents")) : "";
    return el("div", {}, el("p", {}, el("a", { href: "#/objects/" + kind }, "← " + (objectTitles[kind] || kind))),
      el("h1", {}, String(objectLabel(v) || id)), place, el("p", { class: "muted" }, "As the API shows it."), pretty(v, "The object as the API shows it"));
  }
  async function oauthTokens() {
    const t = await get(API + "/oauth_tokens");
    const headers = ["token", "account", "app", "scopes", "expires", "revoked"];
    const rows = t.items.map((x) => row(headers, [x.access_token, x.account_id, x.client_id, (x.scopes || []).join(", "), when(x.expires_at), x.revoked ? badge("revoked") : "no"]));
    return el("div", {}, el("h1", {}, "OAuth tokens"),
      table({}, headers, rows),
      t.items.length ? "" : el("p", { class: "muted" }, "No tokens issued."));
  }


  // ---------- signing with the document, placing template fields ----------
  // The document view is the module the sandbox's signing, editor and
  // claim pages use too (/_sandbox/pages/docview.mjs, fieldeditor.mjs):
  // PDF.js pages with the fields over them, an input by field type.
  const DOCVIEW = "/_sandbox/pages/docview.mjs";
  const FIELDEDITOR = "/_sandbox/pages/fieldeditor.mjs";
  async function signView(query, id, signatureID) {
    const enc = encodeURIComponent(id);
    const d = await get(API + "/signature_requests/" + enc);
    const signer = d.signers.find((s) => s.signature_id === signatureID);
    if (!signer) { const e = new Error("This request has no signer " + signatureID + "."); e.status = 404; throw e; }
    // The signer's fields, and the merge fields the sender filled (shown
    // read-only with their custom_fields value).
    const custom = d.signature_request.custom_fields || [];
    const merge = (f) => f.type === "text-merge" || f.type === "checkbox-merge";
    const mine = d.form_fields.filter((f) => String(f.signer) === String(signer.slot) || merge(f)).map((f) => {
      const cf = merge(f) ? custom.find((c) => c.name === f.name || c.api_id === f.api_id) : null;
      return cf ? Object.assign({}, f, { value: cf.value }) : f;
    });
    const [dv, clock] = await Promise.all([import(DOCVIEW), get(CONTROL + "/clock")]);
    const documents = d.documents.map((name, index) => ({ index, name }));
    const load = async (doc) => (await call("GET", API + "/signature_requests/" + enc + "/documents/" + doc.index, undefined, { raw: true })).arrayBuffer();
    const sp = CONTROL + "/signatures/" + encodeURIComponent(signatureID);
    let doc = null;
    const signBtn = el("button", {
      class: "primary", id: "sign",
      onclick: async () => {
        try {
          await call("POST", sp + "/sign", { values: doc.values() });
          show("Signed.", true);
          location.hash = "#/requests/" + enc;
        } catch (e) { show("Sign refused: " + e.message); }
      },
    }, "Sign");
    const missing = el("span", { class: "muted", id: "missing" });
    const verdict = Object.fromEntries((signer.actions || []).map((a) => [a.name, a]));
    const canSign = verdict.sign || { allowed: signer.status_code === "awaiting_signature", reason: "" };
    if (!canSign.allowed) signBtn.title = canSign.reason;
    const update = (ev) => {
      if (ev) holder.dataset.dirty = "1"; // entered values survive live updates
      const left = doc ? doc.missing() : 0;
      signBtn.disabled = !doc || left > 0 || !canSign.allowed;
      missing.textContent = !canSign.allowed ? "Sign is unavailable: " + canSign.reason : left ? left + " required field(s) left" : "";
    };
    // The pages keep their size (fields sit at their positions in points):
    // on a narrow screen they scroll inside this region, not the page.
    const holder = el("div", { class: "docscroll", tabindex: 0, role: "region", "aria-label": "Documents" });
    doc = await dv.mountSigning(holder, { documents, fields: mine, groups: d.field_groups, rules: d.field_rules, signer_name: signer.name, date_text: dv.dateText(d.date_format, clock.now) }, load, update);
    update();
    signBtn.setAttribute("aria-describedby", "missing");
    const actions = el("div", { class: "row" }, signBtn, missing,
      d.allow_decline ? actionButton("Decline", verdict.decline, { onclick: () => act("Decline", "POST", sp + "/decline", { reason: prompt("Reason for declining?", "") || "" }) }) : "",
      d.allow_reassign ? actionButton("Reassign", verdict.reassign, {
        onclick: () => {
          const email = prompt("Reassign to which e-mail address?");
          if (email === null) return;
          act("Reassign", "POST", sp + "/reassign", { email_address: email, name: prompt("Their name?", "") || "", reason: "" });
        },
      }) : "");
    return el("div", {},
      el("p", {}, el("a", { href: "#/requests/" + enc }, "← " + (d.signature_request.title || id))),
      el("h1", {}, "Sign as ", signer.name || signer.email_address, " ", badge(signer.status_code)),
      el("p", { class: "muted" }, mine.length + " field(s) for this signer on " + doc.pages.length + " page(s)."),
      actions, holder);
  }

  // templateFields places a template's signer fields on its documents and
  // saves them through the control plane (PUT /_sandbox/templates/{id}/fields).
  async function templateFields(query, id) {
    const enc = encodeURIComponent(id);
    const base = CONTROL + "/templates/" + enc;
    const [v, fe] = await Promise.all([get(base + "/fields"), import(FIELDEDITOR)]);
    const load = async (doc) => (await call("GET", base + "/documents/" + doc.index, undefined, { raw: true })).arrayBuffer();
    const holder = el("div", { class: "docscroll", tabindex: 0, role: "region", "aria-label": "Documents" });
    const state = el("span", { class: "muted", id: "unsaved" });
    const ed = await fe.mountEditor(holder, { documents: v.documents, roles: v.signer_roles, fields: v.fields }, load, () => {
      state.textContent = "unsaved changes";
      holder.dataset.dirty = "1"; // unsaved placements survive live updates
    });
    const save = el("button", {
      class: "primary", id: "save-fields",
      onclick: async () => {
        try {
          await call("PUT", base + "/fields", { fields: ed.fields() });
          state.textContent = "";
          delete holder.dataset.dirty;
          show("Fields saved.", true);
        } catch (e) { show("Save refused: " + e.message); }
      },
    }, "Save fields");
    return el("div", {},
      el("p", {}, el("a", { href: "#/objects/template/" + enc }, "← Template")),
      el("h1", {}, "Fields of template ", id),
      el("p", { class: "muted" }, "Click on a page to place a field for a role; drag a field to move it; × removes it. GET /v3/template shows the saved fields."),
      el("div", { class: "row" }, save, state), holder);
  }

  // ---------- live updates ----------
  // The console long-polls the world's change feed: each answer carries the
  // world's version; when it moves, the current view is drawn again.
  let liveAbort = null;
  async function live() {
    if (liveAbort) liveAbort.abort();
    const ctl = new AbortController();
    liveAbort = ctl;
    const dot = document.getElementById("live");
    let since = null;
    while (!ctl.signal.aborted) {
      try {
        const url = API + "/changes" + (since === null ? "" : "?since=" + since);
        const r = await call("GET", url, undefined, { signal: ctl.signal });
        dot.classList.add("on");
        // A view with entered values or unsaved changes (data-dirty) is not
        // drawn again under the user's hands.
        if (since !== null && r.version !== since && !view.querySelector("[data-dirty]")) render();
        since = r.version;
      } catch (e) {
        if (ctl.signal.aborted) return;
        dot.classList.remove("on");
        await new Promise((res) => setTimeout(res, 2000));
      }
    }
  }

  async function worldChanged() {
    worldKey = "";
    let current = "";
    try {
      const w = await get(CONTROL + "/world");
      worldKey = w.api_key || "";
      current = w.world_id;
      document.getElementById("world-name").textContent = "world " + w.world_id;
    } catch (e) {
      document.getElementById("world-name").textContent = "no world open";
    }
    await worldList(current);
    live();
  }

  // worldList fills the header's world switcher from GET /_sandbox/worlds,
  // which answers only whoever administers the server (a loopback caller
  // without an admin token, or the token's holder) and never a world's
  // key holder: for everyone else the switcher stays hidden and worlds open
  // by their key (#/key).
  async function worldList(current) {
    const pick = document.getElementById("world-switch");
    let list = null;
    try { list = (await call("GET", CONTROL + "/worlds", undefined, { noKey: true })).worlds; } catch (e) { list = null; }
    pick.hidden = !list || list.length < 2;
    if (pick.hidden) return;
    pick.replaceChildren(...list.map((w) => el("option", { value: w.world_id, selected: w.world_id === current },
      w.world_id + (w.default ? " (default)" : "") + " · " + w.clock + " clock")));
    pick.onchange = async () => {
      const w = list.find((x) => x.world_id === pick.value);
      if (!w) return;
      if (w.default) sessionStorage.removeItem(KEY_STORE); else sessionStorage.setItem(KEY_STORE, w.api_key);
      await worldChanged();
      if (location.hash === "#/" || location.hash === "") render(true); else location.hash = "#/";
    };
  }

  window.addEventListener("hashchange", () => { clearFlash(); render(true); });
  worldChanged().then(() => render(true));
})();
