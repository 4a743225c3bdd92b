// Package oauth is OAuth for API apps: issuing and refreshing access
// tokens (POST /oauth/token), the authorize and revoke control calls that
// stand in for the consent page, the scopes an app may ask for and the
// token response.
package oauth
