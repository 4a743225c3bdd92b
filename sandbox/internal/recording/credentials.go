package recording

// Which credentials a recording leaves out, and their names (see
// scenario/credentials.go for the placeholders and how a replay resolves
// them). A recording of a world knows them all: those of its start state,
// read from the exported tables, and every secret the world makes while
// it is recorded (state.Store.SetSecretObserver). The recording proxy sees
// only the traffic: it finds credentials where the API and the control
// plane put them (the Authorization header, the fields that carry keys,
// secrets, codes and tokens, the tokens of page URLs), and names them by
// their number in the upstream's sequence when the upstream is a sandbox
// whose seed the start state gives.

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// stateCredentialFields are the fields of an exported world state that
// hold credentials: by table, the path of each within a row ("*" is every
// entry of a list).
var stateCredentialFields = []struct {
	table string
	paths [][]string
}{
	{"api_keys", [][]string{{"key"}}},
	{"api_apps", [][]string{{"oauth", "secret"}}},
	{"oauth_codes", [][]string{{"code"}}},
	{"oauth_tokens", [][]string{{"access_token"}, {"refresh_token"}}},
	{"sign_urls", [][]string{{"token"}}},
	{"signature_requests", [][]string{{"link_secrets", "*", "secret"}}},
	{"file_urls", [][]string{{"id"}}},
	{"template_edit_urls", [][]string{{"token"}}},
	{"unclaimed_drafts", [][]string{{"claim_token"}}},
}

// StateCredentials lists the credentials of an exported state (GET
// /_sandbox/state, decoded), in table order.
func StateCredentials(st any) []string { return stateCredentials(st) }

func stateCredentials(st any) []string {
	tables, _ := field(st, "tables")
	var out []string
	for _, tf := range stateCredentialFields {
		rows, _ := field(tables, tf.table)
		list, _ := rows.([]any)
		for _, row := range list {
			for _, p := range tf.paths {
				out = appendAt(out, row, p)
			}
		}
	}
	return out
}

func appendAt(out []string, v any, path []string) []string {
	if len(path) == 0 {
		if s, ok := v.(string); ok && s != "" {
			out = append(out, s)
		}
		return out
	}
	if path[0] == "*" {
		list, _ := v.([]any)
		for _, x := range list {
			out = appendAt(out, x, path[1:])
		}
		return out
	}
	x, ok := field(v, path[0])
	if !ok {
		return out
	}
	return appendAt(out, x, path[1:])
}

// field reads a key of a decoded object (a map, or the ordered objects
// scenario.OrderedJSON makes).
func field(v any, key string) (any, bool) {
	switch t := v.(type) {
	case map[string]any:
		x, ok := t[key]
		return x, ok
	case interface{ Get(string) (any, bool) }:
		return t.Get(key)
	}
	return nil, false
}

// sequenceOf is the seed and counter of an exported state's ID sequence.
func sequenceOf(st any) (seed string, counter uint64, ok bool) {
	tables, _ := field(st, "tables")
	meta, _ := field(tables, "meta")
	rows, _ := meta.([]any)
	if len(rows) != 1 {
		return "", 0, false
	}
	s, _ := field(rows[0], "seed")
	seed, _ = s.(string)
	c, _ := field(rows[0], "counter")
	counter, err := strconv.ParseUint(textOf(c), 10, 64)
	return seed, counter, seed != "" && err == nil
}

