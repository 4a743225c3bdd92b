package search

// Dates in searches (query.go): created:date and created:[a TO b]
// or {a TO b}, with whole days for dates and instants for times.

import (
	"strconv"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// DateRange is a date field's [a TO b], {a TO b} or single date.
type DateRange struct {
	from, to           time.Time // zero for an open bound
	fromIncl, toIncl   bool
	fromOpen, toOpen   bool
	fromIsDay, toIsDay bool
}

// parseDateTerm parses field:[a TO b], field:{a TO b} or field:date.
func parseDateTerm(field, v string) (*DateRange, *apierr.Error) {
	if v[0] != '[' && v[0] != '{' {
		t, isDay, ok := parseQueryTime(v)
		if !ok {
			return nil, queryErr("%s takes a date (YYYY-MM-DD), a time or a range [a TO b]", field)
		}
		return &DateRange{from: t, to: t, fromIncl: true, toIncl: true, fromIsDay: isDay, toIsDay: isDay}, nil
	}
	closeCh := v[len(v)-1]
	if closeCh != ']' && closeCh != '}' {
		return nil, queryErr("unclosed range")
	}
	lo, hi, ok := strings.Cut(v[1:len(v)-1], " TO ")
	if !ok {
		return nil, queryErr("a range is written [from TO to]")
	}
	r := &DateRange{fromIncl: v[0] == '[', toIncl: closeCh == ']'}
	var good bool
	if lo = strings.TrimSpace(lo); lo == "*" {
		r.fromOpen = true
	} else if r.from, r.fromIsDay, good = parseQueryTime(lo); !good {
		return nil, queryErr("%q is not a date", lo)
	}
	if hi = strings.TrimSpace(hi); hi == "*" {
		r.toOpen = true
	} else if r.to, r.toIsDay, good = parseQueryTime(hi); !good {
		return nil, queryErr("%q is not a date", hi)
	}
	return r, nil
}

// searchTimeLayouts are the date-and-time forms a query may use (UTC unless
// the form has an offset).
var searchTimeLayouts = []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04"}

// parseQueryTime reads a date (a whole day: isDay), a date and time, or
// Unix seconds.
func parseQueryTime(s string) (t time.Time, isDay, ok bool) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, true, true
	}
	for _, layout := range searchTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), false, true
		}
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.Unix(n, 0).UTC(), false, true
	}
	return time.Time{}, false, false
}

// Match reports whether Unix time at falls in the range.
func (r *DateRange) Match(at int64) bool {
	c := time.Unix(at, 0).UTC()
	if !r.fromOpen {
		// The lower bound is the day's start (inclusive) or its end
		// (exclusive) for dates, the instant itself for times.
		lo := r.from
		if r.fromIsDay && !r.fromIncl {
			lo = lo.AddDate(0, 0, 1)
		}
		if (r.fromIsDay || r.fromIncl) && c.Before(lo) {
			return false
		}
		if !r.fromIsDay && !r.fromIncl && !c.After(lo) {
			return false
		}
	}
	if !r.toOpen {
		hi := r.to
		if r.toIsDay && r.toIncl {
			hi = hi.AddDate(0, 0, 1)
		}
		if r.toIsDay || !r.toIncl {
			if !c.Before(hi) {
				return false
			}
		} else if c.After(hi) {
			return false
		}
	}
	return true
}
