package scenario

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	secretA = "0b1a94ccae9d6301cd0b5fae223a4e6b9ad0d67861716ffcff2a2cd8f7d8381c"
	secretB = "2ab813278759db81e3e1be162c230d3c32d49629a29e0545c2ffc8708e6e00db"
	sigID   = "7445aa790d4a99dd56af0ee7f97065f7"
)

func TestCredentialsRedactWhereverTheyStand(t *testing.T) {
	c := NewCredentials()
	c.Add("seq7", secretA)
	c.Add("seq7_32", secretA[:32])
	c.Add("seq9", secretB)
	name := c.AddOther("my-own-key-0123456789")
	assert.Equal(t, "other1_21", name)
	assert.Equal(t, "other2_4", c.AddOther("test"))
	assert.Equal(t, name, c.AddOther("my-own-key-0123456789"), "a known value keeps its name")

	text := `{"key":"` + secretA + `","link":"http://h/_sandbox/w/default/sign/` + secretB + sigID + `?x=1",` +
		`"secret":"` + secretA[:32] + `","id":"` + sigID + `","mine":"my-own-key-0123456789","word":"test","test_mode":true}`
	got := c.Redact(text)
	assert.Equal(t, `{"key":"${credentials.seq7}","link":"http://h/_sandbox/w/default/sign/${credentials.seq9}`+sigID+`?x=1",`+
		`"secret":"${credentials.seq7_32}","id":"`+sigID+`","mine":"${credentials.other1_21}","word":"${credentials.other2_4}","test_mode":true}`, got)
	assert.Equal(t, text, c.Restore(got), "restored, the text is what it was")
	assert.Equal(t, []string{"seq7", "seq7_32", "seq9", "other1_21", "other2_4"}, c.Used())

	assert.Equal(t, "testing", c.Redact("testing"), "a short credential is replaced only where it stands whole")
	assert.Equal(t, Placeholder("other2_4"), c.Redact("test"))
	assert.Equal(t, "${credentials.nope}", c.Restore("${credentials.nope}"), "an unknown name stays")
}

func TestCredentialsRedactAuthorizationHeaders(t *testing.T) {
	c := NewCredentials()
	c.Add("seq7", secretA)
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(secretA+":"))
	key, auth := c.RedactAuth(basic)
	assert.Equal(t, "${credentials.seq7}", key, "an API key is a step's key")
	assert.Empty(t, auth)
	key, auth = c.RedactAuth("Bearer " + secretB)
	assert.Empty(t, key)
	assert.Equal(t, "Bearer ${credentials.other1}", auth, "an unknown token is named as another credential")
	withPassword := "Basic " + base64.StdEncoding.EncodeToString([]byte(secretA+":pw"))
	key, auth = c.RedactAuth(withPassword)
	assert.Empty(t, key)
	require.True(t, strings.HasPrefix(auth, "Basic ${credentials.other"), auth)
	assert.NotContains(t, auth, secretA)
}

func TestCredentialNames(t *testing.T) {
	for _, tc := range []struct {
		name, kind string
		n          uint64
		length     int
	}{{"seq12", "seq", 12, 0}, {"seq12_32", "seq", 12, 32}, {"other3", "other", 3, 0}, {"other3_21", "other", 3, 21}} {
		kind, n, length, err := ParseCredentialName(tc.name)
		require.NoError(t, err, tc.name)
		assert.Equal(t, []any{tc.kind, tc.n, tc.length}, []any{kind, n, length}, tc.name)
	}
	for _, bad := range []string{"key1", "seq", "seqx", "seq1_0", "other1_x", ""} {
		_, _, _, err := ParseCredentialName(bad)
		assert.Error(t, err, bad)
	}
	assert.Len(t, freshSecret(0), 64)
	assert.Len(t, freshSecret(32), 32)
	assert.Len(t, freshSecret(21), 21)
}
