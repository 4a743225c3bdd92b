package sandbox

import (
	"fmt"
	"net"
	"strconv"
)

// WithSMTPRelay delivers every e-mail of every world's outbox over SMTP to
// the mail server at addr (host:port), such as Mailpit, as the message
// GET /_sandbox/emails/{id} shows, when the world clock reaches its send
// time, with retries. The relay runs after commit, off the request path;
// how each e-mail stands there shows in the outbox (delivery) but is not
// part of the world's state. Without it no e-mail leaves the process.
// The address is the operator's: nothing a caller sends can change it.
func WithSMTPRelay(addr string) Option {
	return func(cfg *config) error {
		if err := CheckSMTPRelay(addr); err != nil {
			return err
		}
		cfg.smtpRelay = addr
		return nil
	}
}

// CheckSMTPRelay reports whether addr is an SMTP relay address: host:port,
// with a host and a port from 1 to 65535.
func CheckSMTPRelay(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("smtp relay %q: want host:port: %v", addr, err)
	}
	if host == "" {
		return fmt.Errorf("smtp relay %q: no host", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("smtp relay %q: the port is a number from 1 to 65535", addr)
	}
	return nil
}
