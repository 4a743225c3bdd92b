package scenario

// How the runner turns a step into an HTTP call (paths from the route
// table, query, JSON or multipart bodies, credentials) and sends it.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// exchange is one HTTP call a step makes.
type exchange struct {
	method, path string
	query        url.Values
	body         any
	form         bool
	files        []StepFile
	auth         string
	noAuth       bool
	// list names the array of a paged log answer (callbacks, emails): the
	// step reads every page of it, so that its expectations see the whole log.
	list string
}

// build turns a step into the HTTP call it makes.
func (r *run) build(s *Step) (*exchange, string, error) {
	str := func(v string) (string, error) { return InterpolateString(v, r.resolve) }
	val := func(v any) (any, error) { return Interpolate(v, r.resolve) }
	ex := &exchange{}
	switch s.Action() {
	case "call":
		op, ok := r.Voc.Op(s.Call)
		if !ok {
			return nil, s.Call, fmt.Errorf("unknown operation %s", s.Call)
		}
		p, q, _ := strings.Cut(op.Path, "?")
		for _, name := range PathParams(p) {
			v, err := val(s.Params[name])
			if err != nil {
				return nil, s.Call, err
			}
			p = strings.Replace(p, "{"+name+"}", url.PathEscape(textOf(v)), 1)
		}
		ex.method, ex.path = op.Method, "/v3"+p
		if q != "" {
			ex.query = url.Values{q: {""}}
		}
	case "request":
		m, p, _ := SplitRequest(s.Request)
		p, err := str(p)
		if err != nil {
			return nil, s.Request, err
		}
		ex.method, ex.path = m, p
	case "advance":
		body := map[string]any{}
		switch a := s.Advance.(type) {
		case string:
			t, err := str(a)
			if err != nil {
				return nil, "advance", err
			}
			d, err := ParseDuration(t)
			if err != nil {
				return nil, "advance " + t, err
			}
			body["seconds"] = d.Seconds()
		case map[string]any:
			to, err := val(a["to"])
			if err != nil {
				return nil, "advance", err
			}
			body["to"] = textOf(to)
		}
		ex.method, ex.path, ex.body = http.MethodPost, "/_sandbox/clock/advance", body
		return r.finish(s, ex, "advance "+describeAdvance(body))
	case "view", "sign", "decline", "reassign", "bounce":
		raw := map[string]any{"view": s.View, "sign": s.Sign, "decline": s.Decline, "reassign": s.Reassign, "bounce": s.Bounce}[s.Action()]
		v, err := val(raw)
		if err != nil {
			return nil, s.Action(), err
		}
		body := map[string]any{}
		id := ""
		switch t := v.(type) {
		case map[string]any:
			id = textOf(t["signature_id"])
			for k, x := range t {
				if k != "signature_id" {
					body[k] = x
				}
			}
		default:
			id = textOf(t)
		}
		if id == "" {
			return nil, s.Action(), fmt.Errorf("%s: empty signature id", s.Action())
		}
		ex.method, ex.path, ex.body = http.MethodPost, "/_sandbox/signatures/"+url.PathEscape(id)+"/"+s.Action(), body
		return r.finish(s, ex, s.Action()+" "+id)
	case "wait_callbacks":
		ex.method, ex.path, ex.body = http.MethodPost, "/_sandbox/callbacks/wait", map[string]any{}
		return r.finish(s, ex, "wait for callbacks")
	case "events", "emails":
		lc := s.Events
		ex.path = "/_sandbox/callbacks"
		if s.Action() == "emails" {
			lc, ex.path = s.Emails, "/_sandbox/emails"
		}
		ex.method, ex.list = http.MethodGet, "callbacks"
		if s.Action() == "emails" {
			ex.list = "emails"
		}
		f, err := val(lc.Filter)
		if err != nil {
			return nil, s.Action(), err
		}
		ex.query = toValues(f)
		return r.finish(s, ex, s.Action()+describeQuery(ex.query))
	default:
		return nil, "?", fmt.Errorf("the step has no action")
	}
	q, err := val(s.Query)
	if err != nil {
		return nil, ex.method + " " + ex.path, err
	}
	for k, vs := range toValues(q) {
		if ex.query == nil {
			ex.query = url.Values{}
		}
		ex.query[k] = append(ex.query[k], vs...)
	}
	if ex.body, err = val(s.Body); err != nil {
		return nil, ex.method + " " + ex.path, err
	}
	ex.form = s.Form
	for _, f := range s.Files {
		name, err := str(f.Name)
		if err != nil {
			return nil, ex.method + " " + ex.path, err
		}
		f.Name = name
		ex.files = append(ex.files, f)
	}
	return r.finish(s, ex, ex.method+" "+ex.path+describeQuery(ex.query))
}

// finish sets the credentials of a step.
func (r *run) finish(s *Step, ex *exchange, label string) (*exchange, string, error) {
	switch {
	case (s.Auth != "" && s.Auth != "none" || s.Key != "") && r.foreign:
		ex.auth = basic(r.key)
	case s.Auth != "":
		a, err := InterpolateString(s.Auth, r.resolve)
		if err != nil {
			return nil, label, err
		}
		if a == "none" {
			ex.noAuth = true
		} else {
			ex.auth = a
		}
	case s.Key != "":
		k, err := InterpolateString(s.Key, r.resolve)
		if err != nil {
			return nil, label, err
		}
		ex.auth = basic(k)
	case s.As != "":
		as, err := InterpolateString(s.As, r.resolve)
		if err != nil {
			return nil, label, err
		}
		if as == "none" {
			ex.noAuth = true
			break
		}
		a, ok := r.accounts[strings.ToLower(as)].(map[string]any)
		if !ok {
			return nil, label, fmt.Errorf("as: no account %s in this world", as)
		}
		k, _ := a["api_key"].(string)
		if k == "" {
			return nil, label, fmt.Errorf("as: account %s has no API key", as)
		}
		ex.auth = basic(k)
		label += " as " + as
	default:
		ex.auth = basic(r.key)
	}
	return ex, label, nil
}

