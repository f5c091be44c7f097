//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/pool"
	"hivearbiter/results"
)

// serverLives are the samples of a pool server killed three times: four processes of 60
// samples each, at two active runs and two workers, one of which finishes every 10 samples.
// The sample after each end is taken before the soak submits the next run (one active run,
// and the ended run's share of goroutines and descriptors gone, 6 and 2 fewer), so it is
// grouped apart. perRun is what the server keeps of each run it finished, in goroutines and
// descriptors.
func serverLives(perRun int) []Sample {
	var out []Sample
	games := 0
	for l := range 4 {
		for i := range 60 {
			ended := i / 10
			s := Sample{Life: l, Up: time.Duration(10+i) * time.Second, Settled: true, Games: games, LifeGames: i + 1,
				Runs: 2, Workers: 2, LifeRuns: ended, RSSKiB: 60000 + int64(i%3)*500,
				Goroutines: 70 + perRun*ended, FDs: 20 + perRun/8*ended}
			if i%10 == 0 && i > 0 {
				s.Runs, s.Goroutines, s.FDs = 1, s.Goroutines-6, s.FDs-2
			}
			out = append(out, s)
			games++
		}
	}
	return out
}

// TestServerFlat: a pool server that keeps 16 goroutines and 2 descriptors of each run it
// finishes (as the server kept each finished run's two streams) is judged not flat, by the
// test per run above all; one that keeps nothing is flat although its level drops between a
// run's end and the next submission; and a soak in which no process finished a run while it
// was watched is not judged flat for want of a run's end.
func TestServerFlat(t *testing.T) {
	for _, name := range []string{"goroutines", "fds"} {
		if v := judgeServerFlat(name, serverLives(0), 5*time.Second, flatCriteria[name]); !v.Decided() || !v.Flat {
			t.Errorf("a server that keeps nothing: %s", v)
		}
		v := judgeServerFlat(name, serverLives(16), 5*time.Second, flatCriteria[name])
		if !v.Decided() || v.Flat || v.PerRun == nil || v.PerRun.within(v.Limit) {
			t.Errorf("a server that keeps 16 goroutines and 2 descriptors a run: %s", v)
		}
		// judgeFlat, the arbiter's, asks nothing of runs.
		if v := judgeFlat(name, serverLives(0), 5*time.Second, flatCriteria[name]); v.PerRun != nil {
			t.Errorf("an arbiter's verdict has a test per run: %s", v)
		}
	}
	noEnd := serverLives(0)
	for i := range noEnd {
		noEnd[i].LifeRuns = 0
	}
	if v := judgeServerFlat("goroutines", noEnd, 5*time.Second, flatCriteria["goroutines"]); v.Decided() || v.Flat {
		t.Errorf("no run ended in a watched process, yet: %s", v)
	}
}

