// The signsandbox console: one page, views chosen by the URL's hash, data
// from /_sandbox/console/api/ and actions through the ordinary /_sandbox/
// control calls. Every value from the world is put into the page with
// textContent or DOM properties, never parsed as HTML. The API key, when the
// user gives one, lives in sessionStorage and travels only in the
// Authorization header.
"use strict";

(function () {
  const KEY_STORE = "signsandbox.console.key";
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
  function when(unix) {
    if (!unix) return "—";
    return new Date(unix * 1000).toISOString().replace("T", " ").replace(".000Z", " UTC");
  }
  function pretty(v) { return el("pre", {}, JSON.stringify(v, null, 2)); }
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
    const k = opts.apiKey || key();
    if (k) headers.Authorization = authHeader(k);
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
    const input = el("input", { type: "password", size: 50, placeholder: "API key of the world", autocomplete: "off" });
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
    }, el("div", { class: "row" }, input, el("button", { class: "primary", type: "submit" }, "Open the world")));
    const forget = el("button", {
      type: "button",
      onclick: async () => { sessionStorage.removeItem(KEY_STORE); await worldChanged(); location.hash = "#/"; },
    }, "Forget the key (default world)");
    return el("div", { class: "card" }, el("h1", {}, "Open a world"),
      el("p", { class: "muted" }, "Without a key the console shows the default world (on a loopback address). " +
        "Any other world opens with one of its API keys; the key stays in this tab's session storage and is sent only in the Authorization header."),
      form, el("div", { class: "row" }, forget));
  }

  async function overview() {
    const [world, clock, counts, scen] = await Promise.all([
      get(CONTROL + "/world"), get(CONTROL + "/clock"), get(API + "/counts"), get(CONTROL + "/scenarios"),
    ]);
    let account = null;
    if (worldKey) {
      try { account = (await call("GET", "/v3/account", undefined, { apiKey: worldKey })).account; } catch (e) { account = null; }
    }
    const at = el("input", { type: "datetime-local", step: 1 });
    const advance = (body, label) => () => act(label, "POST", CONTROL + "/clock/advance", body);
    const realClock = clock.mode === "real"; // a real clock moves by itself and cannot be advanced
    const clockCard = el("div", { class: "card", id: "clock" },
      el("h2", {}, "Clock"),
      kv([["now", el("span", { "data-field": "now" }, clock.time)], ["mode", clock.mode],
        ["next job due", clock.next_job_at ? when(clock.next_job_at) : "none"]]),
      el("div", { class: "row" },
        el("button", { disabled: realClock, onclick: advance({ duration: "1m" }, "Advance 1 minute") }, "+1 min"),
        el("button", { disabled: realClock, onclick: advance({ duration: "1h" }, "Advance 1 hour") }, "+1 h"),
        el("button", { disabled: realClock, onclick: advance({ duration: "24h" }, "Advance 1 day") }, "+1 day"),
        el("button", {
          disabled: realClock || !clock.next_job_at,
          onclick: () => act("Advance to the next job", "POST", CONTROL + "/clock/advance", { to: new Date(clock.next_job_at * 1000).toISOString() }),
        }, "to next job"),
        at,
        el("button", {
          disabled: realClock,
          onclick: () => {
            if (!at.value) { show("Choose an instant first."); return; }
            act("Advance", "POST", CONTROL + "/clock/advance", { to: new Date(at.value + "Z").toISOString() });
          },
        }, "to instant (UTC)")));
    const grid = el("div", { class: "grid" });
    for (const c of counts.counts) grid.append(el("div", { class: "stat" }, el("b", {}, c.count), c.kind.replace(/_/g, " ")));
    const quota = account && account.quotas ? kv(Object.entries(account.quotas).map(([k, v]) => [k.replace(/_/g, " "), v === null ? "unlimited" : v])) : el("p", { class: "muted" }, "Quotas show once the world's key is known.");
    const loaded = el("tbody");
    for (const s of scen.scenarios) {
      loaded.append(el("tr", {}, el("td", {}, s.name), el("td", {}, s.source || ""),
        el("td", {}, el("button", { class: "danger", onclick: () => act("Remove " + s.name, "DELETE", CONTROL + "/scenarios/" + encodeURIComponent(s.name)) }, "Remove"))));
    }
    const pick = el("select", {}, scen.library.map((n) => el("option", { value: n }, n)));
    const upload = el("input", { type: "file", accept: "application/json" });
    return el("div", {},
      el("h1", {}, "World ", world.world_id),
      clockCard,
      el("div", { class: "card" }, el("h2", {}, "Objects"), grid),
      el("div", { class: "card" }, el("h2", {}, "Quotas"), quota),
      el("div", { class: "card" }, el("h2", {}, "Scenarios"),
        el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "name"), el("th", {}, "source"), el("th", {}))), loaded),
        el("div", { class: "row" }, pick,
          el("button", { onclick: () => act("Load " + pick.value, "POST", CONTROL + "/scenarios?name=" + encodeURIComponent(pick.value)) }, "Load"))),
      el("div", { class: "card" }, el("h2", {}, "State"),
        el("div", { class: "row" },
          el("button", { onclick: () => download(CONTROL + "/state", "world-" + world.world_id + ".json") }, "Download state"),
          upload,
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
    const search = el("input", { type: "search", name: "q", placeholder: "title, e-mail, status, metadata…", size: 40 });
    search.value = query.get("q") || "";
    const form = el("form", {
      onsubmit: (ev) => { ev.preventDefault(); location.hash = "#/requests" + (search.value ? "?q=" + encodeURIComponent(search.value) : ""); },
    }, el("div", { class: "row" }, search, el("button", { type: "submit" }, "Search")));
    const body = el("tbody");
    for (const r of page.items) {
      body.append(linkRow("#/requests/" + encodeURIComponent(r.signature_request_id),
        el("a", { href: "#/requests/" + encodeURIComponent(r.signature_request_id) }, r.title || "(untitled)"),
        badge(r.status), r.signers.map((s) => el("div", {}, s.name || s.email_address, " ", badge(s.status_code))),
        r.requester_email_address, when(r.created_at)));
    }
    return el("div", {}, el("h1", {}, "Signature requests"), form,
      el("table", { id: "requests" }, el("thead", {}, el("tr", {}, ["title", "status", "signers", "requester", "created"].map((h) => el("th", {}, h)))), body),
      page.items.length ? "" : el("p", { class: "muted" }, "No signature requests."),
      pager("/requests", query, page.next));
  }

  async function requestDetail(query, id) {
    const enc = encodeURIComponent(id);
    const [d, mails, cbs] = await Promise.all([
      get(API + "/signature_requests/" + enc),
      get(API + "/emails?limit=100&signature_request_id=" + enc),
      get(API + "/callbacks?limit=100&object_id=" + enc),
    ]);
    const r = d.signature_request;
    // The timeline: the request's audit trail, its e-mails and its events, on the world clock.
    const items = [{ t: d.created_at, what: "created" }];
    for (const a of d.audit) items.push({ t: a.time, what: a.action + (a.actor ? " by " + a.actor : "") + (a.detail ? " — " + a.detail : "") });
    for (const m of mails.items) items.push({ t: m.sent_at, what: "e-mail " + m.kind + " to " + m.to });
    for (const c of cbs.items) items.push({ t: c.event_time, what: "event " + c.event_type + " (" + c.state + ")" });
    items.sort((a, b) => a.t - b.t);
    const timeline = el("ol", { class: "timeline" }, items.map((i) => el("li", {}, el("time", {}, when(i.t)), i.what)));

    const signers = el("tbody");
    for (const s of d.signers) {
      const sp = CONTROL + "/signatures/" + encodeURIComponent(s.signature_id);
      const actions = el("div", { class: "row" },
        el("button", { onclick: () => act("View", "POST", sp + "/view") }, "View"),
        el("button", { class: "primary", onclick: () => act("Sign", "POST", sp + "/sign", {}) }, "Sign"),
        el("button", { onclick: () => act("Decline", "POST", sp + "/decline", { reason: prompt("Reason for declining?", "") || "" }) }, "Decline"),
        el("button", {
          onclick: () => {
            const email = prompt("Reassign to which e-mail address?");
            if (email === null) return;
            const name = prompt("Their name?", "") || "";
            act("Reassign", "POST", sp + "/reassign", { email_address: email, name, reason: "" });
          },
        }, "Reassign"),
        el("button", { onclick: () => act("Bounce", "POST", sp + "/bounce") }, "Bounce"),
        el("a", { class: "button", href: "#/requests/" + enc + "/sign/" + encodeURIComponent(s.signature_id) }, "Open the document"));
      signers.append(el("tr", { "data-signature-id": s.signature_id }, el("td", {}, s.name), el("td", {}, s.email_address),
        el("td", {}, s.role || ""), el("td", {}, badge(s.status_code)), el("td", {}, actions)));
    }
    const docs = el("div", {},
      el("ul", {}, d.documents.map((n) => el("li", {}, n))),
      el("div", { class: "row" },
        el("button", { onclick: () => download("/v3/signature_request/files/" + enc + "?file_type=pdf", id + ".pdf", worldKey) }, "PDF"),
        el("button", { onclick: () => download("/v3/signature_request/files/" + enc + "?file_type=zip", id + ".zip", worldKey) }, "ZIP"),
        el("button", { onclick: () => download("/v3/signature_request/files_as_data_uri/" + enc, id + "-data-uri.json", worldKey) }, "as data URI"),
        el("button", { onclick: () => download("/v3/signature_request/files_as_file_url/" + enc, id + "-file-url.json", worldKey) }, "as file URL")));
    const mailRows = el("tbody");
    for (const m of mails.items) mailRows.append(linkRow("#/outbox/" + encodeURIComponent(m.id), m.kind, m.to, m.subject, when(m.sent_at)));
    const cbRows = el("tbody");
    for (const c of cbs.items) cbRows.append(linkRow("#/callbacks/" + encodeURIComponent(c.id), c.event_type, badge(c.state), when(c.event_time)));
    return el("div", {},
      el("p", {}, el("a", { href: "#/requests" }, "← Signature requests")),
      el("h1", {}, r.title || "(untitled)", " ", badge(d.status)),
      el("div", { class: "card" }, kv([["id", r.signature_request_id], ["subject", r.subject], ["message", r.message],
        ["requester", r.requester_email_address], ["created", when(r.created_at)], ["expires", when(r.expires_at)],
        ["test mode", String(r.test_mode)], ["signing page", r.signing_url ? el("a", { href: r.signing_url, target: "_blank", rel: "noopener" }, "open") : ""],
        ["details page", r.details_url ? el("a", { href: r.details_url, target: "_blank", rel: "noopener" }, "open") : ""]])),
      el("h2", {}, "Signers"),
      el("table", { id: "signers" }, el("thead", {}, el("tr", {}, ["name", "e-mail", "role", "state", "act as this signer"].map((h) => el("th", {}, h)))), signers),
      el("h2", {}, "Timeline"), el("div", { class: "card" }, timeline),
      el("h2", {}, "Documents"), el("div", { class: "card" }, docs),
      el("h2", {}, "Metadata"), pretty(r.metadata || {}),
      el("h2", {}, "Custom fields"), pretty(r.custom_fields || []),
      el("h2", {}, "Form fields"), pretty(d.form_fields),
      el("h2", {}, "Response data"), pretty(r.response_data || []),
      el("h2", {}, "E-mails"), el("table", {}, mailRows),
      el("h2", {}, "Callbacks"), el("table", {}, cbRows));
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
    const body = el("tbody");
    for (const c of items) {
      body.append(linkRow("#/callbacks/" + encodeURIComponent(c.id), c.event_type, badge(c.state),
        c.object_id ? c.object_type + " " + c.object_id : "", c.targets.map((t) => el("div", {}, t.url)), when(c.event_time)));
    }
    return el("table", { id: "callbacks" }, el("thead", {}, el("tr", {}, ["event", "state", "object", "targets", "time"].map((h) => el("th", {}, h)))), body);
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
    const targets = c.targets.map((t) => el("div", { class: "card" },
      el("h2", {}, t.kind + " callback ", badge(t.state)),
      kv([["url", t.url], ["round", t.round], ["event_hash", t.event_hash], ["hash verifies", el("span", { "data-field": "hash-verifies" }, badge(String(t.hash_verifies)))]]),
      el("table", { class: "attempts" }, el("thead", {}, el("tr", {}, ["time", "status", "duration", "delivered", "body / error"].map((h) => el("th", {}, h)))),
        el("tbody", {}, t.attempts.map((a) => el("tr", {}, el("td", {}, when(a.at)), el("td", {}, a.status || "—"),
          el("td", { "data-field": "duration" }, (a.duration_ms || 0) + " ms"),
          el("td", {}, String(a.delivered)), el("td", {}, (a.body || "").slice(0, 200), a.error ? " " + a.error : ""))))),
      el("h2", {}, "Payload"), pretty(t.payload)));
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
    const body = el("tbody");
    for (const v of page.items) {
      const oid = objectID(kind, v);
      body.append(linkRow("#/objects/" + kind + "/" + encodeURIComponent(oid), oid, String(objectLabel(v))));
    }
    const extra = kind === "fax" ? el("p", {}, el("a", { href: "#/objects/fax_line" }, "Fax lines")) : "";
    return el("div", {}, el("h1", {}, objectTitles[kind] || kind), extra,
      el("table", { id: "objects" }, el("thead", {}, el("tr", {}, el("th", {}, "id"), el("th", {}, "name"))), body),
      page.items.length ? "" : el("p", { class: "muted" }, "None in this world."),
      pager("/objects/" + kind, query, page.next));
  }
  async function objectDetail(query, kind, id) {
    const v = await get(API + "/objects/" + encodeURIComponent(kind) + "/" + encodeURIComponent(id));
    const place = kind === "template" ? el("p", {}, el("a", { class: "button", id: "place-fields", href: "#/objects/template/" + encodeURIComponent(id) + "/fields" }, "Place fields on the documents")) : "";
    return el("div", {}, el("p", {}, el("a", { href: "#/objects/" + kind }, "← " + (objectTitles[kind] || kind))),
      el("h1", {}, String(objectLabel(v) || id)), place, el("p", { class: "muted" }, "As the API shows it."), pretty(v));
  }
  async function oauthTokens() {
    const t = await get(API + "/oauth_tokens");
    const body = el("tbody");
    for (const x of t.items) {
      body.append(el("tr", {}, el("td", {}, x.access_token), el("td", {}, x.account_id), el("td", {}, x.client_id),
        el("td", {}, (x.scopes || []).join(", ")), el("td", {}, when(x.expires_at)), el("td", {}, x.revoked ? badge("revoked") : "")));
    }
    return el("div", {}, el("h1", {}, "OAuth tokens"),
      el("table", {}, el("thead", {}, el("tr", {}, ["token", "account", "app", "scopes", "expires", ""].map((h) => el("th", {}, h)))), body),
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
    const update = (ev) => {
      if (ev) holder.dataset.dirty = "1"; // entered values survive live updates
      const left = doc ? doc.missing() : 0;
      signBtn.disabled = !doc || left > 0 || signer.status_code !== "awaiting_signature";
      missing.textContent = left ? left + " required field(s) left" : "";
    };
    const holder = el("div");
    doc = await dv.mountSigning(holder, { documents, fields: mine, groups: d.field_groups, rules: d.field_rules, signer_name: signer.name, date_text: dv.dateText(d.date_format, clock.now) }, load, update);
    update();
    const actions = el("div", { class: "row" }, signBtn, missing,
      d.allow_decline ? el("button", { onclick: () => act("Decline", "POST", sp + "/decline", { reason: prompt("Reason for declining?", "") || "" }) }, "Decline") : "",
      d.allow_reassign ? el("button", {
        onclick: () => {
          const email = prompt("Reassign to which e-mail address?");
          if (email === null) return;
          act("Reassign", "POST", sp + "/reassign", { email_address: email, name: prompt("Their name?", "") || "", reason: "" });
        },
      }, "Reassign") : "");
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
    const holder = el("div");
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
    try {
      const w = await get(CONTROL + "/world");
      worldKey = w.api_key || "";
      document.getElementById("world-name").textContent = "world " + w.world_id;
    } catch (e) {
      document.getElementById("world-name").textContent = "no world open";
    }
    live();
  }

  window.addEventListener("hashchange", () => { clearFlash(); render(true); });
  worldChanged().then(() => render(true));
})();
