package debugvars

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"

	"hivearbiter/internal/syncbuf"
)

// TestServe: with ARBITER_DEBUG_VARS the process serves its goroutine count and memory on
// loopback until stopped; an address off loopback is refused with a warning, and without the
// variable nothing listens.
func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	t.Setenv(Env, addr)
	var stderr syncbuf.Buffer
	stop := Serve(&stderr, "arbiter")
	resp, err := http.Get("http://" + addr + "/debug/vars")
	if err != nil {
		stop()
		t.Fatal(err)
	}
	var vars Snapshot
	err = json.NewDecoder(resp.Body).Decode(&vars)
	resp.Body.Close()
	stop()
	if err != nil || vars.Goroutines < 2 || vars.HeapAlloc == 0 {
		t.Errorf("vars %+v, %v: want goroutines and memory", vars, err)
	}
	if stderr.String() != "" {
		t.Errorf("stderr %q", stderr.String())
	}
	if _, err := http.Get("http://" + addr + "/debug/vars"); err == nil {
		t.Error("the window still answers after stop")
	}

	t.Setenv(Env, "0.0.0.0:0")
	Serve(&stderr, "arbiter")()
	if !strings.HasPrefix(stderr.String(), "arbiter: warning: ARBITER_DEBUG_VARS: ") || !strings.Contains(stderr.String(), "not a loopback address") {
		t.Errorf("stderr %q, want a warning", stderr.String())
	}
}