func textOf(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// secretLengths are the lengths of the credentials a sequence makes: a
// whole secret, and the first 32 characters of one (OAuth client secrets
// and codes).
var secretLengths = []int{64, 32}

// findInSequence looks for the values among the secrets seed's sequence
// makes at numbers lo to hi, and answers the number of each found.
func findInSequence(seed string, lo, hi uint64, values []string) map[string]uint64 {
	wanted := map[string]bool{}
	for _, v := range values {
		if len(v) == 64 || len(v) == 32 {
			wanted[v] = true
		}
	}
	found := map[string]uint64{}
	for n := lo; n < hi && len(found) < len(wanted); n++ {
		s := state.SeededSecret(seed, n)
		for _, l := range secretLengths {
			if wanted[s[:l]] {
				found[s[:l]] = n
			}
		}
	}
	return found
}

// seqName is the name of the secret made at n, or of its first length
// characters.
func seqName(n uint64, length int) string {
	name := "seq" + strconv.FormatUint(n, 10)
	if length != 64 {
		name += "_" + strconv.Itoa(length)
	}
	return name
}

// maxStartSearch bounds the numbers of a start state's sequence searched
// for its credentials: beyond it (a world that has made millions of IDs),
// they are named as credentials a replay makes afresh.
const maxStartSearch = 1 << 22

// nameStartCredentials names the credentials of a recording's start state:
// by their number in the world's sequence when its seed made them, else
// as others.
func nameStartCredentials(creds *scenario.Credentials, st any, seeded bool) {
	values := stateCredentials(st)
	var found map[string]uint64
	if seed, counter, ok := sequenceOf(st); ok && seeded {
		found = findInSequence(seed, 0, min(counter, maxStartSearch), values)
	}
	for _, v := range values {
		if n, ok := found[v]; ok {
			creds.Add(seqName(n, len(v)), v)
		} else {
			creds.AddOther(v)
		}
	}
}

// observeSecrets names each secret a world makes by its number.
func observeSecrets(creds *scenario.Credentials) func(n uint64, secret string) {
	return func(n uint64, secret string) {
		creds.Add(seqName(n, len(secret)), secret)
		if len(secret) > 32 {
			creds.Add(seqName(n, 32), secret[:32])
		}
	}
}

// pageToken finds the token of a page URL the sandbox hands out (signing,
// claim, editor and file pages) and the token parameter of the real
// service's embedded URLs.
var pageToken = regexp.MustCompile(`/w/[^/?#"\s]+/(?:sign|claim|files|editor/template)/([0-9A-Za-z]{16,})|[?&]token=([0-9A-Za-z_\-.%]{16,})`)

// credentialKeys are the JSON fields that carry credentials in the API's
// and the control plane's requests and answers.
var credentialKeys = map[string]bool{
	"api_key": true, "key": true, "secret": true, "client_secret": true, "code": true,
	"access_token": true, "refresh_token": true, "claim_token": true, "token": true,
}

// discoverIn finds the credentials a decoded JSON value carries in
// credential fields and page URLs (not in metadata, which is the caller's
// own data).
func discoverIn(v any, found func(string)) {
	switch t := v.(type) {
	case string:
		discoverURLs(t, found)
	case []any:
		for _, x := range t {
			discoverIn(x, found)
		}
	case map[string]any:
		for k, x := range t {
			discoverField(k, x, found)
		}
	case interface{ Each(func(string, any)) }:
		t.Each(func(k string, x any) { discoverField(k, x, found) })
	}
}

func discoverField(k string, x any, found func(string)) {
	if k == "metadata" {
		return
	}
	if s, ok := x.(string); ok && credentialKeys[k] && looksLikeCredential(s) {
		found(s)
		return
	}
	discoverIn(x, found)
}

// discoverURLs finds page tokens in a text. A signing link's token is a
// secret followed by the signature's id: the secret is the credential.
func discoverURLs(s string, found func(string)) {
	if !strings.Contains(s, "/w/") && !strings.Contains(s, "token=") {
		return
	}
	for _, m := range pageToken.FindAllStringSubmatch(s, -1) {
		tok := m[1]
		if tok == "" {
			if u, err := url.QueryUnescape(m[2]); err == nil {
				tok = u
			}
		}
		if len(tok) > 64 && isHex(tok) {
			tok = tok[:64]
		}
		if looksLikeCredential(tok) {
			found(tok)
		}
	}
}

// looksLikeCredential: at least 8 characters without spaces.
func looksLikeCredential(s string) bool {
	return len(s) >= 8 && !strings.ContainsAny(s, " \t\r\n")
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
