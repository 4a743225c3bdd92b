package state

import (
	"strings"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSignLinkTokensNeedNoRow: a signing e-mail's link token resolves
// through the signature whose request keeps its secret, every secret the signer was
// sent still works, a wrong secret or a signature it was not sent to does
// not, and a SignURL row (embedded URLs, links of older worlds) still
// resolves by its token.
func TestSignLinkTokensNeedNoRow(t *testing.T) {
	st := newTestStore(t)
	sigA, sigB := strings.Repeat("a", 32), strings.Repeat("b", 32)
	var first, second, legacy string
	require.NoError(t, st.Update(func(tx *Txn) error {
		req := &model.SignatureRequest{ID: "req", Signatures: []model.Signature{{ID: sigA}, {ID: sigB}}}
		s1, s2 := tx.NewSecret(), tx.NewSecret()
		var ok bool
		first, ok = SignLinkToken(s1, sigA)
		require.True(t, ok)
		second, _ = SignLinkToken(s2, sigA)
		require.True(t, AddLinkSecret(req, sigA, s1))
		req.LinkSecrets = append(make([]model.LinkSecret, 0, 4), req.LinkSecrets...) // room to append in place
		shared := *req
		require.True(t, AddLinkSecret(req, sigA, s2))
		require.True(t, AddLinkSecret(&shared, sigB, "other"))
		assert.Equal(t, []model.LinkSecret{{SignatureID: sigA, Secret: s1}, {SignatureID: sigA, Secret: s2}}, req.LinkSecrets,
			"copies of a request sharing the list do not append to it in place")
		assert.False(t, AddLinkSecret(req, "nobody", s2))
		legacy = tx.NewSecret()
		if err := Put(tx, TableSignURLs, &model.SignURL{Token: legacy, SignatureID: sigB, RequestID: req.ID}); err != nil {
			return err
		}
		return Put(tx, TableSignatureRequests, req)
	}))
	tx := st.Read()
	for _, tok := range []string{first, second} {
		got, err := SignURLByToken(tx, tok)
		require.NoError(t, err)
		assert.Equal(t, model.SignURL{Token: tok, SignatureID: sigA, RequestID: "req"}, *got)
	}
	got, err := SignURLByToken(tx, legacy)
	require.NoError(t, err)
	assert.Equal(t, sigB, got.SignatureID)

	secret := first[:len(first)-32]
	off := []byte(secret)
	off[len(off)-1] ^= 1
	for _, bad := range []string{
		"",
		sigA,
		secret,
		secret + sigB,                    // another signer's link
		string(off) + sigA,               // one character off
		strings.Repeat("0", 64) + sigA,   // a guess
		secret + strings.Repeat("c", 32), // no such signature
		first + "0",                      // longer
		legacy + sigB,                    // a row's token is not a link secret
	} {
		_, err := SignURLByToken(tx, bad)
		assert.ErrorIs(t, err, ErrNotFound, bad)
	}
	_, ok := SignLinkToken("secret", "short-id")
	assert.False(t, ok, "a signature id of another length cannot end a token")
}
