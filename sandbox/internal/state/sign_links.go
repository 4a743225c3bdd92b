package state

// The links of signing e-mails: a token that names its signature and
// carries a secret its request keeps, so that a link costs the request
// row a few bytes instead of a row and an index entry of its own.

import (
	"crypto/subtle"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// signLinkIDLen is the length of the signature ids a link token can end
// with (the 32 hex characters every signature id has).
const signLinkIDLen = 32

// SignLinkToken returns the token of a signing e-mail's link: the secret
// (a NewSecret, so that the links of a shared server cannot be guessed and
// those of a seeded world are the same on every run) followed by the
// signature id. ok is false for a signature id of another length (only an
// imported world can have one): such a link needs a SignURL row.
func SignLinkToken(secret, signatureID string) (token string, ok bool) {
	if len(signatureID) != signLinkIDLen || secret == "" {
		return "", false
	}
	return secret + signatureID, true
}

// AddLinkSecret records a new link secret of the signature sigID on req,
// a copy the caller is about to store. It reports false when req has no
// such signature. The list is copied, not appended to in place, because
// copies of the request may share it.
func AddLinkSecret(req *model.SignatureRequest, sigID, secret string) bool {
	sg := req.Signature(sigID)
	if sg == nil {
		return false
	}
	n := len(req.LinkSecrets)
	req.LinkSecrets = append(req.LinkSecrets[:n:n], model.LinkSecret{SignatureID: sg.ID, Secret: secret})
	return true
}

// SignURLByToken finds the token of a signing page: a SignURL row
// (embedded sign URLs, and e-mail links stored before they carried their
// signature), or a link token whose secret its signature holds, answered
// as the row it would have had (never embedded, never expiring).
func SignURLByToken(tx *Txn, token string) (*model.SignURL, error) {
	if row, err := Get[model.SignURL](tx, TableSignURLs, token); err == nil {
		return row, nil
	}
	if len(token) <= signLinkIDLen {
		return nil, ErrNotFound
	}
	secret, sigID := token[:len(token)-signLinkIDLen], token[len(token)-signLinkIDLen:]
	req, err := SignatureRequestBySignature(tx, sigID)
	if err != nil {
		if req, err = First[model.SignatureRequest](tx, TableSignatureRequests, IndexLinkSignature, sigID); err != nil {
			return nil, ErrNotFound
		}
	}
	found := 0
	for _, ls := range req.LinkSecrets {
		if ls.SignatureID == sigID {
			found |= subtle.ConstantTimeCompare([]byte(ls.Secret), []byte(secret))
		}
	}
	if found == 0 {
		return nil, ErrNotFound
	}
	return &model.SignURL{Token: token, SignatureID: sigID, RequestID: req.ID}, nil
}

// linkSignatureKeys are the keys of a request in IndexLinkSignature: the
// signature ids of its link secrets that are no longer among its
// signatures.
func linkSignatureKeys(row any, dst []compactKey) []compactKey {
	r := row.(*model.SignatureRequest)
	for _, ls := range r.LinkSecrets {
		if r.Signature(ls.SignatureID) == nil {
			dst = append(dst, compactKey{group: ls.SignatureID})
		}
	}
	return dst // repeats are dropped by rowKeys
}
