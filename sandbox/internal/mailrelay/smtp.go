package mailrelay

import (
	"context"
	"errors"
	"net"
	"net/smtp"
	"net/textproto"
	"time"
)

// The limits of one connection to the relay: the dial, and a whole
// session (every message of a pass), after which it is cut.
const (
	dialTimeout    = 10 * time.Second
	sessionTimeout = 60 * time.Second
	// heloName is the name the sandbox greets the relay with.
	heloName = "mail.signsandbox.test"
)

// session is an open SMTP connection to the relay.
type session struct {
	c    *smtp.Client
	stop func() bool
}

// dial connects to the relay and greets it. ctx bounds the whole session:
// when it ends the connection is closed, which fails whatever is in
// progress.
func dial(ctx context.Context, addr string) (*session, error) {
	d := net.Dialer{Timeout: dialTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	host, _, _ := net.SplitHostPort(addr)
	c, err := smtp.NewClient(conn, host)
	if err == nil {
		err = c.Hello(heloName)
	}
	if err != nil {
		stop()
		_ = conn.Close()
		return nil, err
	}
	return &session{c: c, stop: stop}, nil
}

// send delivers one message from the envelope sender to one recipient.
// After a refusal (an SMTP reply) the session is reset and stays usable;
// any other error leaves it broken.
func (s *session) send(from, to string, msg []byte) error {
	err := s.transfer(from, to, msg)
	var reply *textproto.Error
	if errors.As(err, &reply) {
		if rerr := s.c.Reset(); rerr != nil {
			return &brokenError{err}
		}
		return err
	}
	if err != nil {
		return &brokenError{err}
	}
	return nil
}

func (s *session) transfer(from, to string, msg []byte) error {
	if err := s.c.Mail(from); err != nil {
		return err
	}
	if err := s.c.Rcpt(to); err != nil {
		return err
	}
	w, err := s.c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		_ = w.Close()
		return err
	}
	return w.Close()
}

// close says goodbye and closes the connection.
func (s *session) close() {
	_ = s.c.Quit()
	s.stop()
	_ = s.c.Close()
}

// brokenError is an error after which the connection cannot be used.
type brokenError struct{ err error }

func (e *brokenError) Error() string { return e.err.Error() }
func (e *brokenError) Unwrap() error { return e.err }

// permanent reports whether err is the relay refusing for good (a 5xx
// reply): retrying would be refused again.
func permanent(err error) bool {
	var reply *textproto.Error
	return errors.As(err, &reply) && reply.Code >= 500
}
