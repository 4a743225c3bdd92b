// The document view the console and the sandbox's pages share: documents
// drawn page by page with PDF.js (vendored by the console), fields laid
// over them at their position and size, and an input for each field by its
// type. Every value is put in the page with textContent or DOM properties,
// never parsed as HTML.
"use strict";

const PDFJS = "/_sandbox/console/vendor/pdfjs/";
let lib = null;

/** PDF.js, loaded once. */
export async function pdfjs() {
  if (!lib) {
    lib = await import(PDFJS + "pdf.min.mjs");
    lib.GlobalWorkerOptions.workerSrc = PDFJS + "pdf.worker.min.mjs";
  }
  return lib;
}

/** el makes an element: attributes as properties or attributes, handlers with addEventListener, children as text. */
export function el(tag, attrs, ...children) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") n.className = v;
    else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
    else n.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    n.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return n;
}

/**
 * pageView is what a page hands its document view: the JSON in the data-view
 * attribute of the element of that id ({} when there is none).
 */
export function pageView(id) {
  const root = document.getElementById(id);
  return { root, view: JSON.parse((root && root.dataset.view) || "{}") };
}

/** fetchDocument loads a document of a page (its url is below the page's own). */
export async function fetchDocument(doc) {
  const res = await fetch(doc.url, { credentials: "same-origin" });
  if (!res.ok) throw new Error("the document could not be loaded (HTTP " + res.status + ")");
  return res.arrayBuffer();
}

/** The scale pages are drawn at: PDF points to CSS pixels. */
export const SCALE = 1.3;

/**
 * renderDocuments draws every page of every document into root, in order.
 * documents are {index, name}; load(doc) answers the document's PDF bytes.
 * Answers the pages drawn: {doc, page, node, width, height} (points).
 */
export async function renderDocuments(root, documents, load, scale = SCALE) {
  const pdfLib = await pdfjs();
  const pages = [];
  for (const d of documents) {
    if (documents.length > 1) root.append(el("h2", { class: "docname" }, d.name));
    let pdf;
    try {
      pdf = await pdfLib.getDocument({ data: new Uint8Array(await load(d)), isEvalSupported: false }).promise;
    } catch (e) {
      // A document that cannot be shown (one the service could not read)
      // leaves the others usable.
      root.append(el("p", { class: "muted docerror" }, "This document cannot be shown: " + e.message));
      continue;
    }
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const vp = page.getViewport({ scale });
      const canvas = el("canvas", { width: Math.floor(vp.width), height: Math.floor(vp.height) });
      await page.render({ canvasContext: canvas.getContext("2d"), viewport: vp }).promise;
      const wrap = el("div", { class: "page", "data-doc": d.index, "data-page": n }, canvas);
      wrap.style.width = Math.floor(vp.width) + "px"; // CSSOM, which the content security policy allows
      wrap.style.height = Math.floor(vp.height) + "px";
      root.append(wrap);
      pages.push({ doc: d.index, page: n, node: wrap, width: vp.width / scale, height: vp.height / scale });
    }
  }
  return pages;
}

/** pageOf finds the drawn page a field belongs on (its document and page, page 1 by default). */
export function pageOf(pages, f) {
  const doc = f.document_index || 0;
  const n = f.page || 1;
  return pages.find((p) => p.doc === doc && p.page === n) || null;
}

/** place sets a node's box from a field's position and size (points). */
export function place(node, f, scale = SCALE) {
  node.style.left = f.x * scale + "px";
  node.style.top = f.y * scale + "px";
  node.style.width = Math.max(f.width, 12) * scale + "px";
  node.style.height = Math.max(f.height, 12) * scale + "px";
}

/**
 * dateText is how a date_signed field shows the signing day (unix seconds,
 * UTC) in a request's date_format ("MM / DD / YYYY" and the like; MM/DD/YYYY
 * when none), as the service writes it.
 */
export function dateText(format, unix) {
  const d = new Date(unix * 1000);
  const pad = (n) => String(n).padStart(2, "0");
  const parts = { YYYY: String(d.getUTCFullYear()), MM: pad(d.getUTCMonth() + 1), DD: pad(d.getUTCDate()) };
  return (format || "MM/DD/YYYY").replace(/YYYY|MM|DD/g, (k) => parts[k]);
}

/** triggerMatches is a rule trigger's test of a field's value, as signing makes it. */
function triggerMatches(t, v) {
  const s = typeof v === "boolean" ? (v ? "1" : "0") : String(v);
  switch (t.operator) {
    case "is": return s === t.value;
    case "not": return s !== t.value;
    case "match":
      try { return new RegExp(t.value).test(s); } catch (e) { return false; }
    case "any": return (t.values || []).includes(s);
    case "none": return !(t.values || []).includes(s);
  }
  return false;
}

