package wire

import (
	"bufio"
	"bytes"
	"io"
	"mime/multipart"
	"net/textproto"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// readThroughMultipart reads raw the way every multipart body was read
// before plain forms: through mime/multipart.
func readThroughMultipart(raw []byte, boundary string, lim Limits) (*Body, error) {
	b := &Body{Tree: map[string]any{}, Files: map[string][]File{}, Form: true}
	br := bufio.NewReader(bytes.NewReader(raw))
	if _, err := br.Peek(1); err == io.EOF {
		return b, nil
	}
	if err := readMultipart(b, multipart.NewReader(br, boundary), new(scratch), lim); err != nil {
		return nil, err
	}
	return b, nil
}

// readAsPlainForm reads raw as a plain form; plain is false when it is not
// one.
func readAsPlainForm(raw []byte, boundary string, lim Limits) (b *Body, err error, plain bool) {
	form, ok := splitPlainForm(raw, boundary)
	if !ok {
		return nil, nil, false
	}
	b = &Body{Tree: map[string]any{}, Files: map[string][]File{}, Form: true}
	if err := readPlainForm(b, form, lim); err != nil {
		return nil, err, true
	}
	return b, nil, true
}

// requireSameReading fails unless a plain form reads exactly as
// mime/multipart reads it: the same tree, files (in buffers of exactly
// their size), order, or the same refusal.
func requireSameReading(t *testing.T, raw []byte, boundary string, lim Limits) (plain bool) {
	t.Helper()
	got, gotErr, plain := readAsPlainForm(raw, boundary, lim)
	if !plain {
		return false
	}
	want, wantErr := readThroughMultipart(raw, boundary, lim)
	if wantErr != nil || gotErr != nil {
		we, wok := apierr.As(wantErr)
		ge, gok := apierr.As(gotErr)
		if !wok || !gok || *we != *ge {
			t.Fatalf("boundary %q body %q:\nmultipart: %v\nplain:     %v", boundary, raw, wantErr, gotErr)
		}
		return true
	}
	if !reflect.DeepEqual(want.Tree, got.Tree) || !reflect.DeepEqual(want.Order, got.Order) || !reflect.DeepEqual(want.Files, got.Files) {
		t.Fatalf("boundary %q body %q:\nmultipart: %#v %#v %q\nplain:     %#v %#v %q", boundary, raw,
			want.Tree, want.Files, want.Order, got.Tree, got.Files, got.Order)
	}
	for _, list := range got.Files {
		for _, f := range list {
			if cap(f.Data) != len(f.Data) {
				t.Fatalf("upload %s kept in %d bytes for %d", f.Field, cap(f.Data), len(f.Data))
			}
		}
	}
	return true
}

// writtenForm is a body as Go's multipart.Writer (like the SDKs and curl)
// writes it.
func writtenForm(t testing.TB, boundary string, parts ...part) []byte {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	require.NoError(t, mw.SetBoundary(boundary))
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		cd := `form-data; name="` + p.name + `"`
		if p.filename != "" {
			cd += `; filename="` + p.filename + `"`
		}
		h.Set("Content-Disposition", cd)
		if p.contentType != "" {
			h.Set("Content-Type", p.contentType)
		}
		w, err := mw.CreatePart(h)
		require.NoError(t, err)
		_, _ = w.Write([]byte(p.data))
	}
	require.NoError(t, mw.Close())
	return buf.Bytes()
}