// advanceDirectly runs an advance step through Runner.Advance.
func (r *run) advanceDirectly(s *Step) (string, error) {
	switch a := s.Advance.(type) {
	case string:
		t, err := InterpolateString(a, r.resolve)
		if err != nil {
			return "advance", err
		}
		d, err := ParseDuration(t)
		if err != nil {
			return "advance " + t, err
		}
		return "advance " + d.String(), r.Advance(time.Time{}, d)
	case map[string]any:
		v, err := Interpolate(a["to"], r.resolve)
		if err != nil {
			return "advance", err
		}
		label := "advance to " + textOf(v)
		to, err := ParseInstant(textOf(v))
		if err != nil {
			return label, err
		}
		return label, r.Advance(to, 0)
	}
	return "advance", fmt.Errorf("advance is a duration or {to: instant}")
}

// ParseInstant reads an instant as RFC 3339 (with any fraction of a
// second) or Unix seconds.
func ParseInstant(v string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UTC(), nil
	}
	secs, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is neither an RFC 3339 instant nor Unix seconds", v)
	}
	return time.Unix(secs, 0).UTC(), nil
}

func describeAdvance(body map[string]any) string {
	if to, ok := body["to"]; ok {
		return "to " + textOf(to)
	}
	if s, ok := body["seconds"].(float64); ok {
		return time.Duration(s * float64(time.Second)).String()
	}
	return ""
}

func describeQuery(q url.Values) string {
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// toValues writes a query map as URL values (lists repeat the key).
func toValues(v any) url.Values {
	m, _ := v.(map[string]any)
	if len(m) == 0 {
		return nil
	}
	out := url.Values{}
	for _, k := range sortedKeys(m) {
		switch t := m[k].(type) {
		case []any:
			for _, x := range t {
				out.Add(k, textOf(x))
			}
		default:
			out.Set(k, textOf(t))
		}
	}
	return out
}

// do sends one exchange.
func (r *run) do(ex *exchange) (*result, error) {
	u := r.Base + ex.path
	if len(ex.query) > 0 {
		sep := "?"
		if strings.Contains(ex.path, "?") {
			sep = "&"
		}
		u += sep + encodeQuery(ex.query)
	}
	var rd io.Reader
	ct := ""
	switch {
	case ex.form || len(ex.files) > 0:
		b, c, err := multipartBody(ex.body, ex.files)
		if err != nil {
			return nil, err
		}
		rd, ct = bytes.NewReader(b), c
	case ex.body != nil:
		b, err := json.Marshal(ex.body)
		if err != nil {
			return nil, err
		}
		rd, ct = bytes.NewReader(b), "application/json"
	}
	req, err := http.NewRequestWithContext(r.ctx, ex.method, u, rd)
	if err != nil {
		return nil, err
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if r.host != "" {
		req.Host = r.host
	}
	if !ex.noAuth && ex.auth != "" {
		req.Header.Set("Authorization", ex.auth)
	}
	resp, err := r.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if r.creds != nil {
		// Compared as recorded: with the world's credentials written as
		// their placeholders.
		raw = []byte(r.creds.Redact(string(raw)))
	}
	res := &result{Status: resp.StatusCode, Raw: raw, Headers: map[string]any{}, CT: resp.Header.Get("Content-Type")}
	for k, vs := range resp.Header {
		res.Headers[k] = vs[0]
	}
	res.Body = string(raw)
	if mt, _, _ := mime.ParseMediaType(res.CT); mt == "application/json" && len(bytes.TrimSpace(raw)) > 0 {
		if v, err := DecodeJSON(raw); err == nil {
			res.Body = v
		}
	}
	return res, nil
}

// encodeQuery keeps a valueless key (the ?refresh marker) without "=".
func encodeQuery(q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		for _, v := range q[k] {
			if v == "" && len(q[k]) == 1 {
				parts = append(parts, url.QueryEscape(k))
				continue
			}
			parts = append(parts, url.QueryEscape(k)+"="+url.QueryEscape(v))
		}
	}
	return strings.Join(parts, "&")
}

// DecodeJSON decodes a JSON document with exact numbers.
func DecodeJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

// multipartBody writes a body as the official SDKs do: scalars as text,
// objects and lists as JSON text, files as file parts.
func multipartBody(body any, files []StepFile) ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.SetBoundary("signsandbox-scenario-boundary"); err != nil {
		return nil, "", err
	}
	m, _ := body.(map[string]any)
	for _, k := range sortedKeys(m) {
		if err := w.WriteField(k, textOf(m[k])); err != nil {
			return nil, "", err
		}
	}
	for i, f := range files {
		field := f.Field
		if field == "" {
			field = fmt.Sprintf("files[%d]", i)
		}
		data := []byte(f.Text)
		if f.Base64 != "" {
			b, err := base64.StdEncoding.DecodeString(f.Base64)
			if err != nil {
				return nil, "", fmt.Errorf("files[%d]: base64: %v", i, err)
			}
			data = b
		}
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h := make(map[string][]string)
		h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name="%s"; filename="%s"`, escapeQuotes(field), escapeQuotes(f.Name))}
		h["Content-Type"] = []string{ct}
		part, err := w.CreatePart(h)
		if err != nil {
			return nil, "", err
		}
		if _, err := part.Write(data); err != nil {
			return nil, "", err
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

func escapeQuotes(s string) string { return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) }
