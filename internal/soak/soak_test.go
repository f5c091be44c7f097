//go:build linux

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// round1 is the first round of a soak's gauntlet (seed 28): hivebot against each fake, both
// colours, with two faults among the endings (a time forfeit of hangy's and of late's).
func round1(t *testing.T) []results.Record {
	t.Helper()
	recs, err := results.ReadFile(filepath.Join("testdata", "round1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestAudit: the audit passes the records of a round as they are and catches each way a
// records file can be wrong.
func TestAudit(t *testing.T) {
	adj := arbiter.Adjudication{MaxPlies: 120}
	for _, tc := range []struct {
		name   string
		change func([]results.Record) []results.Record
		// want checks the audit.
		want func(*audit) bool
	}{
		{"as played", func(r []results.Record) []results.Record { return r },
			func(a *audit) bool {
				return a.ok() && a.Endings["time-forfeit hangy"] == 1 && a.Endings["queen-surrounded"] == 12
			}},
		{"a game missing", func(r []results.Record) []results.Record { return slices.Delete(r, 5, 6) },
			func(a *audit) bool { return !a.ok() && slices.Equal(a.Missing, []int{5}) }},
		{"a game twice", func(r []results.Record) []results.Record { return append(r, r[7]) },
			func(a *audit) bool { return !a.ok() && slices.Equal(a.Duplicated, []int{7}) && len(a.Missing) == 0 }},
		{"a move changed", func(r []results.Record) []results.Record {
			r[2].Moves = slices.Clone(r[2].Moves)
			r[2].Moves[3].Move = "wQ wQ"
			return r
		}, func(a *audit) bool { return !a.ok() && len(a.Invalid) == 1 && strings.Contains(a.Invalid[0], "game 3") }},
		{"a result the position does not give", func(r []results.Record) []results.Record {
			r[0].Result, r[0].Reason, r[0].Culprit = results.BlackWins, results.ReasonStall, "White"
			return r
		}, func(a *audit) bool { return !a.ok() && len(a.Invalid) == 1 }},
		{"hivebot loses on time", func(r []results.Record) []results.Record {
			r[3].White, r[3].Black = r[3].Black, r[3].White // hangy's forfeit is now hivebot's
			return r
		}, func(a *audit) bool {
			return !a.ok() && len(a.HealthyTimeLosses) == 1 && len(a.HealthyFaults) == 1 && len(a.Invalid) == 0
		}},
		{"another run's record", func(r []results.Record) []results.Record {
			r[9].Run = "0123456789ab"
			return r
		}, func(a *audit) bool { return !a.ok() && len(a.Invalid) == 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := auditRecords(tc.change(round1(t)), 14, adj)
			if !tc.want(a) {
				t.Errorf("audit %+v", *a)
			}
		})
	}
}

// TestFlat: the criterion passes a flat series with a warm-up and noise, and fails one that
// grows; too few samples decide nothing.
func TestFlat(t *testing.T) {
	series := func(n int, f func(i int) int64) []Sample {
		var s []Sample
		for i := range n {
			s = append(s, Sample{Up: time.Duration(i) * time.Second, RSSKiB: f(i), Goroutines: 40, FDs: 30})
		}
		return s
	}
	c := flatCriteria["RSS"]
	for _, tc := range []struct {
		name    string
		samples []Sample
		flat    bool
		decided bool
	}{
		{"flat with noise", series(400, func(i int) int64 { return 30000 + int64(i%7)*500 }), true, true},
		{"a warm-up spike", series(400, func(i int) int64 {
			if i < 5 {
				return 90000
			}
			return 30000
		}), true, true},
		{"a leak of 100 KiB a sample", series(400, func(i int) int64 { return 30000 + int64(i)*100 }), false, true},
		{"too few", series(30, func(int) int64 { return 30000 }), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := judgeFlat("RSS", tc.samples, 5*time.Second, c)
			if v.Flat != tc.flat || v.Decided != tc.decided {
				t.Errorf("%v; want flat %v, decided %v", v, tc.flat, tc.decided)
			}
		})
	}
	// Samples of a new process count after its own warm-up: a restart is not a step.
	var restarts []Sample
	for life := range 20 {
		for up := range 30 {
			rss := int64(30000)
			if up < 3 {
				rss = 8000 // a process just started is small
			}
			restarts = append(restarts, Sample{Life: life, Up: time.Duration(up) * time.Second, RSSKiB: rss})
		}
	}
	if v := judgeFlat("RSS", restarts, 5*time.Second, c); !v.Flat || v.Samples != 20*25 {
		t.Errorf("restarts: %v", v)
	}
}

// TestLineCounter: lines are counted as they are appended, and again after the file shrinks.
func TestLineCounter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "records.jsonl")
	var c lineCounter
	if n := c.count(path); n != 0 {
		t.Fatalf("%d lines in no file", n)
	}
	write := func(text string, flag int) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|flag, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(text)
		f.Close()
	}
	write("a\nb\nc", os.O_APPEND)
	if n := c.count(path); n != 2 {
		t.Fatalf("%d lines, want 2 (and a cut one)", n)
	}
	write("c\nd\n", os.O_APPEND)
	if n := c.count(path); n != 4 {
		t.Fatalf("%d lines, want 4", n)
	}
	write("a\n", os.O_TRUNC)
	if n := c.count(path); n != 1 {
		t.Fatalf("%d lines after the file shrank, want 1", n)
	}
}

// TestCountFaults: a fault log is counted by fault name.
func TestCountFaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "faults.log")
	os.WriteFile(path, []byte("hang bestmove 12\nleak bestmove 3\nhang bestmove 40\n"), 0o644)
	got, err := countFaults(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := sortedCounts(got); s != "hang 2, leak 1" {
		t.Errorf("counted %q", s)
	}
	if got, err := countFaults(filepath.Join(t.TempDir(), "none")); err != nil || len(got) != 0 {
		t.Errorf("no log: %v, %v; want nothing counted", got, err)
	}
}

// TestStallOn: the staller of a distributed soak hangs on newgame, of a local one on play,
// and the arbiter's engines carry the healthy engines' generous clock.
func TestStallOn(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{{nil, "play"}, {[]string{"-workers", "2"}, "newgame"}, {[]string{"-workers", "2", "-stall-on", "play"}, "play"}} {
		o, err := parseOptions(tc.args, os.Stderr)
		if err != nil || o.stallOn != tc.want {
			t.Errorf("%q: stall on %q (%v), want %q", tc.args, o.stallOn, err, tc.want)
		}
	}
	if _, err := parseOptions([]string{"-stall-on", "bestmove"}, os.Stderr); err == nil {
		t.Error("-stall-on bestmove was accepted")
	}
	args := strings.Join(engineArgs("hb", "fake", "log", "play", 1, false), " ")
	for _, engine := range strings.Split(args, "-engine ")[1:] {
		name, _, _ := strings.Cut(strings.TrimPrefix(engine, "name="), " ")
		if want := map[bool]string{true: healthyTime, false: fakeTime}[healthy[name]]; !strings.Contains(engine+" ", " "+want+" ") {
			t.Errorf("engine %s: %q, want its time control %s", name, engine, want)
		}
	}
	if worker := strings.Join(engineArgs("hb", "fake", "log", "play", 1, true), " "); strings.Contains(worker, "st=") {
		t.Errorf("a worker's engines carry a time control: %s", worker)
	}
}
