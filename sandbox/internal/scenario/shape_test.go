package scenario

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileDocuments are scenario files built to make a parser work: deep in
// every style YAML and JSON offer, and long.
func hostileDocuments() map[string]string {
	docs := map[string]string{}
	for _, n := range []int{3000, 20000, 100000} {
		suffix := "_" + itoa(n)
		docs["flow_sequences"+suffix] = "name: x\nseed: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n"
		docs["flow_mappings"+suffix] = "name: x\nseed: " + strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n) + "\n"
		docs["json"+suffix] = `{"name":"x","seed":` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) + "}"
		docs["compact_sequences"+suffix] = "name: x\nseed:\n" + strings.Repeat("- ", n) + "x\n"
	}
	var b strings.Builder
	b.WriteString("name: x\nseed:\n")
	for i := 1; i < 1000; i++ {
		b.WriteString(strings.Repeat(" ", i))
		b.WriteString("k:\n")
	}
	docs["block_mappings_1000"] = b.String()
	docs["tokens_100000"] = "name: x\nseed: [" + strings.Repeat("1,", 100000) + "1]\n"
	return docs
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// TestHostileScenariosRefusedCheaply: every hostile document is refused by
// the shape check with a message naming the limit, allocating a bounded
// amount (the parser itself would take gigabytes on the deepest ones).
func TestHostileScenariosRefusedCheaply(t *testing.T) {
	for name, doc := range hostileDocuments() {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := ParseDocument("f.yaml", []byte(doc), nil)
			runtime.ReadMemStats(&after)
			require.Error(t, err)
			var pe *Error
			require.ErrorAs(t, err, &pe)
			msg := pe.Issues[0].Msg
			assert.True(t, strings.Contains(msg, "levels deep") || strings.Contains(msg, "tokens"), msg)
			alloc := after.TotalAlloc - before.TotalAlloc
			assert.Less(t, alloc, uint64(20*len(doc)+50<<20), "allocated %d bytes for %d", alloc, len(doc))
		})
	}
}

func TestScenarioShapeLimits(t *testing.T) {
	big := "name: x\ndescription: '" + strings.Repeat("x", MaxDocumentBytes) + "'\n"
	_, err := ParseDocument("f.yaml", []byte(big), nil)
	require.ErrorContains(t, err, "over the limit of 1048576")

	deep := "name: x\nseed: " + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + "\n"
	_, err = ParseDocument("f.yaml", []byte(deep), nil)
	require.ErrorContains(t, err, "nested more than 64 levels deep")
	var pe *Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 2, pe.Issues[0].Line)

	// Nesting just inside the limit reaches the parser (which refuses the
	// value for its type, not for its shape).
	ok := "name: x\nseed: " + strings.Repeat("[", MaxDepth-2) + strings.Repeat("]", MaxDepth-2) + "\n"
	_, err = ParseDocument("f.yaml", []byte(ok), nil)
	if err != nil {
		assert.NotContains(t, err.Error(), "levels deep")
	}
	// Block scalars and long lines do not count as nesting.
	text := "name: x\ndescription: |\n" + strings.Repeat("      deeply indented line\n", 200) + "rules: []\n"
	_, err = ParseDocument("f.yaml", []byte(text), nil)
	if err != nil {
		assert.NotContains(t, err.Error(), "levels deep")
	}
}
