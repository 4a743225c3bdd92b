package recipes

import (
	"context"
	"net/http"
	"testing"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

func TestWithSandbox(t *testing.T) {
	testcontainers.SkipIfProviderIsNotHealthy(t) // no Docker here: skip rather than fail
	ctx := context.Background()
	sandbox, err := testcontainers.Run(ctx, "ghcr.io/signsandbox/signsandbox:latest",
		testcontainers.WithExposedPorts("8080/tcp"),
		testcontainers.WithWaitStrategy(wait.ForHTTP("/_sandbox/ready").WithPort("8080/tcp")),
	)
	testcontainers.CleanupContainer(t, sandbox)
	if err != nil {
		t.Fatal(err)
	}
	base, err := sandbox.PortEndpoint(ctx, "8080/tcp", "http") // http://localhost:<mapped port>
	if err != nil {
		t.Fatal(err)
	}

	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v3/account", nil)
	req.SetBasicAuth("0b1a94ccae9d6301cd0b5fae223a4e6b9ad0d67861716ffcff2a2cd8f7d8381c", "") // the default world's key
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v3/account: %s", resp.Status)
	}
}
