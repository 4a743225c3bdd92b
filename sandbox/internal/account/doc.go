// Package account is the accounts of a world as the API shows them: get,
// update (callback URL, locale), create (with the confirmation the real
// service asks for: its e-mail, and the control route through which a test
// confirms the account as its user would) and verify, and the account
// object view the catalog, callbacks and teams show.
package account
