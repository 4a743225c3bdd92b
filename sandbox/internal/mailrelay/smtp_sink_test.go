package mailrelay_test

import (
	"bufio"
	"bytes"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// smtpSink is a small SMTP server on loopback for the relay's tests: it
// answers each recipient as reply says and keeps every message it
// accepted, its bytes exactly as sent (dot-stuffing undone).
type smtpSink struct {
	Addr string
	ln   net.Listener
	wg   sync.WaitGroup

	mu    sync.Mutex
	msgs  []sunkMessage
	reply func(rcpt string) string
	conns int
}

// sunkMessage is one accepted message with its envelope.
type sunkMessage struct {
	From string
	To   []string
	Data []byte
}

func newSMTPSink(t *testing.T) *smtpSink {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &smtpSink{Addr: ln.Addr().String(), ln: ln}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns++
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.serve(conn)
			}()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		s.wg.Wait()
	})
	return s
}

// SetReply makes the sink answer RCPT TO with fn's reply ("" accepts).
func (s *smtpSink) SetReply(fn func(rcpt string) string) {
	s.mu.Lock()
	s.reply = fn
	s.mu.Unlock()
}

// Messages are the messages accepted so far, in order.
func (s *smtpSink) Messages() []sunkMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sunkMessage(nil), s.msgs...)
}

// Connections counts the connections the sink accepted.
func (s *smtpSink) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

func (s *smtpSink) serve(conn net.Conn) {
	defer conn.Close()
	r := bufio.NewReader(conn)
	w := bufio.NewWriter(conn)
	say := func(line string) bool {
		_, err := w.WriteString(line + "\r\n")
		return err == nil && w.Flush() == nil
	}
	if !say("220 sink ESMTP ready") {
		return
	}
	var cur sunkMessage
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
		switch verb {
		case "EHLO":
			say("250-sink greets you")
			say("250 8BITMIME")
		case "HELO", "NOOP":
			say("250 ok")
		case "RSET":
			cur = sunkMessage{}
			say("250 ok")
		case "MAIL":
			cur = sunkMessage{From: between(line, "<", ">")}
			say("250 ok")
		case "RCPT":
			to := between(line, "<", ">")
			s.mu.Lock()
			fn := s.reply
			s.mu.Unlock()
			if fn != nil {
				if ans := fn(to); ans != "" {
					say(ans)
					continue
				}
			}
			cur.To = append(cur.To, to)
			say("250 ok")
		case "DATA":
			if len(cur.To) == 0 {
				say("554 no valid recipients")
				continue
			}
			say("354 go ahead")
			var data bytes.Buffer
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				data.WriteString(strings.TrimPrefix(l, "."))
			}
			cur.Data = data.Bytes()
			s.mu.Lock()
			s.msgs = append(s.msgs, cur)
			s.mu.Unlock()
			cur = sunkMessage{}
			say("250 queued")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("502 not implemented")
		}
	}
}

func between(s, a, b string) string {
	i, j := strings.Index(s, a), strings.LastIndex(s, b)
	if i < 0 || j <= i {
		return ""
	}
	return s[i+1 : j]
}