// plainFormSeeds are plain forms and near misses of every rule.
func plainFormSeeds(t testing.TB) (bodies [][]byte, plain []bool) {
	send := writtenForm(t, "XYZ",
		part{name: "files[0]", filename: "nda.pdf", contentType: "application/pdf", data: "%PDF-1.4\r\n--XY\r\n-XYZ--XYZ"},
		part{name: "title", data: "NDA"},
		part{name: "signers[0][email_address]", data: "jack@example.com"},
		part{name: "signers", data: `[{"name":"Jill","email_address":"jill@example.com"}]`},
		part{name: "metadata[k]", data: ""},
		part{name: "", data: "nameless"},
		part{name: "file[1]", data: "F"},
		part{name: "cc_email_addresses[]", data: "a@x.com"},
		part{name: "cc_email_addresses[]", data: "b@x.com"},
	)
	bodies, plain = append(bodies, send), append(plain, true)
	for _, edit := range []struct {
		from, to string
		plain    bool
	}{
		{"\r\n--XYZ--\r\n", "\r\n--XYZ--", true},              // no CRLF after the close
		{"\r\n--XYZ--\r\n", "\r\n--XYZ-- \r\n", false},        // LWSP after the close
		{"\r\n--XYZ--\r\n", "\r\n--XYZ--\r\nepilogue", false}, // epilogue
		{"\r\n--XYZ--\r\n", "\r\n--XYZ", false},               // no close
		{"--XYZ\r\n", "preamble\r\n--XYZ\r\n", false},         // preamble
		{"name=\"title\"", "name=title", false},               // token value
		{"name=\"title\"", "name=\"ti\\\"tle\"", false},       // escaped quote
		{"name=\"title\"", "NAME=\"title\"", false},           // upper-case parameter
		{"form-data; name=\"title\"", "Form-Data; name=\"title\"", false},
		{"form-data; name=\"title\"", "attachment; name=\"title\"", false},
		{"filename=\"nda.pdf\"", "filename=\"dir/nda.pdf\"", false}, // path
		{"filename=\"nda.pdf\"", "filename=\"C:\\nda.pdf\"", false}, // MSIE path
		{"filename=\"nda.pdf\"", "filename=\"\"", true},
		{"filename=\"nda.pdf\"", "filename*=UTF-8''nda.pdf", false},
		{"Content-Type: application/pdf", "content-type: application/pdf", true}, // names in any case
		{"Content-Type: application/pdf", "Content-Type:application/pdf", false},
		{"Content-Type: application/pdf", "Content-Type:  application/pdf", false},
		{"Content-Type: application/pdf", "Content-Type: application/pdf ", false},
		{"Content-Type: application/pdf", "Content-Type: application/pdf\r\nContent-Type: text/plain", false},
		{"Content-Type: application/pdf", "Content-Transfer-Encoding: quoted-printable", false},
		{"Content-Type: application/pdf", "Content-Type: application/\r\n pdf", false}, // continuation
		{"Content-Type: application/pdf", "X-Other: 1", false},
		{"Content-Disposition: form-data; name=\"title\"", "content-disposition: form-data; name=\"title\"", true},
		{"Content-Disposition: form-data; name=\"title\"", "Content-Diſposition: form-data; name=\"title\"", false},
		{"Content-Disposition: form-data; name=\"title\"\r\n", "", false}, // no disposition
		{"\r\n\r\nNDA", "\r\n\r\n--XYZ\r\nNDA", false},                    // data opens with the boundary
		{"\r\n\r\nNDA\r\n", "\r\n\r\nNDA\r\n--XYZ \r\n", false},           // LWSP after a boundary
		{"\r\n\r\nNDA\r\n", "\r\n\r\nNDA\n", true},                        // bare LF: data
		{"--XYZ\r\n", "--XYZ\n", false},
		{"name=\"title\"", "name=\"títle\"", false},   // non-ASCII
		{"\r\n\r\nNDA", "\r\n\r\nN\r\n--XYZa", false}, // the boundary inside data
	} {
		bodies = append(bodies, []byte(strings.Replace(string(send), edit.from, edit.to, 1)))
		plain = append(plain, edit.plain)
	}
	return bodies, plain
}

// TestPlainFormMatchesMultipart: every plain form reads exactly as
// mime/multipart reads it, and each rule of the plain shape sends a body
// that breaks it to mime/multipart.
func TestPlainFormMatchesMultipart(t *testing.T) {
	bodies, plain := plainFormSeeds(t)
	require.True(t, requireSameReading(t, bodies[0], "XYZ", DefaultLimits), "an SDK-shaped send is a plain form")
	require.True(t, requireSameReading(t, bodies[0], "XYZ", Limits{MaxParams: 3, MaxDepth: 16}))
	require.True(t, requireSameReading(t, bodies[0], "XYZ", Limits{MaxParams: 100, MaxDepth: 16, MaxKeyBytes: 10}))
	for i, raw := range bodies {
		assert.Equal(t, plain[i], requireSameReading(t, raw, "XYZ", DefaultLimits), "body %d is plain: %q", i, raw)
	}

	// The same reading through ReadBody, whichever path it takes.
	for _, raw := range bodies {
		r := multipartReq(t)
		r.Body = io.NopCloser(bytes.NewReader(raw))
		r.Header.Set("Content-Type", "multipart/form-data; boundary=XYZ")
		got, gotErr := ReadBody(r, DefaultLimits)
		want, wantErr := readThroughMultipart(raw, "XYZ", DefaultLimits)
		if wantErr != nil {
			assert.Equal(t, wantErr, gotErr)
			continue
		}
		require.NoError(t, gotErr)
		assert.Equal(t, want.Tree, got.Tree)
		assert.Equal(t, want.Files, got.Files)
		assert.Equal(t, want.Order, got.Order)
	}
}

