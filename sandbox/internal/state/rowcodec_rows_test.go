package state

import (
	"reflect"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/rowcodec"
)

// TestRowTypesRoundTrip checks that the codec compiles for the rows kept
// frozen and keeps them exactly: rowcodec's own tests run on copies of
// these shapes, so a field added here of a kind the codec refuses shows
// up in this test.
func TestRowTypesRoundTrip(t *testing.T) {
	expires := int64(1_800_000_000)
	rows := []any{
		&SignatureRequest{},
		&SignatureRequest{ID: "req", Title: "NDA", ExpiresAt: &expires, Metadata: map[string]any{"k": "v"},
			Signatures: []Signature{{ID: "sig", Email: "a@example.com", Status: SigAwaiting}},
			Files:      &FileSet{ID: "sr:req", Recipe: Recipe("r"), Rare: &FileSetRare{}}},
		&SignatureRequestAccess{AccountID: "acct", RequestID: "req", RequestSeq: 9, Ordinal: 3},
		&SignURL{Token: "url"},
		&Email{ID: "mail"},
	}
	for _, row := range rows {
		c, err := rowcodec.New(reflect.TypeOf(row).Elem())
		if err != nil {
			t.Fatalf("%T: %v", row, err)
		}
		enc, err := c.Encode(nil, row)
		if err != nil {
			t.Fatalf("encode %T: %v", row, err)
		}
		got, err := c.Decode(enc)
		if err != nil || !reflect.DeepEqual(got, row) {
			t.Fatalf("%T round trip: %v\n got %#v\nwant %#v", row, err, got, row)
		}
	}
}
