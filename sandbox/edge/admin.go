package edge

// The admin token. A sandbox shared by a team, or reachable beyond
// loopback, is protected by a token the operator chooses: with one set,
// administration (creating and deleting worlds, importing a world's
// state) and every control call without world credentials (which acts on
// the default world) need it, in its own header, since Authorization
// already names the world of a control call. Without one, nothing changes.

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// AdminHeader is the header that carries the admin token.
const AdminHeader = "X-Signsandbox-Admin-Token"

// adminToken holds the digest of the token: comparing digests in constant
// time reveals neither the token nor its length.
type adminToken struct {
	set bool
	sum [sha256.Size]byte
}

func newAdminToken(token string) adminToken {
	if token == "" {
		return adminToken{}
	}
	return adminToken{set: true, sum: sha256.Sum256([]byte(token))}
}

// presented reports whether the request carries the valid token.
func (a adminToken) presented(r *http.Request) bool {
	v := r.Header.Get(AdminHeader)
	if !a.set || v == "" {
		return false
	}
	got := sha256.Sum256([]byte(v))
	return subtle.ConstantTimeCompare(got[:], a.sum[:]) == 1
}

// needed reports whether a request needs the token (when one is set):
// administration, and control calls without world credentials other than
// the world-free ones (health, the route table) and the pages (whose
// tokens are their credentials).
func needed(r *http.Request) bool {
	if isAdminCall(r) {
		return true
	}
	p := r.URL.Path
	return isControl(p) && !isWorldFree(r) && !strings.HasPrefix(p, pagePrefix) && r.Header.Get("Authorization") == ""
}

// check refuses a request that needs the token and lacks it.
func (a adminToken) check(r *http.Request, ok bool) *apierr.Error {
	if !a.set || ok || !needed(r) {
		return nil
	}
	if r.Header.Get(AdminHeader) != "" {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. The admin token ("+AdminHeader+") is not valid.").
			Because("the admin token is not valid")
	}
	return apierr.New(apierr.Unauthorized, "Unauthorized user. This sandbox requires its admin token for this call: send it in the "+AdminHeader+" header.").
		Because("the call needs the admin token and sent none")
}