/** initialsOf is the initials a name adopts. */
export function initialsOf(name) {
  return String(name || "").split(/\s+/).map((w) => w[0] || "").join("");
}

/**
 * The HTML input rules of each validation type of text fields: the same
 * patterns the service checks a value against (package fields, values.go),
 * so the page refuses what signing would refuse.
 */
const validation = {
  numbers_only: { pattern: "-?[0-9]+(\\.[0-9]+)?" },
  letters_only: { pattern: "\\p{L}+" },
  email_address: { type: "email" },
  phone_number: { pattern: "[0-9]{10,11}" },
  zip_code: { pattern: "[0-9]{5}|[0-9]{9}" },
  bank_routing_number: { pattern: "[0-9]{9}" },
  bank_account_number: { pattern: "[0-9]{6,}" },
  social_security_number: { pattern: "[0-9]{9}" },
  employer_identification_number: { pattern: "[0-9]{9}" },
};

/**
 * drawPad opens a dialog to draw a signature with the pointer; onAdopt gets
 * the drawing's canvas when the signer adopts it.
 */
function drawPad(title, onAdopt) {
  const pad = el("canvas", { width: 420, height: 140, class: "pad", role: "img", "aria-label": title });
  const ctx = pad.getContext("2d");
  ctx.lineWidth = 2.2;
  ctx.lineCap = "round";
  ctx.strokeStyle = "#1e3a8a";
  let drawing = false;
  let inked = false;
  const at = (ev) => {
    const r = pad.getBoundingClientRect();
    return [(ev.clientX - r.left) * (pad.width / r.width), (ev.clientY - r.top) * (pad.height / r.height)];
  };
  pad.addEventListener("pointerdown", (ev) => { drawing = true; pad.setPointerCapture(ev.pointerId); ctx.beginPath(); ctx.moveTo(...at(ev)); });
  pad.addEventListener("pointermove", (ev) => { if (!drawing) return; ctx.lineTo(...at(ev)); ctx.stroke(); inked = true; });
  pad.addEventListener("pointerup", () => { drawing = false; });
  const dlg = el("dialog", { class: "drawdialog" },
    el("p", {}, title),
    pad,
    el("div", { class: "row" },
      el("button", { type: "button", onclick: () => { ctx.clearRect(0, 0, pad.width, pad.height); inked = false; } }, "Clear"),
      el("button", { type: "button", onclick: () => { dlg.close(); dlg.remove(); } }, "Cancel"),
      el("button", { type: "button", class: "primary adopt-drawing", onclick: () => { if (!inked) return; dlg.close(); dlg.remove(); onAdopt(pad); } }, "Adopt this signature")));
  document.body.append(dlg);
  dlg.showModal();
}

/** The words a field of each type is called by when it has no name. */
const typeLabels = {
  text: "Text", checkbox: "Checkbox", radio: "Option", dropdown: "Choice", date_signed: "Date signed",
  signature: "Signature", initials: "Initials", "text-merge": "Merged text", "checkbox-merge": "Merged checkbox", hyperlink: "Link",
};

/** fieldLabel is a field's accessible name: its name, else its placeholder, else its type's word. */
export function fieldLabel(f) {
  return f.name || f.placeholder || typeLabels[f.type] || f.type;
}

/**
 * fieldInput makes the input for one field of the signer: {node, value(),
 * filled()}, and set(v) for text fields; value() undefined sends nothing
 * (the service fills it). Every input is named by aria-label (the field
 * sits over the document, where no label element fits).
 */
