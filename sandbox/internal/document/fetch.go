package document

// Fetching file_urls: the real service downloads each URL when it processes
// the request; the sandbox downloads them while it reads the call, before
// the write transaction, with a bounded time, size and number of redirects.
// Whatever goes wrong becomes the document's error (error_file /
// file_error later), never an error of the call. The client's transport
// follows the destination rules (package outbound), so a URL (or a
// redirect) that leads to an address the server may not reach fails like
// an unreachable one; the document's error names no address the caller
// did not give, and the operator's log says what was refused.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/outbound"
)

const (
	// fetchTimeout bounds one download (connection, headers and body).
	fetchTimeout = 30 * time.Second
	// fetchRedirects is how many redirects a download follows (share links
	// of storage services redirect to the file).
	fetchRedirects = 5
	// fetchParallel bounds the downloads of one call that run at once.
	fetchParallel = 4
)

// fetched is the outcome of one download.
type fetched struct {
	name        string
	contentType string
	data        []byte
	err         string // why the file could not be fetched ("" when it was)
}

// fileClient is the sandbox's HTTP client (WithHTTPClient, under the
// destination rules) adjusted for downloads: redirects to http(s) URLs
// followed, at most fetchRedirects of them (the callback client refuses
// them), each hop's address checked when it is dialled; within
// fetchTimeout.
func fileClient(s *api.Host) *http.Client {
	c := *s.Client()
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= fetchRedirects {
			return fmt.Errorf("more than %d redirects", fetchRedirects)
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return fmt.Errorf("redirected to a %s URL", req.URL.Scheme)
		}
		return nil
	}
	if c.Timeout <= 0 || c.Timeout > fetchTimeout {
		c.Timeout = fetchTimeout
	}
	return &c
}

// fetchAll downloads every URL (at most fetchParallel at a time, all within
// one fetchTimeout, so that a call with many unreachable URLs still answers
// in bounded time) and returns the outcomes in the order of the URLs. log
// is the world's logger, for the operator.
func fetchAll(s *api.Host, ctx context.Context, log *slog.Logger, urls []string, limit int64) []fetched {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	client := fileClient(s)
	out := make([]fetched, len(urls))
	sem := make(chan struct{}, fetchParallel)
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i] = fetchOne(ctx, client, log, u, limit)
		}()
	}
	wg.Wait()
	return out
}

// fetchOne downloads one URL, reading at most limit bytes (no limit when
// limit <= 0).
func fetchOne(ctx context.Context, client *http.Client, log *slog.Logger, raw string, limit int64) fetched {
	f := fetched{name: urlFileName(raw)}
	fail := func(format string, args ...any) fetched {
		f.data = nil
		f.err = fmt.Sprintf("The file at %s could not be downloaded: ", raw) + fmt.Sprintf(format, args...)
		return f
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSpace(raw), nil)
	if err != nil {
		return fail("%v", err)
	}
	req.Header.Set("User-Agent", "signsandbox file fetcher")
	resp, err := client.Do(req)
	if err != nil {
		logFetchError(log, raw, err)
		return fail("%s", outbound.Describe(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fail("the server answered HTTP %d", resp.StatusCode)
	}
	r := io.Reader(resp.Body)
	if limit > 0 {
		r = io.LimitReader(resp.Body, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		logFetchError(log, raw, err)
		return fail("%s", outbound.Describe(err))
	}
	if limit > 0 && int64(len(data)) > limit {
		return fail("the file is larger than the limit of %d bytes per file", limit)
	}
	if len(data) == 0 {
		return fail("the file is empty")
	}
	f.data = data
	f.contentType = resp.Header.Get("Content-Type")
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil && params["filename"] != "" {
		f.name = path.Base(params["filename"])
	}
	return f
}

// logFetchError tells the operator why a download failed, with the
// addresses the caller's error leaves out; a refused destination is worth
// a look (someone may be probing the server's network), so it is logged
// at info, other failures at debug.
func logFetchError(log *slog.Logger, raw string, err error) {
	var refused *outbound.RefusedError
	if errors.As(err, &refused) {
		log.Info("file_urls destination not allowed", "url", raw, "refused", refused.Detail())
		return
	}
	log.Debug("file_urls download failed", "url", raw, "err", err)
}

// urlFileName is the file name a URL points at: its last path segment, or
// "document" when the path has none.
func urlFileName(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "document"
	}
	name := path.Base(u.Path)
	if name == "/" || name == "." || name == "" {
		return "document"
	}
	return name
}
