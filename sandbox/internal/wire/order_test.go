package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A form body's field names keep the order the client wrote them in (role
// names read as keys depend on it); file parts are files, not fields, and a
// JSON body has no fields to order.
func TestReadBodyKeepsFormOrder(t *testing.T) {
	b, err := ReadBody(formReq("signers%5BWitness+One%5D%5Bname%5D=W&signers[Client][name]=C&&x&signers[Witness One][email_address]=w%40example.com"), DefaultLimits)
	require.NoError(t, err)
	assert.Equal(t, []string{"signers[Witness One][name]", "signers[Client][name]", "x", "signers[Witness One][email_address]"}, b.Order)

	b, err = ReadBody(multipartReq(t, part{name: "b"}, part{name: "file[0]", filename: "a.pdf", data: "%PDF"}, part{name: "a"}), DefaultLimits)
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "a"}, b.Order)

	b, err = ReadBody(jsonReq(`{"b":1,"a":2}`), DefaultLimits)
	require.NoError(t, err)
	assert.Empty(t, b.Order)
}
