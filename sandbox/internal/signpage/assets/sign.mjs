// The signing page: the request's documents with the signer's fields over
// them (docview.mjs). Sign stays disabled until every required field is
// filled; the form then posts the values to the page, which signs through
// the same code as the control plane's sign call. Without this script the
// form still signs, with the values the service fills in.
import { mountSigning, pageView, fetchDocument } from "./docview.mjs";

const { root, view } = pageView("docview");
const status = document.getElementById("doc-status");
const form = document.getElementById("sign-form");
const button = document.getElementById("sign");
const missing = document.getElementById("missing");

let doc = null;
function update() {
  const left = doc ? doc.missing() : 0;
  button.disabled = left > 0;
  missing.textContent = left ? left + " required field(s) left" : "";
}

form.addEventListener("submit", (ev) => {
  if (!doc) return;
  if (doc.missing() > 0) { ev.preventDefault(); update(); return; }
  document.getElementById("values").value = JSON.stringify(doc.values());
});

(async () => {
  try {
    button.disabled = view.fields.some((f) => f.required);
    doc = await mountSigning(root, view, fetchDocument, update);
    status.textContent = doc.inputs.length + " field(s) to fill on " + doc.pages.length + " page(s).";
    update();
  } catch (e) {
    doc = null;
    button.disabled = false;
    status.textContent = "The document cannot be shown here (" + e.message + "); you can still sign.";
  }
})();
