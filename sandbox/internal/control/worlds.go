package control

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// WorldListEntry is a world as GET /_sandbox/worlds lists it: what GET
// /_sandbox/world answers with that world's key, and whether it is the
// default world (the one calls without credentials reach).
type WorldListEntry struct {
	WorldInfo
	Default bool `json:"default"`
}

type worldListResponse struct {
	Worlds []WorldListEntry `json:"worlds"`
}

// controlListWorlds lists the worlds this process holds, in the order they
// were made (the default world first), each with its first account's key,
// so that the console can switch between them. It answers only whoever
// administers the server, the caller who could make those worlds with POST
// /_sandbox/worlds: the edge lets the call through only with the admin
// token on a server that has one, and otherwise only under a loopback (or
// an allowed) host name, as every call without credentials; a call with a
// world's key is refused here, since a key opens one world and must not
// reveal the others.
func controlListWorlds(c *api.Call) (any, error) {
	if c.Request.Header.Get("Authorization") != "" {
		return nil, apierr.Forbiddenf("GET /_sandbox/worlds lists every world of this server: call it without a world's credentials " +
			"(and with the admin token on a server that has one); GET /_sandbox/world shows the world of a key.")
	}
	out := worldListResponse{Worlds: []WorldListEntry{}}
	for _, w := range c.Host.Worlds() {
		out.Worlds = append(out.Worlds, WorldListEntry{WorldInfo: WorldInfoOf(c.Host, w), Default: w == c.Host.DefaultWorld()})
	}
	return out, nil
}
