package main

// The requests the benchmark sends, built the way a client of the real API
// sends them.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// world is a world of the sandbox under test.
type world struct {
	base, key string
}

var setupClient = &http.Client{Timeout: 5 * time.Minute}

// newWorld creates a fake-clock world whose file cap (max_world_bytes,
// which counts every stored file, shared or not) holds the requests the
// benchmark stores.
func newWorld(base string) (world, error) {
	var out struct {
		APIKey string `json:"api_key"`
	}
	if err := call(http.MethodPost, base+"/_sandbox/worlds", "", map[string]any{"clock": "fake"}, &out); err != nil {
		return world{}, err
	}
	w := world{base: base, key: out.APIKey}
	return w, call(http.MethodPatch, base+"/_sandbox/config", w.key, map[string]any{"max_world_bytes": int64(1) << 40}, nil)
}

// call sends a JSON request (body may be nil) and decodes a 2xx answer into
// out (may be nil); anything else is an error that quotes the answer.
func call(method, url, key string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.SetBasicAuth(key, "")
	}
	_, raw, err := do(req)
	if err != nil {
		return err
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("%s %s: %v", method, url, err)
		}
	}
	return nil
}

// do sends a request and reads the answer; a non-2xx status is an error.
func do(req *http.Request) (string, []byte, error) {
	resp, err := setupClient.Do(req)
	if err != nil {
		return "", nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", nil, err
	}
	if resp.StatusCode/100 != 2 {
		return "", nil, fmt.Errorf("%s %s: %d %.500s", req.Method, req.URL.Path, resp.StatusCode, raw)
	}
	return resp.Header.Get("Content-Type"), raw, nil
}

// get builds an authenticated GET.
func (w world) get(path string) request {
	return func(int, int) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodGet, w.base+path, nil)
		if err == nil {
			req.SetBasicAuth(w.key, "")
		}
		return req, err
	}
}

// post builds an authenticated POST of a fixed body.
func (w world) post(path, ctype string, body []byte) request {
	return func(int, int) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodPost, w.base+path, bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", ctype)
			req.SetBasicAuth(w.key, "")
		}
		return req, err
	}
}

// jsonSend is POST /v3/signature_request/send with file_urls (the sandbox
// runs offline, so a placeholder stands in for the file).
func jsonSend() (string, []byte) {
	b, _ := json.Marshal(map[string]any{
		"title":     "Benchmark NDA",
		"test_mode": true,
		"file_urls": []string{"https://example.com/bench/nda.pdf"},
		"signers":   []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}},
	})
	return "application/json", b
}

// multipartSend is the same send as multipart with an uploaded PDF.
func multipartSend(pdf []byte) (string, []byte) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	fw, _ := mw.CreateFormFile("files[0]", "nda.pdf")
	_, _ = fw.Write(pdf)
	for _, kv := range [][2]string{{"title", "Benchmark NDA"}, {"test_mode", "1"},
		{"signers[0][name]", "Jack"}, {"signers[0][email_address]", "jack@example.com"}} {
		_ = mw.WriteField(kv[0], kv[1])
	}
	_ = mw.Close()
	return mw.FormDataContentType(), b.Bytes()
}

// listPagePath is the list page the bench measures: as many requests as
// sendPage stores.
const listPagePath = "/v3/signature_request/list?page_size=20"

// sendPage sends a full list page of requests and answers the last one's
// id and raw answer.
func (w world) sendPage(ctype string, body []byte) (id string, answer []byte, err error) {
	for i := 0; i < 20; i++ {
		if id, answer, err = w.sendOnce(ctype, body); err != nil {
			return "", nil, err
		}
	}
	return id, answer, nil
}

// sendOnce sends one request and answers its id and the raw answer.
func (w world) sendOnce(ctype string, body []byte) (string, []byte, error) {
	req, err := w.post("/v3/signature_request/send", ctype, body)(0, 0)
	if err != nil {
		return "", nil, err
	}
	_, raw, err := do(req)
	if err != nil {
		return "", nil, err
	}
	var out struct {
		SignatureRequest struct {
			ID string `json:"signature_request_id"`
		} `json:"signature_request"`
	}
	if err := json.Unmarshal(raw, &out); err != nil || out.SignatureRequest.ID == "" {
		return "", nil, fmt.Errorf("send answered no signature_request_id: %.300s", raw)
	}
	return out.SignatureRequest.ID, raw, nil
}

// fetch answers the content type and bytes of an authenticated GET.
func (w world) fetch(path string) (string, []byte, error) {
	req, err := w.get(path)(0, 0)
	if err != nil {
		return "", nil, err
	}
	return do(req)
}

// receiver is a callback URL that acknowledges every event, as a client's
// handler does.
func startReceiver() (string, func(), error) {
	ln, err := listenLoopback()
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, "Hello API Event Received")
	})}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/callback", func() { _ = srv.Close() }, nil
}

func listenLoopback() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// liveHeap reads the server's live Go heap (signsandbox_heap_live_bytes,
// as of its last garbage collection) from the metrics.
func liveHeap(w world) (int64, error) {
	req, err := http.NewRequest(http.MethodGet, w.base+"/_sandbox/metrics", nil)
	if err != nil {
		return 0, err
	}
	_, raw, err := do(req)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "signsandbox_heap_live_bytes "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return int64(f), err
		}
	}
	return 0, fmt.Errorf("the metrics have no signsandbox_heap_live_bytes")
}
