//go:build readcheck

package notify

import (
	"encoding/json"
	"fmt"
)

// checkObject makes every event object a view wrote itself pass the check
// json.Marshal would have made of its output (marshalObject skips it): the
// whole test suite run with -tags readcheck checks the self-writing views.
func checkObject(b []byte) {
	if !json.Valid(b) {
		panic(fmt.Sprintf("notify: an event object is not valid JSON: %s", b))
	}
}
