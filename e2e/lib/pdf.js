'use strict';
// Small valid PDFs made in the test, so that uploads need no fixture files:
// one text line per page, correct cross-reference table, any page size.

/**
 * Returns a Buffer holding a PDF with the given number of pages.
 * size is [width, height] in points (default US Letter portrait).
 */
function makePDF({ pages = 1, size = [612, 792], text = 'signsandbox e2e document' } = {}) {
  const objects = [];
  const add = (body) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add(null);
  const pagesObj = add(null);
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids = [];
  for (let i = 0; i < pages; i++) {
    const line = `${text} - page ${i + 1} of ${pages}`.replace(/[()\\]/g, '');
    const stream = `BT /F1 14 Tf 72 ${size[1] - 96} Td (${line}) Tj ET`;
    const content = add(`<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${size[0]} ${size[1]}] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${pages} >>`;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A PDF as the SDK uploads a Buffer: {value, options: {filename, contentType}}. */
function pdfUpload(filename = 'document.pdf', opts = {}) {
  return { value: makePDF(opts), options: { filename, contentType: 'application/pdf' } };
}

/** Counts the pages of a PDF the way a quick check can: /Type /Page objects. */
function countPages(buf) {
  const s = Buffer.from(buf).toString('latin1');
  return (s.match(/\/Type\s*\/Page(?![s\w])/g) || []).length;
}

function isPDF(buf) {
  return Buffer.from(buf).subarray(0, 5).toString('latin1') === '%PDF-';
}

module.exports = { makePDF, pdfUpload, countPages, isPDF };
