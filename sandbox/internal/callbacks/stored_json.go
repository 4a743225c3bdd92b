package callbacks

// storedJSONStop marks the bytes appendStoredJSON must look at: string
// delimiters and escapes, whitespace, and what json.Marshal escapes.
var storedJSONStop = func() (t [256]bool) {
	for _, c := range []byte("\"\\ \t\n\r<>&\xe2") {
		t[c] = true
	}
	return t
}()

// appendStoredJSON appends src, a JSON value stored by the sandbox, as
// encoding/json's Marshal would write it inside an answer: whitespace
// outside strings dropped and <, >, &, U+2028 and U+2029 escaped. Marshal
// gets there by running its full validating scanner over every stored
// object and payload on every page of the log (a quarter of the CPU of a
// mixed load); this single pass gives the same bytes for valid JSON, which
// every stored value is: the sandbox wrote it, or a state import decoded and
// checked it (model.Delivery's import check). An empty value is null.
func appendStoredJSON(dst, src []byte) []byte {
	if len(src) == 0 {
		return append(dst, "null"...)
	}
	const hex = "0123456789abcdef"
	start, inString := 0, false
	for i := 0; i < len(src); i++ {
		for i < len(src) && !storedJSONStop[src[i]] {
			i++
		}
		if i == len(src) {
			break
		}
		switch c := src[i]; {
		case c == '"':
			inString = !inString
		case c == '\\':
			i++ // the escaped byte cannot end the string
		case c == '<' || c == '>' || c == '&':
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			start = i + 1
		case c == 0xE2:
			if i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8 {
				dst = append(dst, src[start:i]...)
				dst = append(dst, '\\', 'u', '2', '0', '2', hex[src[i+2]&0xF])
				i += 2
				start = i + 1
			}
		case !inString: // whitespace between tokens
			dst = append(dst, src[start:i]...)
			start = i + 1
		}
	}
	return append(dst, src[start:]...)
}
