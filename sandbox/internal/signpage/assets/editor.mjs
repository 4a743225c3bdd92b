// The template editor page: the form (title, subject, message, roles) and
// the field editor (fieldeditor.mjs) over the template's documents. Save
// posts the form with the placed fields as JSON in "fields"; without this
// script the form posts no fields and the template keeps its own.
import { mountEditor } from "./fieldeditor.mjs";
import { pageView, fetchDocument } from "./docview.mjs";

const { root, view } = pageView("editor");
const status = document.getElementById("doc-status");
const hidden = document.getElementById("fields");
const rolesBox = document.getElementById("signer-roles");

const roleNames = () => rolesBox.value.split("\n").map((s) => s.trim()).filter((s) => s !== "");

(async () => {
  try {
    let ed = null;
    const sync = () => {
      hidden.value = JSON.stringify(ed ? ed.fields() : view.fields);
      hidden.disabled = false;
    };
    ed = await mountEditor(root, Object.assign({}, view, { roles: roleNames() }), fetchDocument, sync);
    rolesBox.addEventListener("input", () => ed.setRoles(roleNames()));
    sync();
    status.textContent = "Place fields for each signer role, then Save.";
  } catch (e) {
    status.textContent = "The document cannot be shown here (" + e.message + "); the form still saves the template.";
  }
})();
