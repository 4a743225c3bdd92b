package scenario

// Credentials in recordings. A recording keeps the credentials of the
// world it recorded out of its file (API keys, OAuth client secrets, codes
// and tokens, the tokens of signing, claim, editor and file URLs): each is
// written as the placeholder ${credentials.NAME}, in the start state, the
// steps' credentials, paths and bodies, and the recorded answers, whose
// body_sha256 is that of the answer with its placeholders. A replay
// resolves every placeholder to a credential of the world it replays in,
// sends the resolved values, and compares each answer after putting the
// placeholders back in place of its world's values. NAME says how the
// replay resolves it:
//
//   - seqN is the secret the recorded world drew as number N of its
//     sequence: a replay's world, whose state carries the recorded seed and
//     counter, draws the same one (see Runner.SeededSecret), so the replay
//     gets the recorded values back and values derived from them (an
//     event_hash is keyed with an API key) come out the same;
//   - seqN_L is its first L characters (OAuth client secrets and codes
//     are the first 32 of a secret);
//   - otherN is a credential the sequence did not make (the fixtures' API
//     keys, a key given with --api-key, secrets drawn at random, the real
//     service's): an API key or OAuth client secret of the start state
//     resolves to the one the replay's world has for the same account or
//     app, anything else to a fresh random value; otherN_L has L
//     characters.

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// credentialsRoot is the expression root of the placeholders.
const credentialsRoot = "credentials"

// Placeholder is the text that stands for the credential name in a
// recording.
func Placeholder(name string) string { return "${" + credentialsRoot + "." + name + "}" }

// minSubstring is the shortest credential replaced wherever it appears;
// a shorter one (a key chosen by hand, such as "test") is replaced only
// where it is a whole JSON string or a whole value, so that ordinary words
// are left alone.
const minSubstring = 16

// Credentials is a set of credentials and their names. It is safe for
// concurrent use.
type Credentials struct {
	mu      sync.Mutex
	byValue map[string]string
	byName  map[string]string
	// hexLens are the lengths of the lowercase hex values, longest first
	// (a link token is a 64-character secret followed by an id).
	hexLens []int
	// texts are the other values of at least minSubstring characters,
	// longest first; words are the shorter ones.
	texts, words []string
	others       int
	// used holds the names a redaction wrote: the names a recording lists.
	used map[string]bool
}

// NewCredentials returns an empty set.
func NewCredentials() *Credentials {
	return &Credentials{byValue: map[string]string{}, byName: map[string]string{}, used: map[string]bool{}}
}

// Add names a credential; a value or a name already known keeps its first
// pairing.
func (c *Credentials) Add(name, value string) {
	if value == "" || name == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.addLocked(name, value)
}

func (c *Credentials) addLocked(name, value string) {
	if _, known := c.byValue[value]; known {
		return
	}
	if _, taken := c.byName[name]; taken {
		return
	}
	c.byValue[value], c.byName[name] = name, value
	switch {
	case isLowerHex(value) && len(value) >= minSubstring:
		if !slices.Contains(c.hexLens, len(value)) {
			c.hexLens = append(c.hexLens, len(value))
			slices.SortFunc(c.hexLens, func(a, b int) int { return b - a })
		}
	case len(value) >= minSubstring:
		c.texts = append(c.texts, value)
		slices.SortStableFunc(c.texts, func(a, b string) int { return len(b) - len(a) })
	default:
		c.words = append(c.words, value)
	}
}

// AddOther names a credential that is not from a world's sequence
// (otherN, otherN_L), unless it is known already, and answers its name.
func (c *Credentials) AddOther(value string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if name, ok := c.byValue[value]; ok {
		return name
	}
	c.others++
	name := "other" + strconv.Itoa(c.others)
	if len(value) != 64 {
		name += "_" + strconv.Itoa(len(value))
	}
	c.addLocked(name, value)
	return name
}

// Name is the name of a known credential.
func (c *Credentials) Name(value string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	name, ok := c.byValue[value]
	return name, ok
}

// Value is the credential a name stands for.
func (c *Credentials) Value(name string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.byName[name]
	return v, ok
}

// Used lists the names a redaction wrote, in order (seq before other,
// then by number).
func (c *Credentials) Used() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.used))
	for n := range c.used {
		out = append(out, n)
	}
	slices.SortFunc(out, compareNames)
	return out
}

func compareNames(a, b string) int {
	ka, na, la, _ := ParseCredentialName(a)
	kb, nb, lb, _ := ParseCredentialName(b)
	switch {
	case ka != kb:
		return -strings.Compare(ka, kb) // seq, then other
	case na != nb:
		if na < nb {
			return -1
		}
		return 1
	case la != lb:
		return la - lb
	}
	return strings.Compare(a, b)
}

// placeholder writes name's placeholder and notes the name as used.
func (c *Credentials) placeholder(name string) string {
	c.used[name] = true
	return Placeholder(name)
}

// Redact replaces every known credential in s by its placeholder.
func (c *Credentials) Redact(s string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if name, ok := c.byValue[s]; ok {
		return c.placeholder(name)
	}
	if len(c.hexLens) > 0 {
		s = c.redactHex(s)
	}
	for _, v := range c.texts {
		if strings.Contains(s, v) {
			s = strings.ReplaceAll(s, v, c.placeholder(c.byValue[v]))
		}
	}
	for _, v := range c.words {
		quoted := `"` + v + `"`
		if strings.Contains(s, quoted) {
			s = strings.ReplaceAll(s, quoted, `"`+c.placeholder(c.byValue[v])+`"`)
		}
	}
	return s
}

