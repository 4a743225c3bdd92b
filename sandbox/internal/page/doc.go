// Package page is what every HTML page of the sandbox shares: which world
// a page URL belongs to (WorldFor), and the postMessage protocol through
// which embedded pages talk to the hellosign-embedded library in the
// parent window.
package page
