package wire

import (
	"mime"
	"testing"
)

// FuzzContentType: parseContentType answers what mime.ParseMediaType
// answers, shortcut or not.
func FuzzContentType(f *testing.F) {
	for _, ct := range []string{"application/json", "Application/JSON", "application/json; charset=utf-8",
		"multipart/form-data; boundary=XYZ", "multipart/form-data; boundary=--------------------------123456789012345678901234",
		"multipart/form-data; boundary=\"a b\"", "multipart/form-data; boundary=", "multipart/form-data; boundary=a;b",
		"multipart/form-data; boundary=a/b", "multipart/form-data;boundary=x", "multipart/form-data; boundary=x; charset=y",
		"Multipart/Form-Data; boundary=x", "multipart/form-data; BOUNDARY=x", "multipart/form-data", "", "text/plain", ";;"} {
		f.Add(ct)
	}
	f.Fuzz(func(t *testing.T, ct string) {
		mediaType, boundary, err := parseContentType(ct)
		wantType, params, wantErr := mime.ParseMediaType(ct)
		if mediaType != wantType || boundary != params["boundary"] || (err == nil) != (wantErr == nil) ||
			(err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("%q: got %q %q %v, mime.ParseMediaType %q %q %v", ct, mediaType, boundary, err, wantType, params["boundary"], wantErr)
		}
	})
}