// redactHex replaces the hex credentials: in every run of lowercase hex
// characters, at each place, the longest known value that starts there.
func (c *Credentials) redactHex(s string) string {
	var b *strings.Builder
	copied := 0
	shortest := c.hexLens[len(c.hexLens)-1]
	for i := 0; i < len(s); {
		if !isHexByte(s[i]) {
			i++
			continue
		}
		end := i
		for end < len(s) && isHexByte(s[end]) {
			end++
		}
		for p := i; end-p >= shortest; {
			name, n := c.hexAt(s[p:end])
			if n == 0 {
				p++
				continue
			}
			if b == nil {
				b = &strings.Builder{}
				b.Grow(len(s))
			}
			b.WriteString(s[copied:p])
			b.WriteString(c.placeholder(name))
			p += n
			copied = p
		}
		i = end
	}
	if b == nil {
		return s
	}
	b.WriteString(s[copied:])
	return b.String()
}

// hexAt is the name and length of the longest known value run starts with.
func (c *Credentials) hexAt(run string) (string, int) {
	for _, n := range c.hexLens {
		if n <= len(run) {
			if name, ok := c.byValue[run[:n]]; ok {
				return name, n
			}
		}
	}
	return "", 0
}

// Restore replaces every placeholder in s whose name is known by its
// credential.
func (c *Credentials) Restore(s string) string {
	const open = "${" + credentialsRoot + "."
	if !strings.Contains(s, open) {
		return s
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for {
		i := strings.Index(s, open)
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+len(open):], '}')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		name := s[i+len(open) : i+len(open)+j]
		if v, ok := c.byName[name]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(s[i : i+len(open)+j+1])
		}
		s = s[i+len(open)+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// RedactTree redacts every string of a decoded JSON or YAML value (maps,
// lists, ordered objects), keys included.
func (c *Credentials) RedactTree(v any) any { return mapStrings(v, c.Redact) }

// RestoreTree restores every string of a decoded value.
func (c *Credentials) RestoreTree(v any) any { return mapStrings(v, c.Restore) }

func mapStrings(v any, fn func(string) string) any {
	switch t := v.(type) {
	case string:
		return fn(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[fn(k)] = mapStrings(x, fn)
		}
		return out
	case orderedMap:
		out := make(orderedMap, len(t))
		for i, it := range t {
			out[i] = orderedItem{Key: fn(it.Key), Value: mapStrings(it.Value, fn)}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = mapStrings(x, fn)
		}
		return out
	}
	return v
}

// ParseCredentialName splits a placeholder name into its kind ("seq" or
// "other"), number and length (0 for a whole secret).
func ParseCredentialName(name string) (kind string, n uint64, length int, err error) {
	rest, ok := strings.CutPrefix(name, "seq")
	kind = "seq"
	if !ok {
		if rest, ok = strings.CutPrefix(name, "other"); !ok {
			return "", 0, 0, fmt.Errorf("credential name %q is seqN, seqN_L, otherN or otherN_L", name)
		}
		kind = "other"
	}
	num, l, hasLen := strings.Cut(rest, "_")
	if n, err = strconv.ParseUint(num, 10, 64); err != nil {
		return "", 0, 0, fmt.Errorf("credential name %q is seqN, seqN_L, otherN or otherN_L", name)
	}
	if hasLen {
		if length, err = strconv.Atoi(l); err != nil || length <= 0 {
			return "", 0, 0, fmt.Errorf("credential name %q: the length after _ must be a positive number", name)
		}
	}
	return kind, n, length, nil
}

// AuthCredential is the credential of an Authorization header: the key of
// Basic credentials (keyOnly when the header is exactly what a client
// sends for it, "Basic " and the key with an empty password in base64),
// the token of Bearer ones, or the whole value of another scheme.
func AuthCredential(header string) (cred string, keyOnly bool) {
	scheme, rest, _ := strings.Cut(strings.TrimSpace(header), " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(scheme) {
	case "basic":
		raw, err := base64.StdEncoding.DecodeString(rest)
		if err != nil {
			return rest, false
		}
		user, _, _ := strings.Cut(string(raw), ":")
		exact := "Basic "+base64.StdEncoding.EncodeToString([]byte(user+":")) == header
		if !exact {
			return rest, false
		}
		return user, true
	case "bearer":
		return rest, false
	}
	return strings.TrimSpace(header), false
}

// RedactAuth writes an Authorization header with its credential as a
// placeholder: as the step's key when it is a plain API key.
func (c *Credentials) RedactAuth(header string) (key, auth string) {
	if header == "" {
		return "", ""
	}
	cred, keyOnly := AuthCredential(header)
	name, ok := c.Name(cred)
	if !ok {
		name = c.AddOther(cred)
	}
	c.mu.Lock()
	ph := c.placeholder(name)
	c.mu.Unlock()
	if keyOnly {
		return ph, ""
	}
	return "", strings.Replace(header, cred, ph, 1)
}

// freshSecret is a random value for a credential the replay cannot make
// again: length hex characters (64 when 0).
func freshSecret(length int) string {
	if length <= 0 {
		length = 64
	}
	b := make([]byte, (length+1)/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)[:length]
}

func isHexByte(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' }

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHexByte(s[i]) {
			return false
		}
	}
	return s != ""
}
