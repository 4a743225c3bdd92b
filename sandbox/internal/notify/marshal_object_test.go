package notify

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/jsonenc"
)

// writtenView is an object view that writes itself, as a signature
// request's does: AppendJSON gives json.Marshal's bytes, and MarshalJSON
// is AppendJSON for encoding/json.
type writtenView struct {
	name string
	tags []string
	fail bool
}

func (v writtenView) AppendJSON(dst []byte) ([]byte, error) {
	if v.fail {
		return dst, errors.New("view failed")
	}
	dst = append(dst, `{"name":`...)
	dst = jsonenc.AppendString(dst, v.name)
	dst = append(dst, `,"tags":`...)
	dst = jsonenc.AppendStrings(dst, v.tags)
	return append(dst, '}'), nil
}

func (v writtenView) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil) }

// plainView is an object view encoding/json writes from its fields.
type plainView struct {
	Name string   `json:"name"`
	Tags []string `json:"tags"`
	N    float64  `json:"n"`
}

// TestMarshalObjectGivesMarshalBytes: an event's object is stored as
// json.Marshal wrote it, whether the view writes itself or not, and a
// failing view fails with json.Marshal's error.
func TestMarshalObjectGivesMarshalBytes(t *testing.T) {
	names := []string{"", "plain", "Jack & Jill <j@example.com>", "line\u2028sep\nnew", "bad\xffutf8", "é🙂", `"q\"`, "\x00\x1f"}
	var objs []any
	for i, name := range names {
		tags := names[:i]
		if i == 0 {
			tags = nil
		}
		objs = append(objs, writtenView{name: name, tags: tags}, plainView{Name: name, Tags: tags, N: float64(i) / 3},
			map[string]any{"k": name, "<": []any{name, nil, true}})
	}
	for _, obj := range objs {
		want, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		got, err := marshalObject(obj)
		if err != nil || string(got) != string(want) {
			t.Fatalf("marshalObject(%#v) = %s, %v; want %s", obj, got, err, want)
		}
	}
	for _, obj := range []any{writtenView{fail: true}, func() {}} {
		_, want := json.Marshal(obj)
		_, got := marshalObject(obj)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Fatalf("failing %T: got %v, want %v", obj, got, want)
		}
	}
}

// TestMarshalObjectKeepsItsBytes: the bytes of one event's object are
// not overwritten by the next one's (the encoder's buffer is reused).
func TestMarshalObjectKeepsItsBytes(t *testing.T) {
	first, err := marshalObject(writtenView{name: "first"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := marshalObject(writtenView{name: "second, longer than the first"}); err != nil {
		t.Fatal(err)
	}
	if string(first) != `{"name":"first","tags":null}` {
		t.Fatalf("first object became %s", first)
	}
}

// FuzzMarshalObject holds marshalObject to json.Marshal on any text.
func FuzzMarshalObject(f *testing.F) {
	for _, s := range []string{"", "<a href=\"x\">&</a>", "\u2028\xff\x00", "é🙂"} {
		f.Add(s, s+"2")
	}
	f.Fuzz(func(t *testing.T, name, tag string) {
		for _, obj := range []any{writtenView{name: name, tags: []string{tag}}, plainView{Name: name, Tags: []string{tag}}} {
			want, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := marshalObject(obj); err != nil || string(got) != string(want) {
				t.Fatalf("marshalObject(%#v) = %s, %v; want %s", obj, got, err, want)
			}
		}
	})
}