// TestPlainFormSparesMultipart: a send as the SDKs write it is read without
// mime/multipart's readers and maps.
func TestPlainFormSparesMultipart(t *testing.T) {
	raw := writtenForm(t, "XYZ",
		part{name: "files[0]", filename: "nda.pdf", contentType: "application/pdf", data: "%PDF-1.4 one page"},
		part{name: "title", data: "NDA"},
		part{name: "test_mode", data: "1"},
		part{name: "signers[0][name]", data: "Jack"},
		part{name: "signers[0][email_address]", data: "jack@example.com"},
	)
	r := multipartReq(t)
	r.Header.Set("Content-Type", "multipart/form-data; boundary=XYZ")
	allocs := testing.AllocsPerRun(100, func() {
		r.Body = io.NopCloser(bytes.NewReader(raw))
		if _, err := ReadBody(r, DefaultLimits); err != nil {
			t.Fatal(err)
		}
	})
	// mime/multipart made it about 115.
	assert.LessOrEqual(t, allocs, 60.0)
}

// FuzzPlainFormMatchesMultipart: whatever the body, when it passes for a
// plain form it reads exactly as mime/multipart reads it.
func FuzzPlainFormMatchesMultipart(f *testing.F) {
	bodies, _ := plainFormSeeds(f)
	for _, raw := range bodies {
		f.Add("XYZ", raw)
	}
	f.Add("a", []byte("--a\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n\r\n--a--"))
	f.Add("a b", []byte("--a b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n--a b\r\n--a b--\r\n"))
	f.Fuzz(func(t *testing.T, boundary string, raw []byte) {
		if boundary == "" {
			return
		}
		requireSameReading(t, raw, boundary, fuzzLimits)
	})
}

// TestPlainFormValuesShareOneBacking: the strings of a plain form are the
// bytes the body gave, copied out of the body (so they outlive the scratch
// it was read into), and all but JSON text share one backing.
func TestPlainFormValuesShareOneBacking(t *testing.T) {
	raw := writtenForm(t, "XYZ",
		part{name: "files[0]", filename: "nda.pdf", contentType: "application/pdf", data: "%PDF-1.4 one page"},
		part{name: "title", data: "NDA"},
		part{name: "test_mode", data: "1"},
		part{name: "signers[0][name]", data: "Jack"},
		part{name: "signers[0][email_address]", data: "jack@example.com"},
		part{name: "metadata[empty]", data: ""},
		part{name: "file[1]", data: "F"},
		part{name: "field_options", data: ` {"date_format":"MM / DD / YYYY"}`},
		part{name: "cc_email_addresses[]", data: "b@x.com"},
	)
	got, err, plain := readAsPlainForm(raw, "XYZ", DefaultLimits)
	require.True(t, plain)
	require.NoError(t, err)
	want, err := readThroughMultipart(raw, "XYZ", DefaultLimits)
	require.NoError(t, err)
	// The body's bytes are the scratch's: written over by the next body.
	for i := range raw {
		raw[i] = 'x'
	}
	assert.Equal(t, want.Tree, got.Tree)
	assert.Equal(t, want.Files, got.Files)
	assert.Equal(t, want.Order, got.Order)

	// In body order: a file's name and type and every value but JSON text
	// one after the other in one backing; the names in another.
	file, other := got.Files["files"][0], got.Files["files"][1]
	signer := got.Tree["signers"].([]any)[0].(map[string]any)
	kept := []string{file.Name, file.ContentType, got.Tree["title"].(string), got.Tree["test_mode"].(string),
		signer["name"].(string), signer["email_address"].(string), got.Tree["cc_email_addresses"].([]any)[0].(string)}
	require.Equal(t, []string{"nda.pdf", "application/pdf", "NDA", "1", "Jack", "jack@example.com", "b@x.com"}, kept)
	names := append([]string{file.Field}, got.Order[:5]...)
	names = append(names, other.Field)
	names = append(names, got.Order[5:]...)
	require.Equal(t, []string{"files[0]", "title", "test_mode", "signers[0][name]", "signers[0][email_address]",
		"metadata[empty]", "file[1]", "field_options", "cc_email_addresses[]"}, names)
	keptStart, keptEnd := requireOneBacking(t, kept)
	namesStart, namesEnd := requireOneBacking(t, names)
	assert.True(t, keptEnd <= namesStart || namesEnd <= keptStart, "names and kept strings in two backings")
	json := uintptr(unsafe.Pointer(unsafe.StringData(got.Tree["field_options"].(string))))
	for _, r := range [][2]uintptr{{keptStart, keptEnd}, {namesStart, namesEnd}} {
		assert.False(t, json >= r[0] && json < r[1], "JSON text keeps a string of its own")
	}
}

// requireOneBacking checks that strs lie one after the other in memory,
// and answers where they start and end.
func requireOneBacking(t *testing.T, strs []string) (start, end uintptr) {
	t.Helper()
	start = uintptr(unsafe.Pointer(unsafe.StringData(strs[0])))
	end = start
	for _, v := range strs {
		require.Equal(t, end, uintptr(unsafe.Pointer(unsafe.StringData(v))), "%q follows the strings before it in one backing", v)
		end += uintptr(len(v))
	}
	return start, end
}
