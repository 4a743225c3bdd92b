package bulk

// The signer_file of the bulk send operations: a CSV file with a header row
// and one row per signature request. Columns (header names are
// case-insensitive, surrounding spaces ignored, quoting as RFC 4180):
//
//	name, email_address     required: the signer of the template's role
//	pin, sms_phone_number   optional
//	<name>_field            the value of the custom (merge) field <name>
//
// The official description shows exactly this single-role form (bulk send
// takes templates with one signer role); any other column is refused so a
// misspelt header does not silently drop data.

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
)

// csvColumn is what one header cell means.
type csvColumn struct {
	fixed string // name, email_address, pin, sms_phone_number
	field string // custom field name (the header without _field)
}

// parseSignerCSV reads a signer file into entries (at most limit+1 rows are
// kept, so that an oversized file is reported without reading it all into
// entries).
func parseSignerCSV(data []byte, limit int) ([]bulkEntry, *apierr.Error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	r := csv.NewReader(bytes.NewReader(data))
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, apierr.Badf("signer_file", "The signer file is empty: it needs a header row (name, email_address, ...) and one row per signature request.")
	}
	if err != nil {
		return nil, csvError(err)
	}
	cols, e := csvHeader(header)
	if e != nil {
		return nil, e
	}
	var out []bulkEntry
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(err)
		}
		if blankRecord(rec) {
			continue
		}
		line, _ := r.FieldPos(0)
		ent := bulkEntry{row: line}
		var s sigreq.SubSigner
		for i, v := range rec {
			v = strings.TrimSpace(v)
			switch cols[i].fixed {
			case "name":
				s.Name = v
			case "email_address":
				s.EmailAddress = v
			case "pin":
				s.PIN = v
			case "sms_phone_number":
				s.SMSPhoneNumber = v
			default:
				val := v
				ent.CustomFields = append(ent.CustomFields, bulkCustomField{Name: cols[i].field, Value: &val})
			}
		}
		ent.Signers = []sigreq.SubSigner{s}
		out = append(out, ent)
		if len(out) > limit {
			break
		}
	}
	return out, nil
}

// csvHeader reads the header row.
func csvHeader(header []string) ([]csvColumn, *apierr.Error) {
	cols := make([]csvColumn, len(header))
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		key := strings.ToLower(h)
		switch {
		case key == "name" || key == "email_address" || key == "pin" || key == "sms_phone_number":
			cols[i].fixed = key
		case strings.HasSuffix(key, "_field") && len(h) > len("_field"):
			cols[i].field = h[:len(h)-len("_field")]
			key = "field:" + cols[i].field
		default:
			return nil, apierr.Badf("signer_file", "Unknown column %q in the signer file header: use name, email_address, pin, sms_phone_number and <custom field name>_field.", h)
		}
		if seen[key] {
			return nil, apierr.Badf("signer_file", "The column %q appears twice in the signer file header.", h)
		}
		seen[key] = true
	}
	for _, need := range []string{"name", "email_address"} {
		if !seen[need] {
			return nil, apierr.Badf("signer_file", "The signer file header has no %s column.", need)
		}
	}
	return cols, nil
}

func blankRecord(rec []string) bool {
	for _, v := range rec {
		if strings.TrimSpace(v) != "" {
			return false
		}
	}
	return true
}

// csvError reports a malformed file with its line.
func csvError(err error) *apierr.Error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return apierr.Badf("signer_file", "The signer file is not valid CSV (line %d): %v", pe.Line, pe.Err)
	}
	return apierr.Badf("signer_file", "The signer file could not be read: %v", fmt.Sprint(err))
}
