package distributed

import (
	"errors"
	"strings"
	"testing"

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
