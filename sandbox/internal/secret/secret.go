// Package secret makes the credentials of worlds created at run time: API
// keys, OAuth secrets and tokens, and the tokens of signing, editing, claim
// and file URLs. They come from crypto/rand, so nobody can guess another
// world's credentials from the public seed, and they may start with a
// server's shard tag, so that a router in front of several servers can
// send every call to the server that holds its world from its credentials
// alone.
package secret

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// Length is the length of a secret in hex characters: the 64 of the API
// keys of the official service. Shorter credentials (OAuth client secrets
// and codes) are its first characters, so they carry the shard tag too.
const Length = 64

// MaxShardLen bounds the shard tag, so that even a 32-character credential
// keeps 24 random hex characters (96 bits) after it.
const MaxShardLen = 8

// CheckShard reports whether tag can be a shard tag: 1 to MaxShardLen
// lowercase hex characters, so that credentials keep the official format.
func CheckShard(tag string) error {
	if tag == "" || len(tag) > MaxShardLen {
		return fmt.Errorf("shard tag %q must have 1 to %d characters", tag, MaxShardLen)
	}
	for _, r := range tag {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return fmt.Errorf("shard tag %q must be lowercase hex (0-9, a-f), so that credentials keep their official format", tag)
		}
	}
	return nil
}

// Source returns a function that makes secrets: the shard tag (may be
// empty) followed by random hex characters up to Length. A failing
// crypto/rand is not something to go on from with guessable keys, so it
// panics.
func Source(shard string) func() string {
	return func() string {
		b := make([]byte, Length/2)
		if _, err := rand.Read(b); err != nil {
			panic("secret: crypto/rand: " + err.Error())
		}
		return shard + hex.EncodeToString(b)[len(shard):]
	}
}

// Shard returns the shard tag a secret starts with, given the length of
// the tags in use (routers know it from their own configuration).
func Shard(s string, tagLen int) string {
	if tagLen <= 0 || len(s) < tagLen {
		return ""
	}
	return s[:tagLen]
}
