// Package document is how objects get their documents and their files:
// intake of a create call's documents (uploads and file_urls, fetched,
// converted to PDF and checked against the world's and the server's
// limits) and storing them, the job that prepares an object's downloadable
// PDF and ZIP, the download operations (binary, data URI, file URL) and the
// public file URLs. The objects that own files plug in through
// api.Registry.FileOwners.
package document
