package testenv

import (
	"net"
	"testing"
)

// FreeAddr returns a loopback TCP address ("127.0.0.1:PORT") that was free a moment ago, for a
// test that starts a server in another process, which must be told its address.
func FreeAddr(tb testing.TB) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
