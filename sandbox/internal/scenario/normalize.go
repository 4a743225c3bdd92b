package scenario

// Values read from YAML in the shapes of JSON decoded with UseNumber, and
// the durations scenario files write.

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
)

// normalizeDocument gives every free-form value (bodies, matchers) the
// shapes a JSON decoder with UseNumber gives: map[string]any, []any,
// string, bool, nil and json.Number.
func normalizeDocument(d *Document) {
	d.Config = normMap(d.Config)
	if s := d.Seed; s != nil {
		for i := range s.Accounts {
			s.Accounts[i].Quotas = normMap(s.Accounts[i].Quotas)
		}
		for i := range s.Templates {
			s.Templates[i].Body = normMap(s.Templates[i].Body)
		}
		for i := range s.SignatureRequests {
			r := &s.SignatureRequests[i]
			r.Body = normMap(r.Body)
			for j := range r.Actions {
				r.Actions[j].Signer = Normalize(r.Actions[j].Signer)
				r.Actions[j].Values = normMap(r.Actions[j].Values)
			}
		}
	}
	for i := range d.Rules {
		r := &d.Rules[i]
		if r.Match != nil {
			r.Match.Operation = Normalize(r.Match.Operation)
			r.Match.Event = Normalize(r.Match.Event)
			r.Match.Fields = normMap(r.Match.Fields)
		}
		if r.SignerAction != nil {
			r.SignerAction.Values = normMap(r.SignerAction.Values)
		}
	}
	for i := range d.Steps {
		s := &d.Steps[i]
		s.Params, s.Query, s.Body = normMap(s.Params), normMap(s.Query), Normalize(s.Body)
		s.Advance = Normalize(s.Advance)
		s.View, s.Sign, s.Decline = Normalize(s.View), Normalize(s.Sign), Normalize(s.Decline)
		s.Reassign, s.Bounce = Normalize(s.Reassign), Normalize(s.Bounce)
		for _, lc := range []*ListCheck{s.Events, s.Emails} {
			if lc == nil {
				continue
			}
			lc.Filter, lc.Count = normMap(lc.Filter), Normalize(lc.Count)
			lc.Sequence, lc.Contains, lc.Absent = normList(lc.Sequence), normList(lc.Contains), normList(lc.Absent)
		}
		if e := s.Expect; e != nil {
			e.Status, e.Body, e.JSON, e.Headers = Normalize(e.Status), Normalize(e.Body), Normalize(e.JSON), normMap(e.Headers)
		}
	}
	if d.Recording != nil {
		d.Recording.State = Normalize(d.Recording.State)
	}
}

func normMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out, _ := Normalize(m).(map[string]any)
	return out
}

func normList(l []any) []any {
	if l == nil {
		return nil
	}
	out := make([]any, len(l))
	for i, v := range l {
		out[i] = Normalize(v)
	}
	return out
}

// Normalize converts a decoded YAML value to JSON shapes (see
// normalizeDocument). Keys that are not strings are written as text.
func Normalize(v any) any {
	switch t := v.(type) {
	case nil, string, bool, json.Number:
		return t
	case int:
		return json.Number(strconv.Itoa(t))
	case int64:
		return json.Number(strconv.FormatInt(t, 10))
	case uint64:
		return json.Number(strconv.FormatUint(t, 10))
	case int8, int16, int32, uint, uint8, uint16, uint32:
		return json.Number(fmt.Sprint(t))
	case float32:
		return floatNumber(float64(t))
	case float64:
		return floatNumber(t)
	case time.Time:
		return t.UTC().Format(time.RFC3339Nano)
	case []byte:
		return string(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = Normalize(x)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[fmt.Sprint(k)] = Normalize(x)
		}
		return out
	case yaml.MapSlice:
		out := make(map[string]any, len(t))
		for _, it := range t {
			out[fmt.Sprint(it.Key)] = Normalize(it.Value)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = Normalize(x)
		}
		return out
	case []string:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = x
		}
		return out
	}
	return fmt.Sprint(v)
}

func floatNumber(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

// ParseDuration reads Go durations plus days ("2d", "1d12h").
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	neg := false
	rest := s
	if strings.HasPrefix(rest, "-") {
		neg, rest = true, rest[1:]
	}
	var days time.Duration
	if i := strings.Index(rest, "d"); i > 0 {
		n, err := strconv.Atoi(rest[:i])
		if err != nil || n < 0 || n > 36500 {
			return 0, fmt.Errorf("%q is not a duration such as 90s, 1h30m or 2d", s)
		}
		days = time.Duration(n) * 24 * time.Hour
		rest = rest[i+1:]
	}
	var d time.Duration
	if rest != "" {
		v, err := time.ParseDuration(rest)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("%q is not a duration such as 90s, 1h30m or 2d", s)
		}
		d = v
	}
	d += days
	if neg {
		d = -d
	}
	return d, nil
}
