package sandbox_test

import (
	"encoding/json"
	"strconv"
)

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func itoa(i int) string { return strconv.Itoa(i) }