// TestSummaryDiff: what the server says of a run must be what arbiter stats says of its
// records: games, each engine's results, faults.
func TestSummaryDiff(t *testing.T) {
	summary := func() *results.Summary {
		return &results.Summary{Status: "finished", Games: 14,
			Engines: []results.EngineSummary{{Name: "hivebot", Games: 14, Wins: 12, Draws: 1, Losses: 1, Points: 12.5}},
			Faults:  map[string]results.Faults{"hangy": {results.ReasonTimeForfeit: 1}}}
	}
	for _, tc := range []struct {
		name   string
		change func(*results.Summary)
		want   string // in the difference; "" for none
	}{
		{"the same (the status is the command's own)", func(s *results.Summary) { s.Status = "records" }, ""},
		{"a game more", func(s *results.Summary) { s.Games++ }, "games 14 against 15"},
		{"a win for a draw", func(s *results.Summary) { s.Engines[0].Wins, s.Engines[0].Draws = 13, 0 }, "engines"},
		{"a fault more", func(s *results.Summary) { s.Faults["hangy"][results.ReasonStall] = 1 }, "faults"},
		{"a fault fewer", func(s *results.Summary) { s.Faults = nil }, "faults"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			other := summary()
			tc.change(other)
			got := summaryDiff(summary(), other)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestAuditAdd: the runs' audits sum, each run's flaws kept.
func TestAuditAdd(t *testing.T) {
	adj := arbiter.Adjudication{MaxPlies: 120}
	sum := &audit{Endings: make(map[string]int)}
	sum.add(auditRecords(round1(t), 14, adj))
	flawed := round1(t)
	sum.add(auditRecords(append(flawed[:5], flawed[6:]...), 14, adj))
	if sum.Scheduled != 28 || sum.Recorded != 27 || len(sum.Missing) != 1 || sum.Missing[0] != 5 ||
		sum.Endings["time-forfeit hangy"] != 2 || len(sum.Invalid) != 0 {
		t.Errorf("sum %+v", *sum)
	}
}

// TestGlobCounter: the records of every run's file are counted, a file that appears later too.
func TestGlobCounter(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	count := globCounter(filepath.Join(dir, "*.jsonl"))
	if n := count(); n != 0 {
		t.Fatalf("no file: %d", n)
	}
	write("a.jsonl", "1\n2\n")
	write("b.txt", "not a run\n")
	if n := count(); n != 2 {
		t.Fatalf("one run: %d, want 2", n)
	}
	write("b.jsonl", "1\n")
	write("a.jsonl", "1\n2\n3\n")
	if n := count(); n != 4 {
		t.Fatalf("two runs: %d, want 4", n)
	}
}

// TestSubmitAnswers: the run's id is read from what arbiter submit prints when it hands a run
// over, and from its error when the run is in the pool already (a submission the server took
// while the soak's submit was cut off).
func TestSubmitAnswers(t *testing.T) {
	ok := "Run d429cf578671 submitted: 14 games (gauntlet); its records: /p/runs/d429cf578671.jsonl on the server\n"
	if m := submittedLine.FindStringSubmatch(ok); m == nil || m[1] != "d429cf578671" {
		t.Errorf("submitted: %q", m)
	}
	again := "arbiter: pool: run 0a1b2c3d4e5f is in the pool already (active)\n"
	if m := alreadyLine.FindStringSubmatch(again); m == nil || m[1] != "0a1b2c3d4e5f" {
		t.Errorf("in the pool already: %q", m)
	}
	if m := alreadyLine.FindStringSubmatch("arbiter: nats: no servers available for connection\n"); m != nil {
		t.Errorf("a failure taken for a run: %q", m)
	}
}

// TestSPRTDecided: an SPRT that decided at its third pair must hold its first six games once
// each; a game after them may be missing (its pair was not played), and any game twice is a
// flaw still.
func TestSPRTDecided(t *testing.T) {
	adj := arbiter.Adjudication{MaxPlies: 120}
	st := pool.RunState{State: pool.StateFinished, Reason: "the SPRT accepted H1",
		Summary: &results.Summary{SPRT: &results.SPRTSummary{Decision: "H1", Pairs: 3}}}
	if got := sprtDecided(st); got != 3 {
		t.Fatalf("decided at %d pairs, want 3", got)
	}
	if got := sprtDecided(pool.RunState{State: pool.StateFinished, Reason: "the schedule is complete", Summary: st.Summary}); got != 0 {
		t.Fatalf("a run that played its schedule: decided at %d pairs", got)
	}
	for _, tc := range []struct {
		name           string
		keep           func([]results.Record) []results.Record
		missing, twice int
	}{
		{"the first three pairs and one more game", func(r []results.Record) []results.Record { return append(r[:6], r[9]) }, 0, 0},
		{"a deciding game missing", func(r []results.Record) []results.Record { return append(r[:5], r[9]) }, 1, 0},
		{"a later game twice", func(r []results.Record) []results.Record { return append(r[:7], r[6]) }, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := auditRecords(tc.keep(round1(t)), 14, adj)
			a.decidedAt(6)
			if len(a.Missing) != tc.missing || len(a.Duplicated) != tc.twice || a.Scheduled != 6 {
				t.Errorf("audit %+v", *a)
			}
		})
	}
}

// TestLeftovers: the processes left once the soak is over are those that carry its mark in
// their environment, or whose program is in its directory; they are counted and killed. A
// process of another soak running beside it, the same program outside the directory and
// without the mark, is left alone.
func TestLeftovers(t *testing.T) {
	sleep := testenv.NeedProgram(t, "sleep", "apt-get install coreutils")
	// hivebot is the program the soaks beside this one share (.ci/soak builds it once).
	s := &soak{o: &options{dir: t.TempDir()}, hivebot: sleep}
	copied := filepath.Join(s.o.dir, "cache-1", "sleep")
	if err := os.MkdirAll(filepath.Dir(copied), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied, data, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(program string, env ...string) *exec.Cmd {
		c := exec.Command(program, "30")
		c.Env = append(os.Environ(), env...)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		return c
	}
	marked := run(sleep, s.mark())
	inDir := run(copied)
	other := run(sleep, markVar+"="+s.o.dir+"-other")
	left := s.leftovers()
	if n := left["sleep of "+kindOf(os.Getpid())]; n != 2 || len(left) != 1 {
		t.Errorf("left: %v, want the marked process and the one in the directory", left)
	}
	for _, c := range []*exec.Cmd{marked, inDir} {
		if err := c.Wait(); err == nil {
			t.Errorf("process %d was not killed", c.Process.Pid)
		}
	}
	if !isProcessAlive(other.Process.Pid) {
		t.Errorf("another soak's process was killed")
	}
}

func isProcessAlive(pid int) bool { return syscall.Kill(pid, 0) == nil && !zombie(pid) }

// TestPoolOptions: -pool plays each run's gauntlet of -run-games, on two workers unless told,
// with the staller hanging on newgame as in any soak with workers.
func TestPoolOptions(t *testing.T) {
	for _, tc := range []struct {
		args          []string
		workers, runs int
		games         int
		fails         bool
	}{
		{[]string{"-pool"}, 2, 20, 14, false},
		{[]string{"-pool", "-workers", "3", "-runs", "5", "-run-games", "28", "-games", "5000"}, 3, 5, 28, false},
		{[]string{"-pool", "-active", "0"}, 0, 0, 0, true},
		{[]string{"-pool", "-runs", "0"}, 0, 0, 0, true},
	} {
		var stderr strings.Builder
		o, err := parseOptions(tc.args, &stderr)
		if tc.fails {
			if err == nil {
				t.Errorf("%q: no error", tc.args)
			}
			continue
		}
		if err != nil || !o.pool || o.workers != tc.workers || o.runs != tc.runs || o.games != tc.games || o.stallOn != "newgame" {
			t.Errorf("%q: %+v, %v", tc.args, o, err)
		}
	}
}