export function fieldInput(f, signerName, dateText) {
  const t = f.type;
  const common = { "data-api-id": f.api_id, title: f.name || f.api_id, "aria-label": fieldLabel(f), class: "field field-" + t };
  if (t === "checkbox" || t === "radio") {
    const box = el("input", Object.assign({ type: t === "radio" ? "radio" : "checkbox", name: t === "radio" ? "group-" + (f.group || f.api_id) : undefined }, common));
    box.checked = !!f.is_checked;
    return { node: box, value: () => box.checked, filled: () => box.checked };
  }
  if (t === "dropdown") {
    const sel = el("select", common, el("option", { value: "" }, f.name ? "Choose " + f.name : ""), (f.options || []).map((o) => el("option", { value: o }, o)));
    if (f.content) sel.value = f.content;
    return { node: sel, value: () => sel.value, filled: () => sel.value !== "" };
  }
  if (t === "date_signed") {
    return { node: el("input", Object.assign({ type: "text", readonly: true, value: dateText || "" }, common)), value: () => undefined, filled: () => true };
  }
  if (t === "text-merge" || t === "checkbox-merge" || t === "hyperlink") {
    const shown = t === "checkbox-merge" ? (String(f.value) === "true" ? "☑" : "☐") : (f.value !== undefined ? f.value : f.content || "");
    return { node: el("input", Object.assign({ type: "text", readonly: true, value: shown }, common)), value: () => undefined, filled: () => true };
  }
  const attrs = Object.assign({ type: "text", placeholder: t === "signature" ? "type to sign" : t === "initials" ? "initials" : (f.placeholder || f.name || "") }, common);
  if (t === "text") {
    Object.assign(attrs, validation[f.validation_type] || {});
    if (f.validation_type === "custom_regex" && f.validation_custom_regex) attrs.pattern = f.validation_custom_regex;
    if (f.masked) attrs.type = "password";
  }
  const input = el("input", attrs);
  // A text field starts with its content, or with the signer's own data
  // when it auto-fills (the signer may change either).
  if (t === "text") input.value = f.content || f.auto_fill_value || "";
  if (t !== "signature" && t !== "initials") {
    return {
      node: input, value: () => input.value, filled: () => input.value !== "" && input.checkValidity(),
      set: (v) => { input.value = v; },
    };
  }
  // Signatures and initials: typed, adopted from the signer's name, or drawn.
  let drawn = null;
  input.className = "sig-input";
  input.removeAttribute("data-api-id");
  const box = el("span", { class: "sigbox field-" + t, "data-api-id": f.api_id, title: f.name || f.api_id });
  const changed = () => box.dispatchEvent(new Event("input", { bubbles: true }));
  const clearDrawing = () => { if (drawn) { drawn.remove(); drawn = null; box.classList.remove("drawn"); } };
  input.addEventListener("input", () => { clearDrawing(); box.classList.remove("adopted"); });
  // Adopt keeps what the signer typed, as typed; with nothing typed it
  // adopts their name (or its initials).
  const adopt = el("button", {
    type: "button", class: "adopt", title: "Adopt what you typed, or your name", "aria-label": "Adopt " + fieldLabel(f).toLowerCase(),
    onclick: () => {
      clearDrawing();
      if (input.value.trim() === "") input.value = t === "initials" ? initialsOf(signerName) : signerName;
      box.classList.add("adopted");
      changed();
    },
  }, "Adopt");
  const draw = el("button", {
    type: "button", class: "draw", title: "Draw it", "aria-label": "Draw " + fieldLabel(f).toLowerCase(),
    onclick: () => drawPad(t === "initials" ? "Draw your initials" : "Draw your signature", (pad) => {
      clearDrawing();
      input.value = "";
      drawn = el("canvas", { class: "drawn-sig", width: pad.width, height: pad.height });
      drawn.getContext("2d").drawImage(pad, 0, 0);
      box.classList.add("drawn");
      box.prepend(drawn);
      changed();
    }),
  }, "Draw");
  // The box is the field's own rectangle; its two buttons hang below it.
  box.append(input, el("span", { class: "sigtools" }, adopt, draw));
  return {
    node: box,
    // A drawn signature is sent as signed (true): the service records it
    // in the signer's name, as a typed one would be.
    value: () => (drawn ? true : input.value),
    filled: () => !!drawn || input.value.trim() !== "",
  };
}

/**
 * linkFields makes the text fields that share a link_id hold one value:
 * typing in one fills the others, as signing fills them all. A field that
 * starts empty takes the value another field of its link starts with.
 */
function linkFields(inputs) {
  const links = new Map();
  for (const it of inputs) {
    if (it.f.type !== "text" || !it.f.link_id || !it.inp.set) continue;
    if (!links.has(it.f.link_id)) links.set(it.f.link_id, []);
    links.get(it.f.link_id).push(it);
  }
  for (const members of links.values()) {
    if (members.length < 2) continue;
    const first = members.find(({ inp }) => inp.value() !== "");
    if (first) for (const { inp } of members) if (inp.value() === "") inp.set(first.inp.value());
    for (const { inp } of members) {
      inp.node.addEventListener("input", () => {
        for (const other of members) if (other.inp !== inp) other.inp.set(inp.value());
      });
    }
  }
}

/**
 * markSignaturePage puts on the appended signature page the state of the
 * boxes of the other signers (signed, or waiting for them); the signer's
 * own box is their signature field.
 */
