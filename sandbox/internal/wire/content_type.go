package wire

import "mime"

// multipartPrefix is how the SDKs, curl and Go's writer start a multipart
// Content-Type; the boundary follows.
const multipartPrefix = "multipart/form-data; boundary="

// parseContentType answers what mime.ParseMediaType makes of a
// Content-Type (its media type and boundary parameter) without the map and
// lower-cased copies it allocates, for the two values almost every request
// sends: "application/json", and "multipart/form-data; boundary=" followed
// by a boundary of letters, digits, '-', '_' and '.'. Any other value goes
// through mime.ParseMediaType (FuzzContentType holds the two to the same
// answers).
func parseContentType(ct string) (mediaType, boundary string, err error) {
	if ct == "application/json" {
		return ct, "", nil
	}
	if len(ct) > len(multipartPrefix) && ct[:len(multipartPrefix)] == multipartPrefix && plainBoundary(ct[len(multipartPrefix):]) {
		return ct[:len("multipart/form-data")], ct[len(multipartPrefix):], nil
	}
	mediaType, params, err := mime.ParseMediaType(ct)
	return mediaType, params["boundary"], err
}

// plainBoundary reports whether b is made only of characters that are a
// MIME token as they stand.
func plainBoundary(b string) bool {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
