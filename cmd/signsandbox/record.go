package main

// Recording: `signsandbox --record FILE` records the default world's
// session (serveOptions adds sandbox.WithRecording), and `signsandbox record
// --upstream URL --out FILE` is a recording proxy in front of another
// server that speaks this API.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/signsandbox/signsandbox/sandbox"
)

func init() {
	commands["record"] = cmdRecord
}

const recordUsage = `usage: signsandbox record --upstream URL --out FILE [--addr ADDR] [--keep-credentials]

Serves a proxy that forwards every request to URL (another sandbox, or the
real service's API base such as https://api.hellosign.com) and writes the
session to FILE as a scenario file (YAML, or JSON for .json), rewritten
after every call. API keys, secrets and tokens are written as placeholders
(${credentials.NAME}) unless --keep-credentials. Replay it with:
signsandbox run FILE
`

func cmdRecord(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("signsandbox record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, recordUsage); fs.PrintDefaults() }
	upstream := fs.String("upstream", "", "server to forward to")
	out := fs.String("out", "", "scenario file to write")
	addr := fs.String("addr", "127.0.0.1:8081", "listen address of the proxy")
	keepEnv := os.Getenv("SIGNSANDBOX_KEEP_CREDENTIALS")
	keepDefault, _ := parseBool(keepEnv) // the switches' spellings, as the server's --keep-credentials reads them
	keep := fs.Bool("keep-credentials", keepDefault, "write the credentials the traffic carries into FILE instead of placeholders (SIGNSANDBOX_KEEP_CREDENTIALS)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if missing := missingRecordFlags(*upstream, *out); missing != "" || fs.NArg() > 0 {
		if missing != "" {
			fmt.Fprintf(stderr, "signsandbox record: %s\n", missing)
		} else {
			fmt.Fprintf(stderr, "signsandbox record: unexpected argument %q\n", fs.Arg(0))
		}
		fs.Usage()
		return 2
	}
	proxy, err := sandbox.NewRecordingProxy(*upstream, *out, nil)
	if err != nil {
		fmt.Fprintln(stderr, "signsandbox record: --upstream:", err)
		return 2
	}
	proxy.KeepCredentials = *keep
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "signsandbox record: --addr:", err)
		return 1
	}
	srv := &http.Server{Handler: proxy, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "signsandbox record: proxy on http://%s -> %s, writing %s\n", displayAddr(ln.Addr().String()), *upstream, *out)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintln(stderr, "signsandbox record:", err)
		return 1
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdown)
	if err := proxy.Close(); err != nil {
		fmt.Fprintln(stderr, "signsandbox record: releasing the upstream world's pinned time:", err)
	}
	if err := proxy.Err(); err != nil {
		fmt.Fprintln(stderr, "signsandbox record: writing", *out+":", err)
		return 1
	}
	fmt.Fprintf(stdout, "signsandbox record: %d call(s) recorded in %s\n", proxy.Calls(), *out)
	return 0
}

// missingRecordFlags names the required flags of record left out ("" when
// none is), so that the refusal says which before the usage text.
func missingRecordFlags(upstream, out string) string {
	switch {
	case upstream == "" && out == "":
		return "--upstream and --out are required"
	case upstream == "":
		return "--upstream is required"
	case out == "":
		return "--out is required"
	}
	return ""
}
