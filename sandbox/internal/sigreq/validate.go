package sigreq

// Validation of the parts of create and edit bodies that are not form
// fields: signers, CCs, texts, expiry, options, attachments,
// custom fields and the API app. Each check answers the first violation as
// a 400 whose error_path names the field in bracket notation.

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Limits of request texts (official schema and docs; metadata's are in
// package param).
const (
	maxTitleLen   = 255
	maxSubjectLen = 255
	maxMessageLen = 5000
	// Expiry must be 1 to 90 days ahead (developers.hellosign.com,
	// "Signature Request Expiration Date"); it is rounded down to the hour.
	minExpiry = 24 * time.Hour
	maxExpiry = 90 * 24 * time.Hour
)

// e164 is an E.164 phone number.
var e164 = regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`)

// Check checks the name, address, PIN and SMS settings of one
// signer at path (signers[0], grouped_signers[1][signers[0]]...).
func (s SubSigner) Check(path string, grouped bool) *apierr.Error {
	if strings.TrimSpace(s.Name) == "" {
		return apierr.Missing(path + "[name]")
	}
	if strings.TrimSpace(s.EmailAddress) == "" {
		return apierr.Missing(path + "[email_address]")
	}
	if !param.ValidEmail(s.EmailAddress) {
		return apierr.New(apierr.InvalidRecipient, "Invalid email address: "+s.EmailAddress).WithPath(path + "[email_address]")
	}
	if s.PIN != "" {
		if n := len([]rune(s.PIN)); n < 4 || n > 12 {
			return apierr.Badf(path+"[pin]", "The PIN must be 4 to 12 characters long.")
		}
	}
	if grouped {
		// Grouped signers only take name, email_address and pin; the
		// official description says the rest is ignored.
		return nil
	}
	if s.SMSPhoneNumber != "" && !e164.MatchString(s.SMSPhoneNumber) {
		return apierr.Badf(path+"[sms_phone_number]", "%q is not an E.164 phone number (for example +14155550123).", s.SMSPhoneNumber)
	}
	if s.SMSPhoneNumberType != "" {
		if s.SMSPhoneNumberType != "authentication" && s.SMSPhoneNumberType != "delivery" {
			return apierr.Badf(path+"[sms_phone_number_type]", "sms_phone_number_type must be authentication or delivery.")
		}
		if s.SMSPhoneNumber == "" {
			return apierr.Missing(path + "[sms_phone_number]")
		}
	}
	if s.Order != nil && *s.Order < 0 {
		return apierr.Badf(path+"[order]", "order must be 0 or more.")
	}
	return nil
}

// Signature returns the signature a checked signer becomes in slot.
func (s SubSigner) Signature(slot int) model.Signature {
	sg := model.Signature{Slot: slot, Name: strings.TrimSpace(s.Name), Email: strings.TrimSpace(s.EmailAddress), PIN: s.PIN}
	if s.SMSPhoneNumber != "" {
		sg.SMSPhone = s.SMSPhoneNumber
		sg.SMSPhoneType = s.SMSPhoneNumberType
		if sg.SMSPhoneType == "" {
			sg.SMSPhoneType = "authentication"
		}
	}
	if s.Order != nil {
		o := *s.Order
		sg.Order = &o
	}
	return sg
}

// CheckSigners validates signers or grouped_signers (exactly one of them)
// and returns the signatures and the number of signer slots.
func (b *Body) CheckSigners() ([]model.Signature, int, *apierr.Error) {
	switch {
	case len(b.Signers) > 0 && len(b.GroupedSigners) > 0:
		return nil, 0, apierr.Badf("grouped_signers", "Use either signers or grouped_signers, not both.")
	case len(b.Signers) == 0 && len(b.GroupedSigners) == 0:
		return nil, 0, apierr.Missing("signers")
	}
	var out []model.Signature
	if len(b.Signers) > 0 {
		out = make([]model.Signature, 0, len(b.Signers))
		withOrder := 0
		for i, s := range b.Signers {
			p := "signers[" + itoa(i) + "]"
			if e := s.Check(p, false); e != nil {
				return nil, 0, e
			}
			if s.Order != nil {
				withOrder++
			}
			out = append(out, s.Signature(i))
		}
		if withOrder != 0 && withOrder != len(b.Signers) {
			for i, s := range b.Signers {
				if s.Order == nil {
					return nil, 0, apierr.Badf("signers["+itoa(i)+"][order]", "Give an order to every signer or to none.")
				}
			}
		}
		return out, len(b.Signers), nil
	}
	withOrder := 0
	names := map[string]bool{}
	for g, grp := range b.GroupedSigners {
		p := "grouped_signers[" + itoa(g) + "]"
		if strings.TrimSpace(grp.Group) == "" {
			return nil, 0, apierr.Missing(p + "[group]")
		}
		if names[grp.Group] {
			return nil, 0, apierr.Badf(p+"[group]", "Group names must be unique (%q is used twice).", grp.Group)
		}
		names[grp.Group] = true
		if len(grp.Signers) == 0 {
			return nil, 0, apierr.Missing(p + "[signers]")
		}
		if grp.Order != nil {
			if *grp.Order < 0 {
				return nil, 0, apierr.Badf(p+"[order]", "order must be 0 or more.")
			}
			withOrder++
		}
		for i, s := range grp.Signers {
			if e := s.Check(p+"[signers]["+itoa(i)+"]", true); e != nil {
				return nil, 0, e
			}
			sg := SubSigner{Name: s.Name, EmailAddress: s.EmailAddress, PIN: s.PIN, Order: grp.Order}.Signature(g)
			sg.Group = grp.Group
			out = append(out, sg)
		}
	}
	if withOrder != 0 && withOrder != len(b.GroupedSigners) {
		for g, grp := range b.GroupedSigners {
			if grp.Order == nil {
				return nil, 0, apierr.Badf("grouped_signers["+itoa(g)+"][order]", "Give an order to every group or to none.")
			}
		}
	}
	return out, len(b.GroupedSigners), nil
}

// SignerSlots is the number of signer places the spec's signers fill (the highest
// slot plus one): what fields and attachments may name by signer index.
func (spec *Spec) SignerSlots() int {
	n := 0
	for _, sg := range spec.Signers {
		n = max(n, sg.Slot+1)
	}
	return n
}

// CheckCCs validates cc_email_addresses and returns the trimmed addresses.
func (b *Body) CheckCCs() ([]string, *apierr.Error) {
	var out []string
	for i, a := range b.CCEmailAddresses {
		p := "cc_email_addresses[" + itoa(i) + "]"
		a = strings.TrimSpace(a)
		if a == "" {
			return nil, param.Blank(p)
		}
		if !param.ValidEmail(a) {
			return nil, apierr.Badf(p, "Invalid email address: %s", a)
		}
		out = append(out, a)
	}
	return out, nil
}

// checkTexts validates title, subject and message lengths.
func checkTexts(b *Body) *apierr.Error {
	for _, t := range []struct {
		path string
		v    *string
		max  int
	}{{"title", b.Title, maxTitleLen}, {"subject", b.Subject, maxSubjectLen}, {"message", b.Message, maxMessageLen}} {
		if t.v == nil {
			continue
		}
		if err := param.CheckMaxLen(t.path, *t.v, t.max); err != nil {
			e, _ := apierr.As(err)
			return e
		}
	}
	return nil
}

// checkExpiresAt validates an expiry against the world clock and rounds it
// down to the hour, as the service does.
func checkExpiresAt(path string, v *int64, now time.Time) (*int64, *apierr.Error) {
	if v == nil {
		return nil, nil
	}
	at := time.Unix(*v, 0)
	if at.Before(now.Add(minExpiry)) || at.After(now.Add(maxExpiry)) {
		return nil, apierr.Badf(path, "expires_at must be a Unix timestamp between 1 and 90 days in the future.")
	}
	r := at.Truncate(time.Hour).Unix()
	return &r, nil
}

// checkSigningOptions requires default_type to be one of the enabled types.
func checkSigningOptions(o *subSigningOptions) (*model.SigningOptions, *apierr.Error) {
	if o == nil {
		return nil, nil
	}
	enabled := map[string]bool{"draw": o.Draw, "phone": o.Phone, "type": o.Type, "upload": o.Upload}
	switch {
	case o.DefaultType == "":
		return nil, apierr.Missing("signing_options[default_type]")
	case !slices.Contains([]string{"draw", "phone", "type", "upload"}, o.DefaultType):
		return nil, apierr.Badf("signing_options[default_type]", "default_type must be one of draw, phone, type, upload.")
	case !enabled[o.DefaultType]:
		return nil, apierr.Badf("signing_options[default_type]", "default_type %q must be one of the enabled signature types.", o.DefaultType)
	}
	return &model.SigningOptions{DefaultType: o.DefaultType, Draw: o.Draw, Phone: o.Phone, Type: o.Type, Upload: o.Upload}, nil
}

// checkFieldOptions answers field_options[date_format] ("" without
// field_options).
func checkFieldOptions(o *fields.SubFieldOptions) (string, *apierr.Error) {
	if o == nil {
		return "", nil
	}
	if e := fields.CheckDateFormat(o.DateFormat); e != nil {
		return "", e
	}
	return o.DateFormat, nil
}

// checkSignerExperience answers signer_experience[form_view] ("" when not
// given).
func checkSignerExperience(o *subSignerExperience) (string, *apierr.Error) {
	if o == nil || o.FormView == "" {
		return "", nil
	}
	if e := fields.CheckFormView(o.FormView); e != nil {
		return "", e
	}
	return o.FormView, nil
}

// checkAttachments validates attachments against the number of signers.
func checkAttachments(list []fields.SubAttachment, slots int) ([]model.Attachment, *apierr.Error) {
	var out []model.Attachment
	for i, a := range list {
		p := "attachments[" + itoa(i) + "]"
		if strings.TrimSpace(a.Name) == "" {
			return nil, apierr.Missing(p + "[name]")
		}
		if a.SignerIndex == nil {
			return nil, apierr.Missing(p + "[signer_index]")
		}
		if *a.SignerIndex < 0 || *a.SignerIndex >= slots {
			return nil, apierr.Badf(p+"[signer_index]", "signer_index %d does not name a signer (0 to %d).", *a.SignerIndex, slots-1)
		}
		out = append(out, model.Attachment{Name: a.Name, Instructions: a.Instructions, Required: a.Required, SignerIndex: *a.SignerIndex})
	}
	return out, nil
}

// checkCustomFields validates custom_fields; roles, when given, are the
// signer roles an editor must name (templates).
func checkCustomFields(list []subCustomField, roles []string) ([]model.CustomField, *apierr.Error) {
	var out []model.CustomField
	seen := map[string]bool{}
	for i, f := range list {
		p := "custom_fields[" + itoa(i) + "]"
		if strings.TrimSpace(f.Name) == "" {
			return nil, apierr.Missing(p + "[name]")
		}
		if seen[f.Name] {
			return nil, apierr.Badf(p+"[name]", "Custom field %q is given twice.", f.Name)
		}
		seen[f.Name] = true
		if f.Required && f.Editor == "" {
			return nil, apierr.Badf(p+"[editor]", "A required custom field must name the signer role that edits it (editor).")
		}
		if f.Editor != "" && roles != nil && !slices.Contains(roles, f.Editor) {
			return nil, apierr.Badf(p+"[editor]", "editor %q is not a signer role of the template(s).", f.Editor)
		}
		out = append(out, model.CustomField{Name: f.Name, Type: "text", Value: f.Value, Required: f.Required, Editor: f.Editor})
	}
	return out, nil
}

// CheckClientID checks the API app of the spec's request (its ClientID,
// Embedded and TestMode). Embedded requests need an
// app of the caller's account or team; other requests only need the app to
// exist. An app that is not approved works only in test_mode for embedded
// requests, as on the real service.
func (spec *Spec) CheckClientID(tx *state.Txn, caller *model.Account) *apierr.Error {
	clientID, embedded, testMode := spec.ClientID, spec.Embedded, spec.TestMode
	if clientID == "" {
		if embedded {
			return apierr.Missing("client_id")
		}
		return nil
	}
	app, err := state.Get[model.APIApp](tx, state.TableAPIApps, clientID)
	if err != nil {
		return apierr.Badf("client_id", "No API app has the client_id %s.", clientID)
	}
	if !embedded {
		return nil
	}
	if !api.SameTeam(tx, app.OwnerAccountID, caller.ID) {
		return apierr.Forbiddenf("The API app %s does not belong to your account or team.", clientID).WithPath("client_id")
	}
	if !app.IsApproved && !testMode {
		return apierr.Forbiddenf("The API app %s is not approved for production yet: use test_mode until it is.", clientID).WithPath("client_id")
	}
	return nil
}
