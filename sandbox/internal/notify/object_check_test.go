//go:build readcheck

package notify

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCheckObjectRefusesBrokenJSON: under -tags readcheck an event object
// that is not valid JSON stops the test that wrote it.
func TestCheckObjectRefusesBrokenJSON(t *testing.T) {
	assert.NotPanics(t, func() { checkObject([]byte(`{"signature_request":{"title":"x"}}`)) })
	assert.Panics(t, func() { checkObject([]byte(`{"signature_request":{"title":"x"}`)) })
}
