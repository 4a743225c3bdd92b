package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestOnePagePDFHasTheAskedSize checks the upload: a PDF of one page that
// weighs what was asked, so that the table's label is true.
func TestOnePagePDFHasTheAskedSize(t *testing.T) {
	pdf := onePagePDF(8 << 10)
	if !bytes.HasPrefix(pdf, []byte("%PDF-1.4\n")) || !bytes.HasSuffix(pdf, []byte("%%EOF\n")) {
		t.Fatalf("not a PDF: %.40q", pdf)
	}
	if n := len(pdf); n < 8<<10-16 || n > 8<<10 {
		t.Fatalf("size %d, want about %d", n, 8<<10)
	}
	if c := bytes.Count(pdf, []byte("/Type /Page ")); c != 1 {
		t.Fatalf("%d pages", c)
	}
}

// TestRunLoadStopsAtCount: a count-bounded round sends exactly that many
// requests over its connections.
func TestRunLoadStopsAtCount(t *testing.T) {
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Add(1)
		_, _ = io.WriteString(w, "ok")
	}))
	defer srv.Close()
	w := world{base: srv.URL, key: "k"}
	r := runLoad(loadSpec{Conns: 4, Count: 57, Duration: -1}, w.get("/x"))
	if r.Requests != 57 || got.Load() != 57 || r.Errors != 0 {
		t.Fatalf("requests %d, served %d, errors %d", r.Requests, got.Load(), r.Errors)
	}
	if r.P50 <= 0 || r.P99 < r.P50 {
		t.Fatalf("p50 %s p99 %s", r.P50, r.P99)
	}
}

// TestRunLoadReportsErrorAnswers: answers outside 2xx are counted and the
// first is quoted, which is what makes the benchmark fail when the sandbox
// errs.
func TestRunLoadReportsErrorAnswers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "broken", http.StatusInternalServerError)
	}))
	defer srv.Close()
	w := world{base: srv.URL, key: "k"}
	r := runLoad(loadSpec{Conns: 2, Duration: 100 * time.Millisecond}, w.get("/x"))
	if r.Errors == 0 || r.Errors != r.Requests || !strings.Contains(r.FirstError, "500 broken") {
		t.Fatalf("errors %d of %d, first %q", r.Errors, r.Requests, r.FirstError)
	}
}

// TestRouterSeesUpReadsTheStatsCSV: the router round starts only once
// HAProxy's stats say every shard server is up (its own backends aside).
func TestRouterSeesUpReadsTheStatsCSV(t *testing.T) {
	csv := "# pxname,svname,qcur,qmax,scur,smax,slim,stot,bin,bout,dreq,dresp,ereq,econ,eresp,wretr,wredis,status\n" +
		"signsandbox,FRONTEND,,,0,0,,0,0,0,0,0,0,,,,,OPEN\n" +
		"shard_01,01,0,0,0,0,,0,0,0,,0,,0,0,0,0,UP\n" +
		"shard_01,BACKEND,0,0,0,0,,0,0,0,0,0,,0,0,0,0,UP\n" +
		"shard_02,02,0,0,0,0,,0,0,0,,0,,0,0,0,0,DOWN\n" +
		"new_worlds,01,0,0,0,0,,0,0,0,,0,,0,0,0,0,UP\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, csv)
	}))
	defer srv.Close()
	for n, want := range map[int]bool{1: true, 2: false} {
		if up, err := routerSeesUp(srv.Client(), srv.URL, n); err != nil || up != want {
			t.Errorf("%d servers: up %v, err %v; want %v", n, up, err, want)
		}
	}
}

// TestSpreadGivesEachConnectionOneWorld: over three worlds, a connection
// keeps to its world and goes through its calls in turn.
func TestSpreadGivesEachConnectionOneWorld(t *testing.T) {
	var worlds [][]request
	for wi := 0; wi < 3; wi++ {
		var calls []request
		for ci := 0; ci < 2; ci++ {
			path := fmt.Sprintf("/w%d/c%d", wi, ci)
			calls = append(calls, func(int, int) (*http.Request, error) { return http.NewRequest(http.MethodGet, "http://x"+path, nil) })
		}
		worlds = append(worlds, calls)
	}
	send := spread(worlds)
	for worker := 0; worker < 6; worker++ {
		var got []string
		for i := 0; i < 3; i++ {
			r, _ := send(worker, i)
			got = append(got, r.URL.Path)
		}
		for _, p := range got {
			if !strings.HasPrefix(p, fmt.Sprintf("/w%d/", worker%3)) {
				t.Fatalf("connection %d went to %v", worker, got)
			}
		}
		if got[0] == got[1] || got[0] != got[2] {
			t.Fatalf("connection %d does not take the calls in turn: %v", worker, got)
		}
	}
}
