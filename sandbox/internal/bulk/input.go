package bulk

// Bodies of the two bulk send operations. What they share with
// send_with_template (texts, metadata, template_ids, ccs, custom_fields,
// client_id) is checked by the signature request validators; the signer
// list (signer_list, or a CSV signer_file) is checked here, entry by entry,
// and bound to the templates with Spec.BindTemplateUse, so that every request of
// the job is exactly what send_with_template would have made.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// maxBulkRequests is the documented limit of requests per bulk send job.
const maxBulkRequests = 250

// Messages shared with the tests.
const (
	msgBulkPlan  = "A paid API plan is required to access this endpoint."
	msgBulkRoles = "Bulk send works with templates that have exactly one signer role"
)

// bulkBody is the bulk-only part of SignatureRequestBulkSendWithTemplateRequest.
type bulkBody struct {
	SignerFile wire.File           `json:"signer_file"`
	SignerList []subBulkSignerList `json:"signer_list"`
}

// subBulkSignerList is SubBulkSignerList.
type subBulkSignerList struct {
	Signers      []sigreq.SubSigner `json:"signers"`
	CustomFields []bulkCustomField  `json:"custom_fields"`
}

// bulkCustomField is SubBulkSignerListCustomField.
type bulkCustomField struct {
	Name  string  `json:"name"`
	Value *string `json:"value"`
}

// bulkEntry is one future request: a signer_list entry or a CSV row.
type bulkEntry struct {
	index        int // position in signer_list
	row          int // CSV line (0 for signer_list entries)
	Signers      []sigreq.SubSigner
	CustomFields []bulkCustomField
}

// path is the error path of a part of the entry: signer_list[i][sub], or
// signer_file for CSV rows.
func (e bulkEntry) path(sub string) string {
	if e.row > 0 {
		return "signer_file"
	}
	return "signer_list[" + strconv.Itoa(e.index) + "]" + sub
}

// fail makes an entry's error: CSV rows name their line in the message.
func (e bulkEntry) fail(sub, format string, args ...any) *apierr.Error {
	err := apierr.Badf(e.path(sub), format, args...)
	if e.row > 0 {
		err.Msg = "signer_file line " + strconv.Itoa(e.row) + ": " + err.Msg
	}
	return err
}

// relocate moves an error found on a part of the entry (checked as if it
// were signers[0]) to the entry's path.
func (e bulkEntry) relocate(err *apierr.Error, sub string) *apierr.Error {
	if err == nil {
		return nil
	}
	out := err.WithPath(e.path(sub + strings.TrimPrefix(err.Path, "signers[0]")))
	if e.row > 0 {
		out.Msg = "signer_file line " + strconv.Itoa(e.row) + ": " + out.Msg
	}
	return out
}

// bulkEntries reads signer_list or signer_file (exactly one of them) into
// entries and checks their count.
func bulkEntries(c *api.Call, bb *bulkBody) ([]bulkEntry, *apierr.Error) {
	body, err := c.ReadBody()
	if err != nil {
		return nil, apierr.Badf("signer_file", "%v", err)
	}
	_, hasFile := body.Files["signer_file"]
	if !hasFile && body.Has("signer_file") {
		return nil, apierr.Badf("signer_file", "signer_file must be uploaded as a CSV file (multipart/form-data).")
	}
	var out []bulkEntry
	switch {
	case hasFile && len(bb.SignerList) > 0:
		return nil, apierr.Badf("signer_file", "Use either signer_list or signer_file, not both.")
	case hasFile:
		entries, e := parseSignerCSV(bb.SignerFile.Data, maxBulkRequests)
		if e != nil {
			return nil, e
		}
		out = entries
	case len(bb.SignerList) > 0:
		for i, l := range bb.SignerList {
			out = append(out, bulkEntry{index: i, Signers: l.Signers, CustomFields: l.CustomFields})
		}
	default:
		return nil, apierr.Badf("signer_list", "Missing required parameter: signer_list or signer_file.")
	}
	where := "signer_list"
	if hasFile {
		where = "signer_file"
	}
	switch {
	case len(out) == 0:
		return nil, apierr.Badf(where, "The signer list is empty: give one entry per signature request.")
	case len(out) > maxBulkRequests:
		return nil, apierr.Badf(where, "A bulk send job sends up to %d signature requests: the signer list has more.", maxBulkRequests)
	}
	return out, nil
}

