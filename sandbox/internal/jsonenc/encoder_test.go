package jsonenc

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestResponseEncoderGivesMarshalBytes: answers are byte for byte what
// json.Marshal gives (HTML characters escaped, U+2028, invalid UTF-8, no
// trailing newline), also after a large answer and with a reused encoder.
func TestResponseEncoderGivesMarshalBytes(t *testing.T) {
	values := []any{
		map[string]any{"a": "<b>&amp;</b>", "z": []int{1, 2}, "line": "x\u2028y\n", "bad": "\xff"},
		struct {
			Name  string  `json:"name"`
			Empty *string `json:"empty"`
			N     float64 `json:"n,omitempty"`
		}{Name: "Jack & Jill"},
		strings.Repeat("large <answer> ", MaxPooled/8),
		[]any{},
		nil,
		"tail\n",
	}
	for round := 0; round < 3; round++ {
		for _, v := range values {
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			e := Get()
			got, err := e.Encode(v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Fatalf("encode %T:\n got %q\nwant %q", v, got, want)
			}
			e.Release()
		}
	}
	e := Get()
	defer e.Release()
	if _, err := e.Encode(math.NaN()); err == nil {
		t.Fatal("NaN encoded without error")
	}
	if got, _ := e.Encode("after an error"); string(got) != `"after an error"` {
		t.Fatalf("after an error: %q", got)
	}
}
