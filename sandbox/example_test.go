package sandbox_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox"
)

// ExampleNew serves a sandbox in-process with net/http/httptest and calls the
// API with the default world's key, as an official SDK would.
func ExampleNew() {
	sb, err := sandbox.New()
	if err != nil {
		panic(err)
	}
	defer sb.Close()
	srv := httptest.NewServer(sb)
	defer srv.Close()

	// The key goes in HTTP Basic as the user name, with an empty password.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v3/account", nil)
	req.SetBasicAuth(sb.DefaultAPIKey(), "")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var out struct {
		Account struct {
			EmailAddress string `json:"email_address"`
		} `json:"account"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	fmt.Println(resp.StatusCode, out.Account.EmailAddress)

	// The world's clock is fake and starts at a fixed instant; the control
	// plane moves it (and runs every job that falls due on the way).
	req, _ = http.NewRequest(http.MethodPost, srv.URL+"/_sandbox/clock/advance", strings.NewReader(`{"duration":"1h"}`))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(sb.DefaultAPIKey(), "")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var clock struct {
		Time string `json:"time"`
	}
	_ = json.Unmarshal(body, &clock)
	fmt.Println(clock.Time)
	// Output:
	// 200 owner@sandbox.example
	// 2025-01-01T01:00:00Z
}
