package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"time"
)

// debugVarsEnv names a loopback address at which the arbiter serves /debug/vars: its goroutine
// count and memory statistics as JSON. It is for the soak harness (go run ./internal/cmd/soak),
// which samples a long run from outside: memory and file descriptors can be read from /proc,
// goroutines cannot. An environment entry and not a flag, because it is a window for
// developers, not a setting of a run, and it must not change a run's fingerprint or its help.
const debugVarsEnv = "ARBITER_DEBUG_VARS"

// serveDebugVars serves /debug/vars at the address in debugVarsEnv, if it is set, until the
// returned function is called. An address it cannot listen on is a warning, not a failure:
// the run is what matters.
func serveDebugVars(stderr io.Writer) (stop func()) {
	addr := os.Getenv(debugVarsEnv)
	if addr == "" {
		return func() {}
	}
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err == nil && (ip == nil || !ip.IsLoopback()) {
		err = fmt.Errorf("%s is not a loopback address", host)
	}
	var ln net.Listener
	if err == nil {
		ln, err = net.Listen("tcp", addr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: warning: %s: %v\n", programName, debugVarsEnv, err)
		return func() {}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /debug/vars", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(debugVars())
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(ln)
	}()
	return func() {
		srv.Close()
		<-done
	}
}

// debugSnapshot is what /debug/vars reports.
type debugSnapshot struct {
	Goroutines int    `json:"goroutines"`
	HeapAlloc  uint64 `json:"heap_alloc"`
	HeapSys    uint64 `json:"heap_sys"`
	Sys        uint64 `json:"sys"`
	NumGC      uint32 `json:"num_gc"`
}

func debugVars() debugSnapshot {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return debugSnapshot{Goroutines: runtime.NumGoroutine(), HeapAlloc: m.HeapAlloc, HeapSys: m.HeapSys, Sys: m.Sys, NumGC: m.NumGC}
}
