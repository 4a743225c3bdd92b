package events

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// The structs below are how a payload was built before it was written
// directly (appendPayload): a json.Encoder's bytes for them, HTML escaping
// off, are the reference the writer must give, byte for byte.

type refWireMetadata struct {
	RelatedSignatureID   *string `json:"related_signature_id"`
	ReportedForAccountID *string `json:"reported_for_account_id"`
	ReportedForAppID     *string `json:"reported_for_app_id"`
	EventMessage         *string `json:"event_message,omitempty"`
}

type refWireEvent struct {
	EventTime     string          `json:"event_time"`
	EventType     string          `json:"event_type"`
	EventHash     string          `json:"event_hash"`
	EventMetadata refWireMetadata `json:"event_metadata"`
}

type refWirePayload struct {
	Event            refWireEvent    `json:"event"`
	Account          json.RawMessage `json:"account,omitempty"`
	SignatureRequest json.RawMessage `json:"signature_request,omitempty"`
	Template         json.RawMessage `json:"template,omitempty"`
}

func refNullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// refBuild is the former Build.
func refBuild(ev Event, objectType string, object json.RawMessage) ([]byte, error) {
	p := refWirePayload{Event: refWireEvent{
		EventTime: ev.TimeString(), EventType: ev.Type, EventHash: ev.Hash,
		EventMetadata: refWireMetadata{
			RelatedSignatureID:   refNullable(ev.Metadata.RelatedSignatureID),
			ReportedForAccountID: refNullable(ev.Metadata.ReportedForAccountID),
			ReportedForAppID:     refNullable(ev.Metadata.ReportedForAppID),
			EventMessage:         refNullable(ev.Metadata.EventMessage),
		},
	}}
	if objectType != "" && len(object) == 0 {
		return nil, errRef("events: " + ev.Type + " event without its " + objectType)
	}
	switch objectType {
	case "":
	case ObjectAccount:
		p.Account = object
	case ObjectSignatureRequest:
		p.SignatureRequest = object
	case ObjectTemplate:
		p.Template = object
	default:
		return nil, errRef(`events: unknown object type "` + objectType + `"`)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

type errRef string

func (e errRef) Error() string { return string(e) }

// payloadTexts are event fields and object strings that encoding/json
// escapes in every way it can: HTML characters (kept, escaping is off),
// line separators, control characters, quotes, invalid UTF-8.
var payloadTexts = []string{"", "plain", "Jack & Jill <j@example.com>", "line\u2028sep\u2029\nnew", "bad\xffutf8\xe2\x82",
	"é🙂", `"quoted\"`, "\x00\x1f\x7f\b\f\t\r", "signature_request_sent", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}

// payloadObjects are objects as events carry them: json.Marshal's bytes
// of maps and lists with those strings (so <, > and & come escaped), and
// for Build hand-written ones with spaces, raw HTML characters and an
// invalid one.
func payloadObjects(rng *rand.Rand, n int) (marshaled, written [][]byte) {
	for range n {
		obj := map[string]any{"signature_request_id": payloadTexts[rng.IntN(len(payloadTexts))]}
		for range rng.IntN(5) {
			obj[payloadTexts[rng.IntN(len(payloadTexts))]] = []any{payloadTexts[rng.IntN(len(payloadTexts))], 1.5, nil, true,
				map[string]any{"k": payloadTexts[rng.IntN(len(payloadTexts))]}}
		}
		b, err := json.Marshal(obj)
		if err != nil {
			panic(err)
		}
		marshaled = append(marshaled, b)
	}
	written = [][]byte{[]byte(`{ "a" : [ 1 , 2 ] ,` + "\n\t" + `"b":"<&>" }`), []byte(`{"u":"\u003c\u2028"}`), []byte(`[]`), []byte(`"s"`),
		[]byte(`{"a":`), []byte(`{"a":1}x`), []byte(` null `)}
	return marshaled, written
}

// TestPayloadWriterGivesReferenceBytes: Build, and AppendPayload for
// objects as json.Marshal writes them, give the former encoder's bytes
// for events with every field empty, set or full of escapes, each object
// type and none, and fail where it failed.
func TestPayloadWriterGivesReferenceBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	marshaled, written := payloadObjects(rng, 300)
	types := []string{"", ObjectAccount, ObjectSignatureRequest, ObjectTemplate, "fax"}
	text := func() string { return payloadTexts[rng.IntN(len(payloadTexts))] }
	for i, obj := range append(append(marshaled, written...), nil, []byte{}) {
		ev := Event{Time: rng.Int64N(4_000_000_000) - 1, Type: text(), Hash: text(),
			Metadata: Metadata{RelatedSignatureID: text(), ReportedForAccountID: text(), ReportedForAppID: text(), EventMessage: text()}}
		for _, typ := range types {
			want, wantErr := refBuild(ev, typ, obj)
			got, err := Build(ev, typ, obj)
			if (err == nil) != (wantErr == nil) || string(got) != string(want) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("Build(%+v, %q, %s):\n got %s (%v)\nwant %s (%v)", ev, typ, obj, got, err, want, wantErr)
			}
			if i >= len(marshaled) {
				continue
			}
			appended, err := AppendPayload([]byte("held"), ev, typ, obj)
			if (err == nil) != (wantErr == nil) || string(appended) != "held"+string(want) {
				t.Fatalf("AppendPayload(%+v, %q, %s):\n got %s (%v)\nwant held%s (%v)", ev, typ, obj, appended, err, want, wantErr)
			}
		}
	}
}

