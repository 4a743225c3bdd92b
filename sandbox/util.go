package sandbox

import (
	"strconv"
)

func itoa(i int) string { return strconv.Itoa(i) }

func parseInt64(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) }

// intPtr returns a pointer to a copy of v.
func intPtr(v int) *int { return &v }
