package edge

import "strings"

// Paths in logs. The pages behind the URLs the sandbox hands out carry
// their credentials in the path (/_sandbox/w/<world>/sign/<token>: whoever
// has the URL may sign), and a query string may carry others (an OAuth
// code, a state). A log line must not hold them, so the server's access
// log shows LogPath instead of the request's path.

// Redacted stands for a path segment a log does not show.
const Redacted = "REDACTED"

// maxLogPath bounds the path a log line shows; a longer one is cut.
const maxLogPath = 1024

// pageTokens says, for each kind of page under /_sandbox/w/<world>/<kind>/,
// at which segment after the world its token sits (editor pages are
// /editor/template/<token>). Pages of a kind not listed show nothing
// after their kind, so that a new page is redacted until it is listed;
// kinds listed with -1 carry no credential (a signature request's or a
// report's id).
var pageTokens = map[string]int{
	"sign":         2,
	"claim":        2,
	"files":        2,
	"team_invites": 2,
	"editor":       3,
	"requests":     -1,
	"reports":      -1,
}

// LogPath is a request's path as a log may show it: the token of a page
// replaced by Redacted, and the query string's parameters by name only
// (without their values). Paths without either are answered as they are,
// at no cost.
func LogPath(path, rawQuery string) string {
	if strings.HasPrefix(path, pagePrefix) {
		path = redactPage(path)
	}
	if rawQuery != "" {
		path += "?" + queryNames(rawQuery)
	}
	if len(path) > maxLogPath {
		path = path[:maxLogPath] + "...(cut)"
	}
	return path
}

// redactPage redacts the token of a page path.
func redactPage(path string) string {
	segs := strings.Split(path[len(pagePrefix):], "/")
	if len(segs) < 3 {
		return path
	}
	at, known := pageTokens[segs[1]]
	switch {
	case !known:
		segs = append(segs[:2], Redacted)
	case at > 0 && at < len(segs):
		segs[at] = Redacted
	}
	return pagePrefix + strings.Join(segs, "/")
}

// queryNames lists the names of a query's parameters, in order, joined by
// "&", without their values.
func queryNames(raw string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(raw, "&") {
		name, _, _ := strings.Cut(part, "=")
		if name == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(name)
		if b.Len() > maxLogPath {
			break
		}
	}
	return b.String()
}