// FuzzPayloadWriter holds Build and AppendPayload to the former encoder
// on any event fields and object text.
func FuzzPayloadWriter(f *testing.F) {
	f.Add(int64(1348177752), "signature_request_sent", "h", "sig", "acct", "", "", uint8(2), `{"a":"<b>"}`)
	f.Add(int64(-1), "x\u2028", "\xff", "", "", "app", "m&m", uint8(0), ``)
	f.Fuzz(func(t *testing.T, at int64, typ, hash, sig, acct, app, msg string, kind uint8, object string) {
		types := []string{"", ObjectAccount, ObjectSignatureRequest, ObjectTemplate, "fax"}
		ev := Event{Time: at, Type: typ, Hash: hash, Metadata: Metadata{RelatedSignatureID: sig, ReportedForAccountID: acct, ReportedForAppID: app, EventMessage: msg}}
		objectType := types[int(kind)%len(types)]
		want, wantErr := refBuild(ev, objectType, json.RawMessage(object))
		got, err := Build(ev, objectType, json.RawMessage(object))
		if (err == nil) != (wantErr == nil) || string(got) != string(want) || (err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("Build:\n got %s (%v)\nwant %s (%v)", got, err, want, wantErr)
		}
		// AppendPayload takes objects as json.Marshal writes them.
		marshaled, err := json.Marshal(map[string]string{"v": object})
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr = refBuild(ev, objectType, marshaled)
		got, err = AppendPayload(nil, ev, objectType, marshaled)
		if (err == nil) != (wantErr == nil) || string(got) != string(want) {
			t.Fatalf("AppendPayload:\n got %s (%v)\nwant %s (%v)", got, err, want, wantErr)
		}
	})
}

// BenchmarkPayload times one callback payload of a signature request
// event (an object of about 1.5 KB): the former encoder, Build (which
// compacts the object) and AppendPayload into a reused buffer, as
// queueDeliveries writes it.
func BenchmarkPayload(b *testing.B) {
	marshaled, _ := payloadObjects(rand.New(rand.NewPCG(1, 2)), 1)
	object := append(marshaled[0][:len(marshaled[0])-1:len(marshaled[0])-1], `,"title":"`...)
	object = append(append(object, bytes.Repeat([]byte("x"), 1400)...), `"}`...)
	ev := Event{Time: 1700000000, Type: "signature_request_sent", Hash: string(bytes.Repeat([]byte("f"), 64)),
		Metadata: Metadata{ReportedForAccountID: "0123456789abcdef0123456789abcdef01234567"}}
	b.Run("former", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := refBuild(ev, ObjectSignatureRequest, object); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Build(ev, ObjectSignatureRequest, object); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			var err error
			if buf, err = AppendPayload(buf[:0], ev, ObjectSignatureRequest, object); err != nil {
				b.Fatal(err)
			}
		}
	})
}
