// The claim page: the draft's documents, page by page, with the fields the
// draft already has (docview.mjs), above the form that sends it.
import { mountSigning, pageView, fetchDocument } from "./docview.mjs";

const { root, view } = pageView("docview");
const status = document.getElementById("doc-status");

(async () => {
  try {
    const doc = await mountSigning(root, Object.assign({ fields: [] }, view), fetchDocument, null);
    for (const { inp } of doc.inputs) {
      for (const n of [inp.node, ...inp.node.querySelectorAll("input, select, button")]) n.disabled = true;
    }
    status.textContent = doc.pages.length + " page(s) to send.";
  } catch (e) {
    status.textContent = "The document cannot be shown here (" + e.message + ").";
  }
})();
