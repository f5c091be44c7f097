package main

import (
	"bytes"
	"cmp"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"hivearbiter/ci"
	"hivearbiter/enginekit/uhpserver/uhpfake"
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
// would locally: 0 for H1, 3 for H0 (at a bound or at the cap), 4 at the cap when asked to end undecided there, with a progress line as the
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
		atCap   []string // the run's own -sprt words
		seed    string   // "3" if ""; a run of the same games is the same run, whatever its test
	}{
		{"H1", append(append([]string{}, good...), bad...), "100", ci.ExitOK, nil, ""},
		{"H0", append(append([]string{}, bad...), good...), "100", ci.ExitH0, nil, ""},
		// At its cap of one pair (two draws) the test decides by its final threshold, H1 here.
		{"at-cap", append(append([]string{}, good...), fakeEngineSpec("other", detConfig("other", 0, 0))...), "1", ci.ExitOK, nil, ""},
		{"no-decision", append(append([]string{}, good...), fakeEngineSpec("other", detConfig("other", 0, 0))...), "1", ci.ExitInconclusive,
			[]string{"at_cap=inconclusive"}, "4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"submit", "-wait", "-creds", filepath.Join(dir, "submitter.creds"), "-rounds", tc.rounds, "-seed", cmp.Or(tc.seed, "3"),
				"-openings", "plies=2", "-each", "st=0.2", "fractional=true", "-failure-streak", "0", "-sprt"}, append(append(append([]string{}, sprt...), tc.atCap...), tc.engines...)...)
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), args, &stdout, &stderr)
			if code := exitCode(err, &stderr); code != tc.code {
				t.Fatalf("submit -wait: exit code %d, want %d\n%s%s", code, tc.code, stdout.String(), stderr.String())
			}
			out := stdout.String()
			if !regexp.MustCompile(`(?m)^Run \w+ active: \d+/\d+ games, W/D/L \d+/\d+/\d+, Elo .*, LLR `).MatchString(out) {
				t.Errorf("no progress line while the run was played:\n%s", out)
			}
			if !regexp.MustCompile(`(?m)^Run \w+ finished: \d+/\d+ games, W/D/L .*: the (SPRT accepted H[01]( at its cap \(LLR \S+ against the final threshold \S+\))?|schedule is complete)$`).MatchString(out) {
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
			want := "SPRT of the records' run: elo0=0 elo1=100 alpha=0.1 beta=0.1 model=normalized"
			for _, word := range tc.atCap {
				want += " " + word
			}
			if want += ", at most "; !strings.Contains(stats.String(), want) {
				t.Errorf("stats does not say the run's test (%q):\n%s", want, stats.String())
			}
		})
	}
}

// TestSubmitRefusesWrapperWithoutItsBinary: an engine given as a #!/bin/sh wrapper that execs
// a program beside it (which plays here) is refused by submit, exit code 2, with the file it
// would leave behind and how to give the directory instead; nothing reaches the pool. The same
// engine given as its directory is taken, and the submitter is told which workers can play it.
func TestSubmitRefusesWrapperWithoutItsBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a #!/bin/sh wrapper")
	}
	dir := inProcessPool(t)
	bot := t.TempDir()
	// The wrapper's program, a file of its own in the directory (a link out of it would not be
	// packed): a script that runs this test binary, as small as a script, where a copy of the
	// binary (tens of MB) would be hashed and packed under the race detector for a minute.
	if err := os.WriteFile(filepath.Join(bot, "engine"), []byte("#!/bin/sh\nexec '"+os.Args[0]+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// sh alone: a machine with only Go has no dirname on PATH.
	wrapper := filepath.Join(bot, "run.sh")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec \"${0%/*}/engine\" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := "env=" + uhpfake.Env(detConfig("wrapped", 0, 0))
	common := []string{"-rounds", "1", "-seed", "3", "-openings", "plies=2", "-each", "depth=1"}
	args := append([]string{"submit", "-creds", filepath.Join(dir, "submitter.creds"), "-engine", "cmd=" + wrapper, "name=wrapped", env}, common...)
	args = append(args, fakeEngineSpec("other", detConfig("other", 0, 0))...)
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != ci.ExitUsage {
		t.Fatalf("submit of a wrapper without its binary: exit code %d, want %d\n%s%s", code, ci.ExitUsage, stdout.String(), stderr.String())
	}
	for _, want := range []string{`engine "wrapped"`, "names engine beside it, which would not travel", "dir=" + bot + " cmd=./run.sh", "nothing was submitted"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the refusal does not say %q:\n%s", want, stderr.String())
		}
	}
	if runs := poolRuns(t, dir); len(runs) != 0 {
		t.Errorf("%d runs in the pool after the refusal", len(runs))
	}

	stdout.Reset()
	args = append([]string{"submit", "-creds", filepath.Join(dir, "submitter.creds"), "-engine", "dir=" + bot, "cmd=./run.sh", "name=wrapped", env}, common...)
	args = append(args, fakeEngineSpec("other", detConfig("other", 0, 0))...)
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("submit of the wrapper's directory: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "Workers that can play it: w1\n") {
		t.Errorf("submit does not say which workers can play the run:\n%s", stdout.String())
	}
}
