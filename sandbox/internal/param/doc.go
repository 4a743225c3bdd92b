// Package param checks request parameters the way the real API does: e-mail
// addresses, locales, callback URLs, lengths and metadata. Every check
// answers an *apierr.Error naming the parameter (its error_path), so that a
// handler can return it as it is. It depends on nothing of the sandbox but
// the error vocabulary.
package param
