// Package pdftext reads the text of PDFs for text tags: it interprets page
// content streams with their fonts to place every character, finds the
// bracketed text tags and their boxes in the API's coordinates, removes
// them when asked (hide_text_tags), and parses a tag's fields. It reads
// documents through the PDF toolkit (package pdf: parsing, the decoding
// budget, page geometry, rewriting pages) and adds the content-stream
// interpreter and the tag grammar, about 1,500 lines that have nothing to
// do with inspecting, converting or composing files.
package pdftext
