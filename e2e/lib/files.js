'use strict';
// Reference files beside the checkout (../shared/reference/...), read in place.

const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('./sandbox');

const REFERENCE = path.join(REPO_ROOT, '..', 'shared', 'reference', 'dropbox-sign');

/** Absolute path of a reference file, or null when the reference is absent. */
function referenceFile(...parts) {
  const p = path.join(REFERENCE, ...parts);
  return fs.existsSync(p) ? p : null;
}

/** The official sample PDF, or null (tests then skip with a message). */
function samplePDF(name = 'pdf-sample.pdf') {
  return referenceFile('test_fixtures', name);
}

const MISSING_REFERENCE = `the reference files are absent (${path.relative(process.cwd(), REFERENCE)}); see e2e/README.md`;

module.exports = { REFERENCE, referenceFile, samplePDF, MISSING_REFERENCE };
