package debugvars

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

// Env names the loopback address of the window.
const Env = "ARBITER_DEBUG_VARS"

// Snapshot is what /debug/vars reports.
type Snapshot struct {
	Goroutines int    `json:"goroutines"`
	HeapAlloc  uint64 `json:"heap_alloc"`
	HeapSys    uint64 `json:"heap_sys"`
	Sys        uint64 `json:"sys"`
	NumGC      uint32 `json:"num_gc"`
}

// Take is the process's snapshot now.
func Take() Snapshot {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return Snapshot{Goroutines: runtime.NumGoroutine(), HeapAlloc: m.HeapAlloc, HeapSys: m.HeapSys, Sys: m.Sys, NumGC: m.NumGC}
}

// Serve serves /debug/vars at the address in Env, if it is set, until the returned function
// is called. An address it cannot listen on is a warning on stderr, after the program's name,
// not a failure: the run is what matters.
func Serve(stderr io.Writer, program string) (stop func()) {
	addr := os.Getenv(Env)
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
		fmt.Fprintf(stderr, "%s: warning: %s: %v\n", program, Env, err)
		return func() {}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /debug/vars", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(Take())
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
