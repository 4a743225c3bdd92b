package scenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The common YAML mistakes are refused with one issue: the line and column
// where the mistake was made, what is wrong in plain words, and the YAML
// library's message after it.
func TestYAMLMistakesInPlainWords(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"key indented too deep", "name: bad\nsteps:\n  - call: accountGet\n     expect:\n      status: 200\n",
			`f.yaml:4:6: "expect" is indented deeper than the line above it, so YAML reads it as more of the value above ("accountGet"): indent it like the keys it belongs with (YAML: mapping value is not allowed in this context)`},
		{"top-level key indented", "name: bad\n steps:\n  - call: accountGet\n",
			`f.yaml:2:2: "steps" is indented deeper than the line above it`},
		{"key not lined up", "name: bad\nsteps:\n  - call: accountGet\n   expect:\n      status: 200\n",
			`f.yaml:4:4: "expect" starts in column 4, but the keys above it start in column 5: the keys of one mapping start in the same column (YAML: value is not allowed in this context)`},
		{"tab indentation", "name: bad\nsteps:\n  - call: accountGet\n    expect:\n\tstatus: 200\n",
			`f.yaml:5:1: a tab character indents this line: YAML indents with spaces only; replace the tab with spaces (YAML: found character '\t' that cannot start any token)`},
		{"tab under a key", "name: bad\nsteps:\n\t- call: accountGet\n",
			`f.yaml:3:1: a tab character indents this line`},
		{"unclosed double quote", "name: \"bad\nsteps:\n  - call: accountGet\n",
			`f.yaml:1:7: this double-quoted text is never closed: end it with " (inside it, write \" for a quote) (YAML: could not find end character of double-quoted text)`},
		{"unclosed single quote", "name: bad\nsteps:\n  - call: 'accountGet\n",
			`f.yaml:3:11: this single-quoted text is never closed: end it with ' (inside it, write '' for a quote)`},
		{"unclosed brace", "name: bad\nsteps:\n  - {call: accountGet\n", `f.yaml:3:5: this { is never closed: end the mapping with }`},
		{"unclosed bracket", "name: bad\nsteps: [a, b\n", `f.yaml:2:8: this [ is never closed: end the list with ]`},
		{"duplicate key", "name: bad\nsteps: []\nname: x\n", `f.yaml:3:1: "name" appears twice in the same mapping (first on line 1): keep one (YAML: mapping key "name" already defined at [1:1])`},
		{"duplicate nested key", "name: bad\nsteps:\n  - call: accountGet\n    call: x\n", `f.yaml:4:5: "call" appears twice in the same mapping (first on line 3): keep one`},
		{"list for a mapping", "name: bad\nconfig:\n  - a: 1\n", `f.yaml:3:3: config: a list (lines starting with "- ") where a mapping (key: value lines) belongs: remove the "- " (YAML: sequence was used where mapping is expected)`},
		{"mapping for a list", "name: bad\nsteps:\n  call: accountGet\n", `steps: a mapping where a list belongs: start each item with "- " (a dash and a space)`},
		{"no space after a colon", "name: bad\nsteps:\n  - call:accountGet\n", `f.yaml:3:5: steps[0]: "call:accountGet" has no space after its colon, so YAML reads it as text: write "call: accountGet"`},
		{"a number for a mapping", "name: bad\nconfig: 3\n", `f.yaml:2:9: config: a number where a mapping (key: value lines) belongs`},
		{"colon in a value", "name: bad: x\n", `f.yaml:1:7: this value holds ": " (a colon and a space), which YAML reads as the start of another key: put the value in quotes`},
		{"backslash in double quotes", "name: \"a\\qb\"\n", `inside double quotes a backslash starts an escape`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tc.src), testVocabulary())
			require.Error(t, err)
			var se *Error
			require.True(t, errors.As(err, &se))
			require.Len(t, se.Issues, 1, "one message")
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "\n", "one line")
			assert.Equal(t, 1, strings.Count(err.Error(), "(YAML: "), "the library's message once")
		})
	}
}
