package distributed

import (
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestServerTLS: a server speaking TLS (as it always does off loopback) is reached with the
// certificate the credentials carry, and not without it; wrong passwords are refused.
func TestServerTLS(t *testing.T) {
	dir := t.TempDir()
	srv, err := StartServer(ServerConfig{Listen: "127.0.0.1:0", Run: "0123456789ab", Dir: dir, TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	creds := *srv.Credentials()
	if !strings.HasPrefix(creds.URL, "tls://") || creds.CA == "" {
		t.Fatalf("credentials of a TLS server: %+v", creds)
	}
	nc, err := Dial(&creds, "tls worker")
	if err != nil {
		t.Fatalf("with the certificate: %v", err)
	}
	nc.Close()

	untrusting := creds
	untrusting.CA = ""
	if nc, err := Dial(&untrusting, "no certificate"); err == nil {
		nc.Close()
		t.Fatal("connected without trusting the server's certificate")
	}
	wrong := creds
	wrong.Password = "guess"
	if nc, err := Dial(&wrong, "wrong password"); !errors.Is(err, nats.ErrAuthorization) {
		if nc != nil {
			nc.Close()
		}
		t.Fatalf("wrong password: %v", err)
	}

	// A restarted server keeps its credentials and certificate: workers need nothing new.
	srv.Shutdown()
	again, err := StartServer(ServerConfig{Listen: strings.TrimPrefix(creds.URL, "tls://"), Run: "0123456789ab", Dir: dir, TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Shutdown()
	if got := *again.Credentials(); got != creds {
		t.Fatalf("credentials changed on restart:\n%+v\n%+v", got, creds)
	}
	if nc, err = Dial(&creds, "after restart"); err != nil {
		t.Fatal(err)
	}
	nc.Close()
}

// TestPortZeroPicksAFreePort: two embedded servers asked for port 0 both start, each on a
// port of its own (NATS itself reads 0 as its default port, 4222).
func TestPortZeroPicksAFreePort(t *testing.T) {
	var urls []string
	for range 2 {
		e, err := NewEmbedded("127.0.0.1:0", t.TempDir(), false)
		if err != nil {
			t.Fatal(err)
		}
		ns, url, err := e.Start()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ns.Shutdown)
		urls = append(urls, url)
	}
	if urls[0] == urls[1] || strings.HasSuffix(urls[0], ":4222") {
		t.Errorf("servers at %v, want two free ports", urls)
	}
}

// TestPortInUse: a port another program holds is reported at once, saying so, not after the
// wait for a NATS server that cannot become ready.
func TestPortInUse(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	e, err := NewEmbedded(l.Addr().String(), t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ns, _, err := e.Start()
	if err == nil {
		ns.Shutdown()
		t.Fatal("a server started on a port in use")
	}
	if !strings.Contains(err.Error(), "cannot listen on "+l.Addr().String()) || time.Since(start) > 5*time.Second {
		t.Errorf("after %s: %v; want at once that it cannot listen on %s", time.Since(start), err, l.Addr())
	}
}
