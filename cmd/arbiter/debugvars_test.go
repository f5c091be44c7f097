package main

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"

	"hivearbiter/internal/syncbuf"
)

// TestDebugVars: with ARBITER_DEBUG_VARS the arbiter serves its goroutine count and memory on
// loopback until stopped; an address off loopback is refused with a warning, and without the
// variable nothing listens.
func TestDebugVars(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	t.Setenv(debugVarsEnv, addr)
	var stderr syncbuf.Buffer
	stop := serveDebugVars(&stderr)
	resp, err := http.Get("http://" + addr + "/debug/vars")
	if err != nil {
		stop()
		t.Fatal(err)
	}
	var vars debugSnapshot
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

	t.Setenv(debugVarsEnv, "0.0.0.0:0")
	serveDebugVars(&stderr)()
	if !strings.Contains(stderr.String(), "not a loopback address") {
		t.Errorf("stderr %q, want a warning", stderr.String())
	}
}
