'use strict';
// Strict comparison of a raw JSON response with the SDK's own model.
//
// The SDK's ObjectSerializer is lenient: it silently drops properties its
// model does not know and passes values of the wrong type through. An
// integrator would notice such a mismatch only later, as an undefined field or
// a string where a number was expected. So every successful SDK call in these
// tests also walks the raw body (response.data) against the SDK's typeMap and
// reports each property the model does not name, each value whose JSON type
// differs from the model's, and each enum value the model does not list.

const sdk = require('@dropbox/sign');

/**
 * Properties of the official description (the sandbox's contract) that the
 * pinned SDK 1.11.0 predates. The SDK drops them, which is harmless, so they
 * are not reported. Found by comparing the SDK's typeMap with the components
 * of ../shared/reference/dropbox-sign/openapi.yaml.
 */
const NEWER_THAN_SDK = {
  SignatureRequestResponse: ['signer_experience'],
  TemplateResponse: ['signer_experience'],
  BulkSendJobGetResponseSignatureRequests: ['signer_experience'],
};

const ARRAY = /^Array<(.+)>$/;
const MAP = /^\{ \[key: string\]: (.+); \}$/;

function jsonType(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/**
 * Returns a list of human-readable problems ("path: message"), empty when
 * the raw value matches type exactly as the SDK models it.
 */
function checkShape(raw, type, at = '') {
  const problems = [];
  walk(raw, type, at || type, problems);
  return problems;
}

function walk(v, type, at, out) {
  if (v === null || v === undefined) return; // the SDK accepts null anywhere
  let m;
  switch (type) {
    case 'any':
      return;
    case 'string':
      if (typeof v !== 'string') out.push(`${at}: expected string, got ${jsonType(v)} ${JSON.stringify(v)}`);
      return;
    case 'number':
    case 'integer':
    case 'double':
    case 'float':
    case 'long':
      if (typeof v !== 'number') out.push(`${at}: expected number, got ${jsonType(v)} ${JSON.stringify(v)}`);
      return;
    case 'boolean':
      if (typeof v !== 'boolean') out.push(`${at}: expected boolean, got ${jsonType(v)} ${JSON.stringify(v)}`);
      return;
    case 'object':
      if (jsonType(v) !== 'object') out.push(`${at}: expected object, got ${jsonType(v)}`);
      return;
    case 'Date':
      if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) out.push(`${at}: expected a date string, got ${JSON.stringify(v)}`);
      return;
    case 'RequestFile':
    case 'Buffer':
      return;
  }
  if ((m = ARRAY.exec(type))) {
    if (!Array.isArray(v)) {
      out.push(`${at}: expected array, got ${jsonType(v)}`);
      return;
    }
    v.forEach((x, i) => walk(x, m[1], `${at}[${i}]`, out));
    return;
  }
  if ((m = MAP.exec(type))) {
    if (jsonType(v) !== 'object') {
      out.push(`${at}: expected object, got ${jsonType(v)}`);
      return;
    }
    for (const k of Object.keys(v)) walk(v[k], m[1], `${at}.${k}`, out);
    return;
  }
  if (sdk.enumsMap[type]) {
    const allowed = Object.values(sdk.enumsMap[type]);
    if (!allowed.includes(v)) out.push(`${at}: ${JSON.stringify(v)} is not one of the SDK's ${type} values`);
    return;
  }
  if (!sdk.typeMap[type]) {
    out.push(`${at}: the SDK has no type ${type}`);
    return;
  }
  if (jsonType(v) !== 'object') {
    out.push(`${at}: expected object (${type}), got ${jsonType(v)} ${JSON.stringify(v)}`);
    return;
  }
  const actual = sdk.ObjectSerializer.findCorrectType(v, type);
  const attrs = sdk.typeMap[actual].getAttributeTypeMap();
  const byBase = new Map(attrs.map((a) => [a.baseName, a]));
  for (const k of Object.keys(v)) {
    const a = byBase.get(k);
    if (!a) {
      if ((NEWER_THAN_SDK[actual] || []).includes(k)) continue;
      out.push(`${at}.${k}: property not in the SDK model ${actual} (the SDK drops it)`);
      continue;
    }
    walk(v[k], a.type, `${at}.${k}`, out);
  }
}

module.exports = { checkShape, NEWER_THAN_SDK };
