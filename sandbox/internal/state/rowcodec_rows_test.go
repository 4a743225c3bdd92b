package state

import (
	"reflect"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/rowcodec"
)

// TestRowTypesRoundTrip checks that the codec compiles for the rows kept
// frozen and keeps them exactly: rowcodec's own tests run on copies of
// these shapes, so a field added here of a kind the codec refuses shows
// up in this test.
func TestRowTypesRoundTrip(t *testing.T) {
	expires := int64(1_800_000_000)
	rows := []any{
		&model.SignatureRequest{},
		&model.SignatureRequest{ID: "req", Title: "NDA", ExpiresAt: &expires, Metadata: map[string]any{"k": "v"},
			Signatures: []model.Signature{{ID: "sig", Email: "a@example.com", Status: model.SigAwaiting}},
			Files:      &model.FileSet{ID: "sr:req", Recipe: model.Recipe("r"), Rare: &model.FileSetRare{}}},
		&model.SignatureRequestAccess{AccountID: "acct", RequestID: "req", RequestSeq: 9, Ordinal: 3},
		&model.SignURL{Token: "url"},
		&model.Email{ID: "mail"},
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
