package jsonenc

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// marshalString is json.Marshal's text for s.
func marshalString(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAppendStringGivesMarshalBytes: every single byte, every rune json
// escapes specially, invalid UTF-8 in every position and seeded random
// strings are written byte for byte as json.Marshal writes them (and, by
// AppendStringKeepHTML, as an Encoder without HTML escaping does).
func TestAppendStringGivesMarshalBytes(t *testing.T) {
	var cases []string
	for b := 0; b < 256; b++ {
		cases = append(cases, string([]byte{byte(b)}), "a"+string([]byte{byte(b)})+"z")
	}
	cases = append(cases, "", "plain", "Jack & Jill <jack@example.com>", "x\u2028y\u2029z", "é✓🙂",
		"\xff\xfe", "ok\xc3", "\xc3(", "\xe2\x82", "tab\there\nnew\rline\b\f\x00\x1f\x7f", `quote " back \ slash`)
	rng := rand.New(rand.NewPCG(11, 12))
	alphabet := []string{"a", "<", ">", "&", "\"", "\\", "\n", "\x01", "\x7f", "é", "\u2028", "\u2029", "\xff", "\xe2\x80", "🙂", " "}
	for range 2000 {
		var sb strings.Builder
		for range rng.IntN(12) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, sb.String())
	}
	for _, s := range cases {
		if got, want := string(AppendString(nil, s)), marshalString(t, s); got != want {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(AppendStringKeepHTML(nil, s)), encodeKeepHTML(t, s); got != want {
			t.Fatalf("AppendStringKeepHTML(%q) = %s, want %s", s, got, want)
		}
	}
}

// encodeKeepHTML is a json.Encoder's text for v with HTML escaping off.
func encodeKeepHTML(t testing.TB, v any) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// FuzzAppendString holds AppendString to json.Marshal on any input.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "<a href=\"x\">&</a>", "\u2028\xff\x00", "é🙂"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(AppendString(nil, s)), marshalString(t, s); got != want {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(AppendStringKeepHTML(nil, s)), encodeKeepHTML(t, s); got != want {
			t.Fatalf("AppendStringKeepHTML(%q) = %s, want %s", s, got, want)
		}
	})
}

// TestAppendValueGivesMarshalBytes: values of decoded JSON (with numbers
// kept as json.Number or float64), nested, and other types through the
// fallback, are written as json.Marshal writes them; maps with their keys
// sorted, more keys than the small key array holds included.
func TestAppendValueGivesMarshalBytes(t *testing.T) {
	many := map[string]any{}
	for i := range 20 {
		many[string(rune('t'-i))+"<k>"] = i
	}
	values := []any{
		nil, "s<>&", true, false, json.Number("12.50"), json.Number(""), 3.0, 1e21, 1e-7, math.Copysign(0, -1), 42, int64(-7),
		map[string]any{}, map[string]any(nil), []any{}, []any(nil), many,
		map[string]any{"z": []any{"a", json.Number("1"), nil, map[string]any{"b": false, "a": "\u2028"}}, "a": "x"},
		[]string{"a", "b"}, struct {
			A string `json:"a"`
		}{"<"},
	}
	for _, v := range values {
		got, err := AppendValue([]byte("prefix:"), v)
		if err != nil {
			t.Fatalf("AppendValue(%#v): %v", v, err)
		}
		if want := "prefix:" + marshalString(t, v); string(got) != want {
			t.Fatalf("AppendValue(%#v) = %s, want %s", v, got, want)
		}
	}
	if _, err := AppendValue(nil, json.Number("not a number")); err == nil {
		t.Fatal("an invalid json.Number encoded without error")
	}
	if _, err := AppendValue(nil, map[string]any{"a": []any{json.Number("x")}}); err == nil {
		t.Fatal("an invalid nested json.Number encoded without error")
	}
}

// TestAppendHelpers pins the small writers against json.Marshal.
func TestAppendHelpers(t *testing.T) {
	n := int64(-12)
	checks := []struct{ got, want string }{
		{string(AppendNullString(nil, "")), "null"},
		{string(AppendNullString(nil, "a&b")), marshalString(t, "a&b")},
		{string(AppendBool(nil, true)), "true"},
		{string(AppendInt(nil, -9223372036854775808)), "-9223372036854775808"},
		{string(AppendNullInt(nil, nil)), "null"},
		{string(AppendNullInt(nil, &n)), "-12"},
		{string(AppendStrings(nil, nil)), marshalString(t, []string(nil))},
		{string(AppendStrings(nil, []string{})), marshalString(t, []string{})},
		{string(AppendStrings(nil, []string{"a", "<b>"})), marshalString(t, []string{"a", "<b>"})},
	}
	for i, c := range checks {
		if c.got != c.want {
			t.Errorf("check %d: got %s, want %s", i, c.got, c.want)
		}
	}
}

// appendOnly is an Appender with a fixed answer.
type appendOnly struct{ text string }

func (a appendOnly) AppendJSON(dst []byte) ([]byte, error) { return append(dst, a.text...), nil }

// TestEncoderUsesAppender: an Appender's own bytes are the answer, and the
// encoder's other path still works after it on a reused encoder.
func TestEncoderUsesAppender(t *testing.T) {
	for round := 0; round < 3; round++ {
		e := Get()
		got, err := e.Encode(appendOnly{`{"a":1}`})
		if err != nil || string(got) != `{"a":1}` {
			t.Fatalf("appender: %q %v", got, err)
		}
		got, err = e.Encode(map[string]int{"b": 2})
		if err != nil || string(got) != `{"b":2}` {
			t.Fatalf("after an appender: %q %v", got, err)
		}
		e.Release()
	}
}

// TestAppendJoinedGivesMarshalBytes: parts are written as json.Marshal
// writes their concatenation, also when a character is split across parts
// or a part is invalid UTF-8 on its own.
func TestAppendJoinedGivesMarshalBytes(t *testing.T) {
	cases := [][]string{
		{}, {""}, {"http://127.0.0.1:8080", "/v3/signature_request/files/", "fa12"},
		{"a<", ">b&", ""}, {"\xe2\x82", "\xac"}, {"\xe2", "\x80", "\xa8"}, {"\xff", "ok"}, {"é", "\u2029"},
	}
	for _, parts := range cases {
		got := string(AppendJoined([]byte("x"), parts...))
		if want := "x" + marshalString(t, strings.Join(parts, "")); got != want {
			t.Fatalf("AppendJoined(%q) = %s, want %s", parts, got, want)
		}
	}
}
