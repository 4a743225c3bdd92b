// Package mailrelay delivers a world's outbox to a real mail server
// (--smtp-relay host:port, sandbox.WithSMTPRelay) over SMTP, as the
// messages package mail composes. Each world has one worker, started
// only when a relay is configured: after a commit adds e-mails it takes
// them from the outbox in the order they were sent and delivers each when
// the world clock reaches its send time, retrying on the world clock
// with a bounded backoff. The request path only wakes the worker.
//
// How each e-mail stands at the relay (pending, delivered, failed, the
// attempts) lives in the worker, not in the world's database: it depends
// on a server outside the sandbox, so it is neither exported nor
// journaled, and the world's state, IDs and answers are the same with a
// relay or without one. A reset or an import forgets it, and e-mails a
// world already held when its worker started (restored from a data
// directory, imported) are not sent again.
package mailrelay
