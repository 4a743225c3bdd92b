package edge

// Request-target strictness. A path names exactly one resource: a router
// that cleaned "/v3/template/..%2F..%2Fv3%2Faccount" into another path, or
// redirected there, would let an id select a different operation. So a
// path with a dot segment or a "/" inside a segment (encoded as %2F) names
// nothing (404), and a target that is not a path at all ("*",
// "host:port", "http:opaque") is a bad request (400). Empty segments are
// the one flaw that is redirected (301) to the path without them: that
// path has the same segments in the same order, so it is the resource the
// client named (Java's legacy client asks for /bulk_send_job//{id}), and no
// object has an empty id.

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// maxEchoedTarget bounds how much of a refused target an error repeats.
const maxEchoedTarget = 200

// checkTarget refuses request targets that are not a plain path; for a
// path whose only flaw is empty segments it answers where to redirect.
func checkTarget(r *http.Request) (e *apierr.Error, redirect string) {
	u := r.URL
	if r.RequestURI == "*" || u == nil || u.Opaque != "" || !strings.HasPrefix(u.Path, "/") ||
		(u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https") {
		target := r.RequestURI
		if target == "" && u != nil {
			target = u.String()
		}
		return apierr.Badf("", "The request target %q is not a path: name a resource by its path, such as %s.", echo(target), "/v3/account"), ""
	}
	raw := u.EscapedPath()
	if plainPath(raw) {
		return nil, ""
	}
	return checkPath(raw, u.RawQuery)
}

// checkPath refuses an escaped path with a dot segment or an encoded "/"
// in a segment; for a path whose only flaw is empty segments it answers
// where to redirect (query kept).
func checkPath(raw, query string) (e *apierr.Error, redirect string) {
	segs := strings.Split(raw, "/")
	var kept []string
	for _, seg := range segs[1:] {
		if seg == "" {
			continue
		}
		dec, err := url.PathUnescape(seg)
		if err != nil {
			return notAPath(raw, "a segment is not valid percent-encoding"), ""
		}
		switch {
		case dec == "." || dec == "..":
			return notAPath(raw, fmt.Sprintf("it has the dot segment %q", seg)), ""
		case strings.Contains(dec, "/"):
			return notAPath(raw, fmt.Sprintf("the segment %q holds a \"/\"; an id never does", echo(seg))), ""
		}
		kept = append(kept, seg)
	}
	clean := "/" + strings.Join(kept, "/")
	if strings.HasSuffix(raw, "/") && clean != "/" {
		clean += "/"
	}
	if clean == raw {
		return nil, ""
	}
	if query != "" {
		clean += "?" + query
	}
	return nil, clean
}

// plainPath reports, without allocating, whether the escaped path raw is a
// rooted path that is its own clean form: no empty segment but a
// trailing one, no dot segment, no percent-encoding (which checkTarget
// decodes to look for an encoded "/"). Almost every request's path is
// plain; any other goes through the full check.
func plainPath(raw string) bool {
	rest, rooted := strings.CutPrefix(raw, "/")
	if !rooted {
		return false
	}
	for rest != "" {
		seg, after, more := strings.Cut(rest, "/")
		if seg == "" || seg == "." || seg == ".." || strings.IndexByte(seg, '%') >= 0 {
			return false
		}
		if !more {
			break
		}
		rest = after
	}
	return true
}

// notAPath is the 404 of a path that cannot name a resource.
func notAPath(raw, why string) *apierr.Error {
	return apierr.NotFoundf("Not found: %s names no resource, because %s. Paths are used as given, never cleaned or redirected.", echo(raw), why)
}

// echo shortens what an error repeats of the request.
func echo(s string) string {
	if len(s) > maxEchoedTarget {
		return s[:maxEchoedTarget] + "..."
	}
	return s
}
