package scenario

// Checking a step's answer against its expectations, and the callback
// receiver the runner serves for ${receiver.url}.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// check compares a step's answer with its expectations. Without an
// expected status, call and request steps must answer 2xx.
func (r *run) check(s *Step, res *result) ([]Mismatch, error) {
	var out []Mismatch
	e := s.Expect
	if e == nil {
		e = &Expect{}
	}
	status := json.Number(strconv.Itoa(res.Status))
	if e.Status != nil {
		want, err := Interpolate(e.Status, r.resolve)
		if err != nil {
			return nil, err
		}
		out = append(out, MatchValue("status", want, status, true)...)
	} else if res.Status/100 != 2 {
		out = append(out, Mismatch{"status", fmt.Sprintf("want a 2xx answer, got %d: %s", res.Status, excerpt(res.Raw))})
	}
	if e.Error != "" {
		got, ok := Resolve(res.Body, []Segment{{Key: "error"}, {Key: "error_name"}})
		out = append(out, MatchValue("body.error.error_name", e.Error, got, ok)...)
	}
	if e.ContentType != "" {
		mt, _, _ := mime.ParseMediaType(res.CT)
		if !strings.EqualFold(mt, e.ContentType) && !strings.EqualFold(res.CT, e.ContentType) {
			out = append(out, Mismatch{"content_type", fmt.Sprintf("want %s, got %s", e.ContentType, res.CT)})
		}
	}
	for _, k := range sortedKeys(e.Headers) {
		want, err := Interpolate(e.Headers[k], r.resolve)
		if err != nil {
			return nil, err
		}
		got, ok := res.Headers[http.CanonicalHeaderKey(k)]
		if raw, present := res.Headers[k]; present {
			got, ok = raw, true
		}
		out = append(out, MatchValue("headers."+k, want, got, ok)...)
	}
	if e.Body != nil {
		want, err := Interpolate(e.Body, r.resolve)
		if err != nil {
			return nil, err
		}
		out = append(out, MatchValue("body", want, res.Body, true)...)
	}
	var jsonDiffs []Mismatch
	if e.JSON != nil {
		jsonDiffs = Diff("body", e.JSON, res.Body)
		out = append(out, jsonDiffs...)
	}
	if e.BodySHA256 != "" {
		sum := sha256.Sum256(res.Raw)
		if got := hex.EncodeToString(sum[:]); got != e.BodySHA256 && len(jsonDiffs) == 0 {
			msg := fmt.Sprintf("want bytes with SHA-256 %s, got %s (%d bytes)", e.BodySHA256, got, len(res.Raw))
			if e.JSON != nil {
				msg += ": the same JSON, but not byte for byte (field order, spacing or number format)"
			}
			out = append(out, Mismatch{"body", msg})
		}
	}
	switch s.Action() {
	case "events":
		out = append(out, r.checkList(s.Events, res, "callbacks", "event_type", s.Events.Types)...)
	case "emails":
		out = append(out, r.checkList(s.Emails, res, "emails", "kind", s.Emails.Kinds)...)
	}
	return out, nil
}

func excerpt(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// checkList applies an events or emails check to the listed entries.
func (r *run) checkList(lc *ListCheck, res *result, key, field string, seq []string) []Mismatch {
	list, ok := Resolve(res.Body, []Segment{{Key: key}})
	entries, isList := list.([]any)
	if !ok || !isList {
		return []Mismatch{{key, "the answer has no list of " + key}}
	}
	var out []Mismatch
	interp := func(v any) any {
		x, err := Interpolate(v, r.resolve)
		if err != nil {
			out = append(out, Mismatch{key, err.Error()})
			return v
		}
		return x
	}
	if lc.Count != nil {
		out = append(out, MatchValue(key+".count", interp(lc.Count), json.Number(strconv.Itoa(len(entries))), true)...)
	}
	if seq != nil {
		var got []string
		for _, e := range entries {
			v, _ := Resolve(e, []Segment{{Key: field}})
			got = append(got, textOf(v))
		}
		if strings.Join(got, ",") != strings.Join(seq, ",") {
			out = append(out, Mismatch{key + "[*]." + field, fmt.Sprintf("want %s, got %s", Show(seq), Show(got))})
		}
	}
	if lc.Sequence != nil {
		out = append(out, MatchValue(key, interp(lc.Sequence), list, true)...)
	}
	for i, m := range lc.Contains {
		m = interp(m)
		found := false
		for _, e := range entries {
			if len(MatchValue("", m, e, true)) == 0 {
				found = true
				break
			}
		}
		if !found {
			out = append(out, Mismatch{fmt.Sprintf("%s (contains[%d])", key, i), fmt.Sprintf("no entry matches %s", Show(m))})
		}
	}
	for i, m := range lc.Absent {
		m = interp(m)
		for j, e := range entries {
			if len(MatchValue("", m, e, true)) == 0 {
				out = append(out, Mismatch{fmt.Sprintf("%s[%d] (absent[%d])", key, j, i), fmt.Sprintf("want no entry matching %s, found %s", Show(m), Show(e))})
			}
		}
	}
	return out
}

// receiver acknowledges every callback delivery, as an integrator's
// endpoint does (${receiver.url}).
type receiver struct {
	url  string
	srv  *http.Server
	ln   net.Listener
	once sync.Once
}

func startReceiver() (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	rv := &receiver{url: "http://" + ln.Addr().String() + "/callback", ln: ln}
	rv.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.Copy(io.Discard, io.LimitReader(req.Body, 8<<20))
		_, _ = io.WriteString(w, "Hello API Event Received")
	}), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = rv.srv.Serve(ln) }()
	return rv, nil
}

func (rv *receiver) Close() { rv.once.Do(func() { _ = rv.srv.Close() }) }
