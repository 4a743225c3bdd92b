package model

import (
	"reflect"
	"testing"
)

// TestCopySignaturesOwnsWhatItMayChange: the copy processing takes owns
// its signatures, and an append to any other slice of it (the audit, the
// link secrets, one added later) makes an array of its own instead of
// writing into the spare room of the stored row's.
func TestCopySignaturesOwnsWhatItMayChange(t *testing.T) {
	r := &SignatureRequest{}
	v := reflect.ValueOf(r).Elem()
	var slices []int
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.Slice {
			f.Set(reflect.MakeSlice(f.Type(), 1, 4)) // spare room an append could write into
			slices = append(slices, i)
		}
	}
	if len(slices) < 10 {
		t.Fatalf("found %d slices in a request row", len(slices))
	}
	c := reflect.ValueOf(r.CopySignatures()).Elem()
	for _, i := range slices {
		name := v.Type().Field(i).Name
		orig, cp := v.Field(i), c.Field(i)
		if cp.Len() != orig.Len() {
			t.Errorf("%s: copy has %d elements, the row %d", name, cp.Len(), orig.Len())
		}
		shared := cp.Pointer() == orig.Pointer()
		if name == "Signatures" && shared {
			t.Errorf("Signatures: the copy shares the row's array")
		}
		if shared && cp.Cap() != cp.Len() {
			t.Errorf("%s: the copy shares the row's array with room to append into", name)
		}
	}
	r2 := r.CopySignatures()
	r2.Audit = append(r2.Audit, AuditEntry{Action: "appended"})
	r2.LinkSecrets = append(r2.LinkSecrets, LinkSecret{Secret: "s"})
	r2.Signatures[0].Status = SigSigned
	if got := r.Audit[:2][1]; got != (AuditEntry{}) {
		t.Errorf("an append to the copy's audit wrote into the row's array: %+v", got)
	}
	if got := r.LinkSecrets[:2][1]; got != (LinkSecret{}) {
		t.Errorf("an append to the copy's link secrets wrote into the row's array: %+v", got)
	}
	if r.Signatures[0].Status != "" {
		t.Errorf("a change of the copy's signature changed the row's")
	}
}
