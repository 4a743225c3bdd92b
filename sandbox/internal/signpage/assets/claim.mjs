// The claim page: the draft's documents, page by page, with the fields the
// draft already has (docview.mjs), above the form that sends it.
import { mountSigning } from "./docview.mjs";

const root = document.getElementById("docview");
const status = document.getElementById("doc-status");
const view = JSON.parse(root.dataset.view || "{}");

async function load(doc) {
  const res = await fetch(doc.url, { credentials: "same-origin" });
  if (!res.ok) throw new Error("the document could not be loaded (HTTP " + res.status + ")");
  return res.arrayBuffer();
}

(async () => {
  try {
    const doc = await mountSigning(root, Object.assign({ fields: [] }, view), load, null);
    for (const { inp } of doc.inputs) {
      for (const n of [inp.node, ...inp.node.querySelectorAll("input, select, button")]) n.disabled = true;
    }
    status.textContent = doc.pages.length + " page(s) to send.";
  } catch (e) {
    status.textContent = "The document cannot be shown here (" + e.message + ").";
  }
})();
