// Package metrics keeps the server's counters and writes them, with the
// gauges read at scrape time, in the Prometheus text exposition format
// (version 0.0.4). It is written by hand rather than with
// prometheus/client_golang: the sandbox needs a handful of counters and one
// histogram, a deterministic output order for its tests, and no global
// registry shared by the sandboxes of one process.
package metrics

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// ContentType is the media type of the text exposition format.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// Label is one label of a sample.
type Label struct{ Name, Value string }

// Sample is one line of a family: the family name plus Suffix (_bucket,
// _sum, _count for histograms), its labels and its value.
type Sample struct {
	Suffix string
	Labels []Label
	Value  float64
}

// Family is a metric with its help text, type and samples.
type Family struct {
	Name    string
	Help    string
	Type    string // counter, gauge or histogram
	Samples []Sample
}

// Write writes the families in name order and each family's samples in the
// order given (callers sort them), so that the same counts always give the
// same bytes.
func Write(w io.Writer, fams []Family) error {
	sorted := append([]Family(nil), fams...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var b strings.Builder
	for _, f := range sorted {
		fmt.Fprintf(&b, "# HELP %s %s\n", f.Name, escapeHelp(f.Help))
		fmt.Fprintf(&b, "# TYPE %s %s\n", f.Name, f.Type)
		for _, s := range f.Samples {
			b.WriteString(f.Name)
			b.WriteString(s.Suffix)
			if len(s.Labels) > 0 {
				b.WriteByte('{')
				for i, l := range s.Labels {
					if i > 0 {
						b.WriteByte(',')
					}
					b.WriteString(l.Name)
					b.WriteString(`="`)
					b.WriteString(escapeLabel(l.Value))
					b.WriteByte('"')
				}
				b.WriteByte('}')
			}
			b.WriteByte(' ')
			b.WriteString(formatValue(s.Value))
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func formatValue(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
func escapeLabel(s string) string { return labelEscaper.Replace(s) }
