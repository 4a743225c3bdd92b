// The field editor the template editor page and the console share: the
// template's documents page by page, its fields as boxes over them; a click
// on a page places a field of the chosen type for the chosen role, a box
// drags to move, its × (or the Delete key) removes it. fields() answers the
// fields as the control plane's template fields call takes them.
import { el, renderDocuments, pageOf, place, SCALE } from "./docview.mjs";

/** The types the editor places, with their default size in points. */
export const TYPES = {
  text: { label: "Text", width: 160, height: 22 },
  signature: { label: "Signature", width: 180, height: 40 },
  initials: { label: "Initials", width: 60, height: 30 },
  checkbox: { label: "Checkbox", width: 16, height: 16 },
  date_signed: { label: "Date signed", width: 110, height: 22 },
};

/** The colours of the first roles' fields (then they repeat). */
const ROLE_COLOURS = ["#2563eb", "#c2410c", "#15803d", "#7e22ce", "#be123c", "#0e7490"];

/**
 * mountEditor draws view.documents into root with view.fields over them.
 * view is {documents, roles, fields}; load(doc) answers a document's PDF.
 * onChange is called after every change.
 */
export async function mountEditor(root, view, load, onChange) {
  let roles = view.roles.slice();
  const fields = view.fields.map((f) => Object.assign({}, f));
  let selected = null;
  let seq = 0;
  const changed = () => { if (onChange) onChange(); };

  const type = el("select", { id: "field-type", "aria-label": "Field type" },
    Object.entries(TYPES).map(([k, t]) => el("option", { value: k }, t.label)));
  const role = el("select", { id: "field-role", "aria-label": "Role" });
  const required = el("input", { type: "checkbox", id: "field-required" });
  required.checked = true;
  const count = el("span", { class: "muted", id: "field-count" });
  const fillRoles = () => {
    const cur = role.value;
    role.replaceChildren(...roles.map((r) => el("option", { value: r }, r)));
    if (roles.includes(cur)) role.value = cur;
  };
  fillRoles();
  const tools = el("div", { class: "tools row" },
    el("span", {}, "Click on a page to place a"), type, el("span", {}, "field for"), role,
    el("label", {}, required, " required"), count);
  const pagesNode = el("div", { class: "pages" });
  root.append(tools, pagesNode);
  const pages = await renderDocuments(pagesNode, view.documents, load);

  const unique = (t) => {
    const taken = new Set(fields.map((f) => f.api_id));
    let id;
    do { id = t + "_" + (++seq); } while (taken.has(id));
    return id;
  };
  const select = (f) => {
    selected = f;
    for (const n of pagesNode.querySelectorAll(".efield")) n.classList.toggle("selected", n.dataset.apiId === (f && f.api_id));
  };
  const remove = (f) => {
    const i = fields.indexOf(f);
    if (i >= 0) fields.splice(i, 1);
    if (selected === f) selected = null;
    draw();
    changed();
  };

  function box(f, p) {
    const label = (TYPES[f.type] ? TYPES[f.type].label : f.type) + (f.required ? "*" : "") + " · " + (f.signer || "");
    const del = el("button", { type: "button", class: "del", title: "Remove this field", "aria-label": "Remove " + f.api_id }, "×");
    const node = el("div", { class: "efield efield-" + f.type + (f.required ? " required" : ""), "data-api-id": f.api_id, tabindex: 0 },
      el("span", { class: "elabel" }, label), del);
    place(node, f);
    // Each role has its colour, so whose field is whose shows at a glance.
    node.style.setProperty("--role", ROLE_COLOURS[Math.max(0, roles.indexOf(f.signer)) % ROLE_COLOURS.length]);
    del.addEventListener("pointerdown", (ev) => ev.stopPropagation());
    del.addEventListener("click", (ev) => { ev.stopPropagation(); remove(f); });
    // Dragging moves the field within its page, in whole points.
    node.addEventListener("pointerdown", (ev) => {
      ev.stopPropagation();
      ev.preventDefault();
      select(f);
      node.focus();
      const start = { x: ev.clientX, y: ev.clientY, fx: f.x, fy: f.y };
      let moved = false;
      node.setPointerCapture(ev.pointerId);
      const move = (e) => {
        const dx = (e.clientX - start.x) / SCALE;
        const dy = (e.clientY - start.y) / SCALE;
        f.x = Math.round(Math.min(Math.max(0, start.fx + dx), Math.max(0, p.width - f.width)));
        f.y = Math.round(Math.min(Math.max(0, start.fy + dy), Math.max(0, p.height - f.height)));
        moved = true;
        place(node, f);
      };
      const up = () => {
        node.removeEventListener("pointermove", move);
        node.removeEventListener("pointerup", up);
        if (moved) changed();
      };
      node.addEventListener("pointermove", move);
      node.addEventListener("pointerup", up);
    });
    node.addEventListener("keydown", (ev) => {
      if (ev.key === "Delete" || ev.key === "Backspace") { ev.preventDefault(); remove(f); }
    });
    return node;
  }

  function draw() {
    for (const n of pagesNode.querySelectorAll(".efield")) n.remove();
    for (const f of fields) {
      const p = pageOf(pages, f);
      if (p) p.node.append(box(f, p));
    }
    count.textContent = fields.length + " field(s)";
    select(selected);
  }

  for (const p of pages) {
    p.node.addEventListener("pointerdown", (ev) => {
      if (ev.target.closest(".efield")) return;
      if (!role.value) return;
      const r = p.node.getBoundingClientRect();
      const t = type.value;
      const size = TYPES[t];
      const f = {
        api_id: unique(t), name: "", type: t, document_index: p.doc, page: p.page,
        x: Math.round(Math.min(Math.max(0, (ev.clientX - r.left) / SCALE), Math.max(0, p.width - size.width))),
        y: Math.round(Math.min(Math.max(0, (ev.clientY - r.top) / SCALE), Math.max(0, p.height - size.height))),
        width: size.width, height: size.height, required: required.checked, signer: role.value,
      };
      fields.push(f);
      selected = f;
      draw();
      changed();
    });
  }
  draw();

  return {
    fields: () => fields.map((f) => Object.assign({}, f)),
    /** setRoles renames the roles on offer (fields keep theirs). */
    setRoles: (names) => { roles = names.slice(); fillRoles(); },
    pages,
  };
}
