//go:build linux

package main

import (
	"math/rand/v2"
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

// life is how one synthetic arbiter process behaves: it reads the records and tries its
// engines for idle samples (no engine, 8 goroutines), then records a game a sample while its
// seat pools fill (two engines, then one more every two games, up to 16), for work samples.
type life struct{ idle, work int }

// synthetic builds the samples of a run of lives, a second apart, past any warm-up: per
// engine 3 goroutines and 4 descriptors over a base of 9 and 12, and noise of a few. leak
// adds to a sample's goroutines and descriptors (and RSS) what a leak would have made by
// then, given the games its process and the run recorded.
func synthetic(lives []life, leak func(lifeGames, games int) int) []Sample {
	rng := rand.New(rand.NewPCG(28, 1))
	var out []Sample
	games := 0
	for l, lf := range lives {
		for i := range lf.idle + lf.work {
			s := Sample{Life: l, Up: time.Duration(10+i) * time.Second, Games: games, Settled: true}
			if i >= lf.idle {
				s.LifeGames = i - lf.idle + 1
				games++
				s.Games = games
				s.Engines = min(2+s.LifeGames/2, 16)
			}
			extra := leak(s.LifeGames, s.Games) + rng.IntN(3)
			s.Goroutines, s.FDs = 9+3*s.Engines+extra, 12+4*s.Engines+extra
			s.RSSKiB = int64(24000 + 100*s.Engines + 64*extra + rng.IntN(500))
			out = append(out, s)
		}
	}
	return out
}

// killedAtRandom are n lives of the soak: killed 3 to 92 games after their first (the
// seed-28 soak's lives recorded 48 games, half of them, up to 148), with starts of 2 samples
// except in a stretch (from, to) of slow ones, of 25.
func killedAtRandom(n, from, to int) []life {
	rng := rand.New(rand.NewPCG(28, 2))
	lives := make([]life, n)
	for i := range lives {
		lives[i] = life{idle: 2, work: 3 + rng.IntN(90)}
		if i >= from && i < to {
			lives[i].idle = 25
		}
	}
	return lives
}

// quarters is the criterion before this one: the median of the last quarter of the samples
// past a process's first 5 s against the second quarter's, and what it said.
func quarters(name string, samples []Sample) bool {
	var xs []float64
	for _, s := range samples {
		if s.Up >= 5*time.Second {
			xs = append(xs, quantity(name, s))
		}
	}
	q := len(xs) / 4
	c := flatCriteria[name]
	return median(xs[len(xs)-q:]) <= median(xs[q:2*q])*c.Ratio+c.Slack
}

// TestFlat: the criterion passes runs whose processes are idle for a while at each start, and
// fill their seat pools as they play, and fails a leak, in a process or across the run; the
// quarters of the run, the criterion before, failed the first and passed the second.
func TestFlat(t *testing.T) {
	none := func(int, int) int { return 0 }
	perGame := func(lifeGames, _ int) int { return lifeGames / 4 }
	for _, tc := range []struct {
		name     string
		samples  []Sample
		flat     bool
		quarters string // what the criterion before said of goroutines and descriptors, if it matters
	}{
		{"killed at random", synthetic(killedAtRandom(120, 0, 0), none), true, ""},
		// The seed-28 soak: many slow resumes in the second quarter of the run.
		{"slow resumes for a while", synthetic(killedAtRandom(120, 30, 60), none), true, "not flat"},
		// Short lives hide a leak from the quarters: every quarter holds the same saw.
		{"a goroutine and a descriptor leaked every 4 games", synthetic(killedAtRandom(120, 0, 0), perGame), false, "flat"},
		{"slow resumes and a leak", synthetic(killedAtRandom(120, 30, 60), perGame), false, ""},
		{"a leak that outlives the process", synthetic(killedAtRandom(120, 0, 0), func(_, games int) int { return games / 100 }), false, ""},
		{"one long life", synthetic([]life{{idle: 5, work: 600}}, none), true, ""},
		{"one long life and a slow leak", synthetic([]life{{idle: 5, work: 600}}, func(lifeGames, _ int) int { return lifeGames / 40 }), false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, name := range []string{"goroutines", "fds"} {
				v := judgeFlat(name, tc.samples, 5*time.Second, flatCriteria[name])
				if !v.Decided() || v.Flat != tc.flat {
					t.Errorf("%v; want flat %v", v, tc.flat)
				}
				said := map[bool]string{true: "flat", false: "not flat"}[quarters(name, tc.samples)]
				if tc.quarters != "" && said != tc.quarters {
					t.Errorf("%s: the quarters said %s, want %s: the case does not show what it is for", name, said, tc.quarters)
				}
			}
		})
	}
	// The end of a run: the workers run out of games and close their engines, the values fall.
	end := synthetic(killedAtRandom(120, 0, 0), none)
	for i := range 40 {
		s := end[len(end)-1]
		s.Up, s.LifeGames, s.Games = s.Up+time.Second, s.LifeGames+1, s.Games+1
		s.Engines, s.Goroutines, s.FDs = 16-i*16/40, 9+3*(16-i*16/40), 12+4*(16-i*16/40)
		end = append(end, s)
	}
	if v := judgeFlat("goroutines", end, 5*time.Second, flatCriteria["goroutines"]); !v.Flat {
		t.Errorf("the end of a run: %v", v)
	}
	// Engines start often while a process fills its seat pools, and a sample that counted
	// one engine more (or fewer) than its descriptors and goroutines show is not like the
	// others at its count: counted before and after, it is left out.
	// In short lives, as in .ci/soak's, they would be most of the samples at some counts.
	var short []life
	for i := range 60 {
		short = append(short, life{idle: 2, work: 5 + i%25})
	}
	var filling []Sample // four samples a game; while the pools fill, the first as an engine starts
	for _, s := range synthetic(short, none) {
		for k := range 4 {
			c := s
			if k == 0 && s.LifeGames > 0 && s.Engines < 16 {
				c.Engines, c.Settled = s.Engines+1, false // counted as it started, the rest before
			}
			filling = append(filling, c)
		}
	}
	if v := judgeFlat("fds", filling, 5*time.Second, flatCriteria["fds"]); !v.Flat {
		t.Errorf("samples taken as engines started: %v", v)
	}
	// Samples taken often (.ci/soak's, every 50 ms) are not independent: memory stays level
	// for seconds, then steps. In a short run of four processes, one whose memory stepped up
	// by 32 MiB for its last games while the other three stayed level shows no growth the
	// processes share: judged as if its 8 samples a game were independent, the pooled growth
	// was past the allowance by more than two standard errors (+17.1 ± 4.1 MiB against 8.1
	// allowed); taking each process as one observation, it is within two.
	var lives []life
	for range 4 {
		lives = append(lives, life{idle: 2, work: 24})
	}
	var stepped []Sample
	for _, s := range synthetic(lives, none) {
		if s.Life == 3 && s.LifeGames > 20 {
			s.RSSKiB += 32 * 1024
		}
		for range 8 {
			stepped = append(stepped, s)
		}
	}
	if v := judgeFlat("RSS", stepped, 5*time.Second, flatCriteria["RSS"]); !v.Decided() || !v.Flat {
		t.Errorf("one process's late step of memory: %v", v)
	}
	few := synthetic([]life{{idle: 5, work: 30}}, none)
	if v := judgeFlat("RSS", few, 5*time.Second, flatCriteria["RSS"]); v.Decided() || v.Flat {
		t.Errorf("30 samples: %v; want undecided", v)
	}
}

// TestPeaks: a process's peak memory may not grow with the records it resumes from, as it did
// when a resumed run read its whole records file into memory (the seed-28 soak's processes
// peaked at 30 MiB on average when they resumed from fewer than 1,000 games, 53 MiB from
// 4,000 to 5,000).
func TestPeaks(t *testing.T) {
	run := func(peak func(games int) int64) []Sample {
		var out []Sample
		for l := range 40 {
			for i := range 20 {
				rss := int64(24000)
				if i == 2 {
					rss = peak(l * 120)
				}
				out = append(out, Sample{Life: l, Games: l*120 + i, LifeGames: i, RSSKiB: rss})
			}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		peak func(games int) int64
		flat bool
	}{
		{"the same peak", func(int) int64 { return 31000 }, true},
		{"6 MiB more a thousand games", func(games int) int64 { return 30000 + int64(games)*6 }, false},
	} {
		if v := judgePeaks(run(tc.peak)); !v.Decided || v.Flat != tc.flat {
			t.Errorf("%s: %v; want flat %v", tc.name, v, tc.flat)
		}
	}
	if v := judgePeaks(run(func(int) int64 { return 31000 })[:7*20]); v.Decided {
		t.Errorf("7 processes: %v; want not judged", v)
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
