package callbacks

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// storedJSONSamples are stored values with everything json.Marshal
// rewrites: whitespace between tokens, HTML characters, the line and
// paragraph separators, escapes that end near a quote.
var storedJSONSamples = []string{
	`{}`, `[]`, `null`, `"x"`, `12.50`, `true`,
	"{\"a\": 1,\n  \"b\" :[ 1 , 2 ]\t,\r\n\"c\":{ } }\n",
	`{"title":"<b>Tom & Jerry</b>","msg":"a\"b\\","x":"\\"}`,
	"{\"sep\":\"line\u2028para\u2029end\",\"e\":\"\u00e9\u20ac\"}",
	`{"esc":"\u003c\"\\\/\b\f\n\r\t","k":[{"a":" spaced  out "}]}`,
	"[ \"<\" , \">\" , \"&\" ]",
}

// TestAppendStoredJSONMatchesMarshal: the fast copy writes what
// json.Marshal writes for a json.RawMessage holding the same value.
func TestAppendStoredJSONMatchesMarshal(t *testing.T) {
	for _, s := range storedJSONSamples {
		want, err := json.Marshal(json.RawMessage(s))
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if got := appendStoredJSON([]byte("prefix"), []byte(s)); !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Errorf("%q:\n got %s\nwant %s", s, got[len("prefix"):], want)
		}
	}
	if got := appendStoredJSON(nil, nil); string(got) != "null" {
		t.Errorf("empty value: %s, want null", got)
	}
}

// FuzzAppendStoredJSON holds the same for any valid JSON.
func FuzzAppendStoredJSON(f *testing.F) {
	for _, s := range storedJSONSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			t.Skip()
		}
		want, err := json.Marshal(json.RawMessage(b))
		if err != nil {
			t.Fatal(err)
		}
		if got := appendStoredJSON(nil, b); !bytes.Equal(got, want) {
			t.Fatalf("%q:\n got %s\nwant %s", b, got, want)
		}
	})
}

// TestCallbackEntryAppendJSONMatchesMarshal: an entry written by hand is
// byte for byte the entry json.Marshal writes, with and without the
// optional fields, deliveries and attempts.
func TestCallbackEntryAppendJSONMatchesMarshal(t *testing.T) {
	full := callbackEntry{ID: "e1", EventType: "signature_request_sent", EventTime: 1700000000,
		ObjectType: "signature_request", ObjectID: "sr<1>", AccountIDs: []string{"a1", "a2"}, ClientID: "c&1",
		RelatedSignatureID: "s1", EventMessage: "msg \u2028 <x>", Object: json.RawMessage(storedJSONSamples[7]),
		State: "pending", Deliveries: []deliveryView{
			{deliveryHead: deliveryHead{ID: "d1", Kind: "account", AccountID: "a1", URL: "https://h/cb?a=1&b=<2>", State: "pending",
				EventHash: "h", NextAttemptAt: 1700000010, Round: 1, Attempts: []model.DeliveryAttempt{
					{At: 1, Round: 0, Status: 500, Body: "<html>", Error: "wrong answer", DurationMS: 3},
					{At: 2, Round: 1, Delivered: true}}}, Payload: json.RawMessage(storedJSONSamples[6])},
			{deliveryHead: deliveryHead{ID: "d2", Kind: "app", ClientID: "c1", URL: "u", State: "delivered", EventHash: "h2", Waiting: true,
				Attempts: []model.DeliveryAttempt{}}, Payload: json.RawMessage(storedJSONSamples[8] + "\n")},
		}}
	bare := callbackEntry{ID: "e2", EventType: "callback_test", EventTime: 5, State: "none", Deliveries: []deliveryView{}}
	for _, e := range []callbackEntry{full, bare} {
		want, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		w := newJSONWriter(0)
		if err := e.writeJSON(w); err != nil {
			t.Fatal(err)
		}
		if got := w.out; !bytes.Equal(got, want) {
			t.Errorf("entry %s:\n got %s\nwant %s", e.ID, got, want)
		}
	}
}
