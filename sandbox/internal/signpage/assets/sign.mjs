// The signing page: the request's documents with the signer's fields over
// them (docview.mjs), and for a request sent without fields the appended
// signature page with every signer's box. Sign stays disabled until every
// required field is filled; the form then posts the values to the page,
// which signs through the same code as the control plane's sign call.
// Without this script the form still signs, with the values the service
// fills in.
import { mountSigning, pageView, fetchDocument } from "./docview.mjs";

const { root, view } = pageView("docview");
const status = document.getElementById("doc-status");
const form = document.getElementById("sign-form");
const button = document.getElementById("sign");
const missing = document.getElementById("missing");

let doc = null;
function update() {
  const left = doc ? doc.missing() : 0;
  const wrong = doc ? doc.invalid() : 0;
  button.disabled = left > 0 || wrong > 0;
  const parts = [];
  if (left) parts.push(left + " required field(s) left");
  if (wrong) parts.push(wrong + " field(s) to correct");
  missing.textContent = parts.join(", ");
}

form.addEventListener("submit", (ev) => {
  if (!doc) return;
  if (doc.missing() > 0 || doc.invalid() > 0) { ev.preventDefault(); update(); return; }
  document.getElementById("values").value = JSON.stringify(doc.values());
});

/**
 * The link to the next field: it brings the first required field still to
 * fill (the signer's box on an appended signature page) into view and
 * focuses it; without this script it leads to the document.
 */
document.getElementById("next-field").addEventListener("click", (ev) => {
  if (!doc) return;
  const todo = doc.inputs.find(({ f, inp }) => f.required && !inp.node.hidden && !inp.filled()) || doc.inputs.find(({ inp }) => !inp.node.hidden);
  if (!todo) return;
  ev.preventDefault();
  const target = todo.inp.node.matches("input, select") ? todo.inp.node : todo.inp.node.querySelector("input");
  target.scrollIntoView({ block: "center" });
  target.focus();
});

(async () => {
  try {
    button.disabled = view.fields.some((f) => f.required);
    doc = await mountSigning(root, view, fetchDocument, update);
    if (view.signature_page) {
      status.textContent = "Sign in your box on the signature page after the document.";
    } else {
      status.textContent = doc.inputs.length + " field(s) to fill on " + doc.pages.length + " page(s).";
    }
    update();
  } catch (e) {
    doc = null;
    button.disabled = false;
    status.textContent = "The document cannot be shown here (" + e.message + "); you can still sign.";
  }
})();