// checkEntry checks an entry's syntax: one signer (bulk send templates have
// one signer role) with a name, an address and valid PIN and SMS settings,
// and custom field values with names.
func checkEntry(e bulkEntry, testMode bool) *apierr.Error {
	switch {
	case len(e.Signers) == 0:
		return e.fail("[signers]", "Missing required parameter: signers")
	case len(e.Signers) > 1:
		return e.fail("[signers]", "%s: give one signer per entry (got %d).", msgBulkRoles, len(e.Signers))
	}
	s := e.Signers[0]
	s.Order = nil
	if e.row == 0 && strings.TrimSpace(s.Role) == "" {
		return e.fail("[signers][0][role]", "Missing required parameter: role")
	}
	if err := s.Check("signers[0]", false); err != nil {
		return e.relocate(err, "[signers][0]")
	}
	if testMode && s.SMSPhoneNumber != "" {
		return e.fail("[signers][0][sms_phone_number]", "sms_phone_number is not available in test mode.")
	}
	for j, cf := range e.CustomFields {
		sub := "[custom_fields][" + strconv.Itoa(j) + "]"
		switch {
		case strings.TrimSpace(cf.Name) == "":
			return e.fail(sub+"[name]", "Missing required parameter: name")
		case cf.Value == nil:
			return e.fail(sub+"[value]", "Missing required parameter: value")
		}
	}
	return nil
}

// bindEntry binds one entry to the job's resolved templates as
// send_with_template would (Spec.BindTemplateUse), on a copy of base, and
// answers the entry's signers and custom field values. role is the
// templates' single signer role; merge maps merge field names and api_ids
// to names.
func bindEntry(c *api.Call, use *template.Use, base sigreq.Spec, tb sigreq.TemplateBody, e bulkEntry, role string, merge map[string]string) (*sigreq.Spec, *apierr.Error) {
	s := e.Signers[0]
	s.Order = nil
	if e.row > 0 {
		s.Role = role
	}
	if s.Role != role {
		return nil, e.fail("[signers][0][role]", "Role %q is not the signer role of the template(s), %q (roles are case-sensitive).", s.Role, role)
	}
	// The entry's values override the common custom_fields of the same
	// name; entries name fields by name or api_id.
	tb.CustomFields = slices.Clone(tb.CustomFields)
	for j, cf := range e.CustomFields {
		name, ok := merge[cf.Name]
		if !ok {
			return nil, e.fail("[custom_fields]["+strconv.Itoa(j)+"][name]", "%q is not the name or api_id of a custom field of the template(s).", cf.Name)
		}
		tb.SetCustomField(name, *cf.Value)
	}
	tb.Signers = []sigreq.SubSigner{s}
	spec := base
	if ae := spec.BindTemplateUse(c, use, &tb, nil, false); ae != nil {
		if strings.HasPrefix(ae.Path, "signers[0]") {
			return nil, e.relocate(ae, "[signers][0]")
		}
		return nil, ae
	}
	return &spec, nil
}

// mergeNames maps the templates' merge field names and api_ids to names.
func mergeNames(use *template.Use) map[string]string {
	out := map[string]string{}
	for _, m := range use.MergeFields {
		out[m.Name] = m.Name
		if m.APIID != "" {
			if _, taken := out[m.APIID]; !taken {
				out[m.APIID] = m.Name
			}
		}
	}
	return out
}
