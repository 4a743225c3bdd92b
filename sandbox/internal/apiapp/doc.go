// Package apiapp is the API apps of a world: create, get, update, delete
// and list, their OAuth settings, domains, logo and white-labeling
// options, and the app object view in the catalog.
package apiapp