function markSignaturePage(drawn, sp) {
  if (!sp) return;
  for (const b of sp.boxes || []) {
    if (b.mine) continue;
    const p = drawn.find((d) => d.doc === sp.document_index && d.page === b.page);
    if (!p) continue;
    const who = b.name || b.email;
    const node = el("div", { class: "sigpage-other " + (b.signed ? "signed" : "pending") },
      el("span", { class: "sigpage-state" }, b.signed ? "Signed by " + who : "Waiting for " + who));
    place(node, b);
    p.node.append(node);
  }
}

/**
 * mountSigning draws the documents into root with an input over each of the
 * signer's fields. view is {documents, fields, groups, rules, signer_name,
 * date_text, signature_page}; signature_page, for a request sent without
 * fields, is the appended signature page (a document of its own) with every
 * signer's box. load(doc) answers a document's PDF. Answers {inputs,
 * values(), missing(), pages} and calls onChange after every edit.
 */
export async function mountSigning(root, view, load, onChange) {
  const pages = el("div", { class: "pages" });
  root.append(pages);
  const drawn = await renderDocuments(pages, view.documents, load);
  const inputs = [];
  for (const f of view.fields) {
    const p = pageOf(drawn, f);
    if (!p) continue;
    const inp = fieldInput(f, view.signer_name, view.date_text);
    place(inp.node, f);
    if (f.required) inp.node.classList.add("required");
    // The signer's box on the appended signature page covers the page's
    // own drawing of the box.
    if (view.signature_page && f.document_index === view.signature_page.document_index) inp.node.classList.add("on-signature-page");
    p.node.append(inp.node);
    inputs.push({ f, inp });
  }
  linkFields(inputs);
  markSignaturePage(drawn, view.signature_page);
  // An empty optional field is left to the service, except a text field
  // the page filled (content, auto-fill) and the signer emptied, which is
  // sent empty so that it stays empty.
  const prefilled = (f) => f.type === "text" && !!(f.content || f.auto_fill_value);
  const values = () => {
    const out = {};
    for (const { f, inp } of inputs) {
      const v = inp.value();
      if (v !== undefined && !(v === "" && !f.required && !prefilled(f))) out[f.api_id] = v;
    }
    return out;
  };
  // A checkbox group's requirement counts as one more field left while it
  // is not met (require_1 and require_1-ormore need one checked; require_1
  // and require_0-1 allow one at most), as signing checks it.
  const groupsUnmet = () => (view.groups || []).filter((g) => {
    const members = inputs.filter(({ f }) => f.group === g.group_id);
    if (!members.length) return false;
    const n = members.filter(({ inp }) => inp.value() === true).length;
    const needOne = g.requirement === "require_1" || g.requirement === "require_1-ormore";
    const atMostOne = g.requirement === "require_1" || g.requirement === "require_0-1";
    return (needOne && n === 0) || (atMostOne && n > 1);
  }).length;
  // Conditional logic: a rule whose trigger (one of the signer's fields)
  // matches hides its target fields and groups, and a hidden field is not
  // required, as signing evaluates the rules.
  const hidden = () => {
    const out = new Set();
    const byID = new Map(inputs.map(({ f, inp }) => [f.api_id, inp]));
    for (const r of view.rules || []) {
      if (!r.triggers || r.triggers.length !== 1) continue;
      const t = r.triggers[0];
      const inp = byID.get(t.id);
      if (!inp) continue;
      const v = inp.value();
      if (v === undefined || !triggerMatches(t, v)) continue;
      for (const a of r.actions || []) {
        if (!a.hidden) continue;
        if (a.field_id) out.add(a.field_id);
        if (a.group_id) for (const { f } of inputs) if (f.group === a.group_id) out.add(f.api_id);
      }
    }
    return out;
  };
  const applyRules = () => {
    const h = hidden();
    for (const { f, inp } of inputs) inp.node.hidden = h.has(f.api_id);
    return h;
  };
  const missing = () => {
    const h = applyRules();
    return inputs.filter(({ f, inp }) => f.required && !h.has(f.api_id) && !inp.filled()).length + groupsUnmet();
  };
  // Optional fields holding a value their validation type refuses (a
  // required one counts as missing), which signing would refuse too.
  const invalid = () => {
    const h = hidden();
    return inputs.filter(({ f, inp }) => !f.required && !h.has(f.api_id) && inp.node.willValidate && inp.node.value !== "" && !inp.node.checkValidity()).length;
  };
  applyRules();
  if (onChange) {
    pages.addEventListener("input", onChange);
    pages.addEventListener("change", onChange);
  }
  return { inputs, values, missing, invalid, pages: drawn };
}
