package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"hivearbiter/ci"
	"hivearbiter/pool"
)

// inProcessPool is a pool's server on loopback in this process, with one worker of two slots
// that plays the fake engines of this test binary (fetched as the runs' artifacts); it returns
// the server's directory.
func inProcessPool(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	dir := t.TempDir()
	srv, err := pool.Start(ctx, pool.Config{Dir: dir, Listen: "127.0.0.1:0", Batch: 2 * time.Second, AckWait: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := pool.ConnectAs(dir, pool.RoleAdmin, "")
	if err != nil {
		t.Fatal(err)
	}
	creds, err := admin.AddWorker(ctx, "w1")
	admin.Close()
	if err != nil {
		t.Fatal(err)
	}
	w := &pool.Worker{Name: "w1", Creds: creds, Concurrency: 2, SkipBench: true, Cache: t.TempDir()}
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := w.Run(ctx); err != nil {
			t.Errorf("worker: %v", err)
		}
	})
	t.Cleanup(func() { cancel(); wg.Wait(); srv.Close() })
	return dir
}

var recordsOnServer = regexp.MustCompile(`its records: (\S+) on the server`)

// TestSubmitWaitExitCodes: "submit -wait" follows its run to the end and exits as the match
// would locally: 0 for H1, 3 for H0, 4 at the cap with no decision, with a progress line as the
// games come; and "arbiter stats" of the run's records alone, which carry its SPRT, prints the
// same decision and exits with the same code.
func TestSubmitWaitExitCodes(t *testing.T) {
	dir := inProcessPool(t)
	defer func(d time.Duration) { followInterval = d }(followInterval)
	followInterval = 100 * time.Millisecond
	good, bad := fakeEngineSpec("good", detConfig("good", 0, 0)), fakeEngineSpec("bad", detConfig("bad", 25, 0))
	sprt := []string{"elo0=0", "elo1=100", "alpha=0.1", "beta=0.1"}
	for _, tc := range []struct {
		name    string
		engines []string
		rounds  string
		code    int
	}{
		{"H1", append(append([]string{}, good...), bad...), "100", ci.ExitOK},
		{"H0", append(append([]string{}, bad...), good...), "100", ci.ExitH0},
		{"no-decision", append(append([]string{}, good...), fakeEngineSpec("other", detConfig("other", 0, 0))...), "1", ci.ExitInconclusive},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"submit", "-wait", "-creds", filepath.Join(dir, "submitter.creds"), "-rounds", tc.rounds, "-seed", "3",
				"-openings", "plies=2", "-each", "st=0.2", "fractional=true", "-failure-streak", "0", "-sprt"}, append(append([]string{}, sprt...), tc.engines...)...)
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), args, &stdout, &stderr)
			if code := exitCode(err, &stderr); code != tc.code {
				t.Fatalf("submit -wait: exit code %d, want %d\n%s%s", code, tc.code, stdout.String(), stderr.String())
			}
			out := stdout.String()
			if !regexp.MustCompile(`(?m)^Run \w+ active: \d+/\d+ games, W/D/L \d+/\d+/\d+, Elo .*, LLR `).MatchString(out) {
				t.Errorf("no progress line while the run was played:\n%s", out)
			}
			if !regexp.MustCompile(`(?m)^Run \w+ finished: \d+/\d+ games, W/D/L .*: the (SPRT accepted H[01]|schedule is complete)$`).MatchString(out) {
				t.Errorf("no last line of the run's end:\n%s", out)
			}
			m := recordsOnServer.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("submit did not say where the run's records are:\n%s", out)
			}
			var stats bytes.Buffer
			err = run(context.Background(), []string{"stats", m[1]}, &stats, &stderr)
			if code := exitCode(err, &stderr); code != tc.code {
				t.Errorf("stats of the run's records alone: exit code %d, want %d\n%s%s", code, tc.code, stats.String(), stderr.String())
			}
			if got := printedDecisionCode(t, stats.String()); got != tc.code {
				t.Errorf("stats of the run's records alone printed a decision of exit code %d, want %d:\n%s", got, tc.code, stats.String())
			}
			if !strings.Contains(stats.String(), "SPRT of the records' run: elo0=0 elo1=100 alpha=0.1 beta=0.1 model=normalized, at most ") {
				t.Errorf("stats does not say the run's test:\n%s", stats.String())
			}
		})
	}
}
