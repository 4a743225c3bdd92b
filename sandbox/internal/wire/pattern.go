package wire

import (
	"fmt"
	"regexp"
)

// MaxPatternBytes bounds a regular expression taken from a request
// (validation_custom_regex, a rule's match value). Go's regular expressions
// match in linear time, but compiling one costs about 250 bytes of memory
// per byte of pattern (a 1 MB pattern took 230 MB and 0.3 s); validation
// patterns are a few dozen characters.
const MaxPatternBytes = 1000

// CompilePattern compiles a regular expression from a request, refusing
// one longer than MaxPatternBytes before compiling it.
func CompilePattern(s string) (*regexp.Regexp, error) {
	if len(s) > MaxPatternBytes {
		return nil, fmt.Errorf("the expression is %d bytes long, over the limit of %d", len(s), MaxPatternBytes)
	}
	return regexp.Compile(s)
}
