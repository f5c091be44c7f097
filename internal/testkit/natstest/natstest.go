package natstest

import (
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Start starts a NATS server with opts on a free port of 127.0.0.1, without signal handlers or
// logs, and shuts it down when the test ends. It fails the test if the server is not ready
// within 10 s.
func Start(tb testing.TB, opts *server.Options) *server.Server {
	tb.Helper()
	opts.Host, opts.Port, opts.NoSigs, opts.NoLog = "127.0.0.1", -1, true, true
	ns, err := server.NewServer(opts)
	if err != nil {
		tb.Fatal(err)
	}
	ns.Start()
	tb.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	if !ns.ReadyForConnections(10 * time.Second) {
		tb.Fatal("the NATS server did not start within 10 s")
	}
	return ns
}
