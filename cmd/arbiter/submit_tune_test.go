package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hivearbiter/ci"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/pool"
	"hivearbiter/tune"
)

// "submit tune" refuses, before it reaches any server, a tune its server would refuse: an
// engine whose protocol has no options, with the reason, as a usage error.
func TestSubmitTuneRefusals(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"gamestring", []string{"-creds", "nowhere.creds", "-param", "X,1,0,2,1,1", "-engine", "proto=gamestring", "cmd=" + os.Args[0], "st=1"},
			"its protocol (gamestring) has none: a one-engine player has no options to set"},
		{"no creds", []string{"-param", "X,1,0,2,1,1", "-engine", "cmd=" + os.Args[0], "depth=1"}, "-creds FILE is required"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		args := append([]string{"submit", "tune", "-iterations", "2"}, tt.args...)
		err := run(context.Background(), args, io.Discard, &stderr)
		if code := exitCode(err, &stderr); code != ci.ExitUsage || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%s: exit %d, %s; want %d and %q", tt.name, code, stderr.String(), ci.ExitUsage, tt.want)
		}
	}
}

// TestSubmitTuneAcrossServerKill: a tune of hivebot's Aggression submitted with "arbiter
// submit tune" to a pool's server in its own process, played by a worker process; the server is
// SIGKILLed mid-tune and started again, and the tune ends with each iteration recorded once,
// its chain of values unbroken, in records that arbiter report draws.
func TestSubmitTuneAcrossServerKill(t *testing.T) {
	if testing.Short() {
		t.Skip("separate processes: not in -short")
	}
	t.Parallel()
	begin := time.Now()
	phase := func(what string) { t.Logf("%5.1fs %s", time.Since(begin).Seconds(), what) }
	dir, addr := t.TempDir(), testenv.FreeAddr(t)
	sdir := filepath.Join(dir, "srv")
	srv := poolServer(t, sdir, addr)
	creds := filepath.Join(dir, "w1.creds")
	arbiterOK(t, "server", "worker", "add", "w1", "-dir", sdir, "-o", creds)
	// No bench: hivebot's takes a minute under the race detector on a loaded machine, and the
	// worker's first batch waits for it, so the tune would stall for it (TestTuneWorkerReportsEngineSpeed
	// tests the bench of a tune's engine).
	startArbiter(t, "worker", "-creds", creds, "-concurrency", "2", "-bench=false")
	const iterations = 12
	arbiterOK(t, "submit", "tune", "-creds", filepath.Join(sdir, "submitter.creds"), "-engine", "builtin=hivebot", "depth=1",
		"-param", "Aggression,2,1,5,0.5,0.05", "-iterations", strconv.Itoa(iterations), "-seed", "3", "-openings", "plies=2", "-maxplies", "20")
	phase("submitted")
	runs := poolRuns(t, sdir)
	if len(runs) != 1 || runs[0].Format != "tune" {
		t.Fatalf("the pool's runs: %+v, want one tune", runs)
	}
	pairs := func() int {
		_, recs, _, _ := tune.ReadRecords(runs[0].Records)
		return len(recs)
	}
	waitFor(t, "pairs of the tune", 60*time.Second, func() bool { return pairs() >= 3 })
	phase("pairs")
	srv.kill()
	if n := pairs(); n >= iterations {
		t.Fatalf("the tune finished (%d pairs) before the server was killed", n)
	}
	poolServer(t, sdir, addr)
	phase("restarted")
	waitFor(t, "the tune to finish", 60*time.Second, func() bool { return poolRuns(t, sdir)[0].State == pool.StateFinished })
	phase("finished")
	h, recs, torn, err := tune.ReadRecords(runs[0].Records)
	if err != nil || torn != 0 || len(recs) != iterations {
		t.Fatalf("the tune's records: %d pairs, %d bytes torn, %v; want %d pairs", len(recs), torn, err, iterations)
	}
	seen := map[int]bool{}
	theta := []float64{h.Params[0].Start}
	for _, r := range recs {
		if seen[r.Iteration] {
			t.Errorf("iteration %d recorded twice", r.Iteration)
		}
		seen[r.Iteration] = true
		if !slices.Equal(r.Before, theta) {
			t.Errorf("iteration %d: theta before %v, want the last pair's after, %v", r.Iteration, r.Before, theta)
		}
		theta = r.After
	}
	if final := poolRuns(t, sdir)[0].Values; final != tune.Words(h.Params, theta) {
		t.Errorf("the runs list shows %q, want the last pair's values, %q", final, tune.Words(h.Params, theta))
	}
	arbiterOK(t, "report", "-o", filepath.Join(dir, "tune.html"), runs[0].Records)
}
