//go:build linux

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/configs"
	"hivearbiter/results"
)

// report audits the finished soak and prints its figures; it returns errDefect when a check
// fails.
func (s *soak) report(ctx context.Context) error {
	w := s.out
	failed := false
	fail := func(format string, args ...any) {
		failed = true
		fmt.Fprintf(w, "FAIL: "+format+"\n", args...)
	}
	if s.unfinished != nil {
		fail("the run did not finish: %v", s.unfinished)
	} else {
		fmt.Fprintf(w, "\nsoak: the run ended after %s (a shared machine: times are not benchmarks)\n", s.finishedIn.Round(time.Second))
	}
	fmt.Fprintf(w, "SIGKILLs (each followed by the same command): %s; engines that outlived a killed process by 2 s (then killed): %s\n",
		sortedCounts(s.kills), sortedCounts(s.orphans))
	for _, n := range s.notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if s.o.workers > 0 {
		who := "coordinator"
		if s.o.pool {
			who = "server"
		}
		rejected, err := countLines(filepath.Join(s.o.dir, "processes.log"), "Rejected ")
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "results the %s rejected (its log): %d\n", who, rejected)
	}

	audit := s.auditFile
	if s.o.pool {
		audit = s.auditPool
	}
	a, err := audit(ctx, fail)
	if a == nil || err != nil {
		return err
	}

	faults, err := countFaults(s.faultLog)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "faults injected (the fakes' log): %s\n", sortedCounts(faults))
	fmt.Fprintf(w, "game endings (reason, engine at fault): %s\n", sortedCounts(a.Endings))
	fmt.Fprintf(w, "healthy engines (hivebot, steady, and a pool SPRT's deeper): %d time losses, %d faults of any kind\n",
		len(a.HealthyTimeLosses), len(a.HealthyFaults))
	for _, f := range a.HealthyFaults[:min(len(a.HealthyFaults), 10)] {
		fail("%s", f)
	}

	if err := s.judgeSamples(fail); err != nil {
		return err
	}
	if failed {
		return errDefect
	}
	fmt.Fprintln(w, "soak: every check passed")
	return nil
}

// auditFile checks the records file of a match: every game once, each replayed by the
// referee, and read by arbiter stats.
func (s *soak) auditFile(ctx context.Context, fail func(string, ...any)) (*audit, error) {
	w := s.out
	recs, damage, err := results.ReadFileWith(s.records, results.ReadOptions{})
	if err != nil {
		fail("reading the records: %v", err)
		return nil, errDefect
	}
	if damage.Any() {
		fail("the records file is damaged: %s", strings.Join(damage.Lines(false), "; "))
	}
	a := auditRecords(recs, s.games(), arbiter.Adjudication{MaxPlies: 2 * s.o.maxMoves, Repetitions: configs.DefaultRepetitions})
	fmt.Fprintf(w, "games: %d scheduled, %d records, %d missing, %d recorded more than once\n",
		a.Scheduled, a.Recorded, len(a.Missing), len(a.Duplicated))
	if len(a.Missing) > 0 || len(a.Duplicated) > 0 || a.Recorded != a.Scheduled {
		fail("not every game recorded exactly once: missing %v, duplicated %v", head(a.Missing), head(a.Duplicated))
	}
	fmt.Fprintf(w, "referee: %d of %d records replay to their result and reason\n", a.Recorded-len(a.Invalid), a.Recorded)
	for _, inv := range a.Invalid[:min(len(a.Invalid), 10)] {
		fail("%s", inv)
	}
	if code := s.stats(ctx, s.records); code != 0 {
		fail("arbiter stats %s exited with %d", s.records, code)
	} else {
		fmt.Fprintln(w, "arbiter stats: reads the records (exit 0)")
	}
	return a, nil
}

// judgeSamples writes the samples of the arbiter (or the pool server) to samples.tsv, prints
// them and judges them: no more engines than it may hold, its peak memory, and flatness.
func (s *soak) judgeSamples(fail func(string, ...any)) error {
	w := s.out
	samples := s.sampler.all()
	who := "arbiter"
	if s.o.pool {
		who = "server"
	}
	if err := writeSamples(filepath.Join(s.o.dir, "samples.tsv"), samples); err != nil {
		return err
	}
	fmt.Fprintf(w, "samples of the %s (%d, every %s; all in %s):\n", who, len(samples), s.o.sample, filepath.Join(s.o.dir, "samples.tsv"))
	for _, at := range []struct {
		name string
		f    float64
	}{{"start ", 0}, {"middle", 0.5}, {"end   ", 1}} {
		fmt.Fprintf(w, "  %s %s\n", at.name, around(samples, at.f))
	}
	fmt.Fprintf(w, "  max    %s\n", maxima(samples))
	if most := maxEngines(samples); most > s.seatPool() {
		fail("the %s held %d engine processes at once; it may hold %d", who, most, s.seatPool())
	}
	peaks := judgePeaks(samples)
	fmt.Fprintf(w, "  %s\n", peaks)
	if peaks.Decided && !peaks.Flat {
		fail("the %s's peak memory grows with the records it resumes from", who)
	}
	for _, name := range []string{"RSS", "goroutines", "fds"} {
		judge := judgeFlat
		if s.o.pool {
			judge = judgeServerFlat
		}
		v := judge(name, samples, s.o.warmup, flatCriteria[name])
		fmt.Fprintf(w, "  %s\n", v)
		switch {
		case !v.Decided():
			fail("%s: too few samples of the %s at work to judge whether it is flat", name, who)
		case !v.Flat:
			fail("%s is not flat", name)
		}
	}
	return nil
}

// seatPool is the most engine processes the arbiter may hold: one per engine in each of its
// workers' seat pools. A coordinator plays no game; it starts every engine once, all at once,
// to identify them (distributed.Identify, which names every engine that fails at once).
func (s *soak) seatPool() int {
	if s.o.pool {
		return 0 // a pool server starts no engine: submit identifies them, workers play them
	}
	engines := 1 + len(fakes(s.o.stallOn))
	if s.o.workers > 0 {
		return engines
	}
	return s.o.concurrency * engines
}

// maxEngines is the most engine processes a sample saw.
func maxEngines(samples []Sample) int {
	most := 0
	for _, s := range samples {
		most = max(most, s.Engines)
	}
	return most
}

// stats runs arbiter stats with args (the records), as a user would, and returns its exit
// status.
func (s *soak) stats(ctx context.Context, args ...string) int {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, s.arbiter, append([]string{"stats"}, args...)...)
	c.Stdout, c.Stderr = s.log, s.log
	if err := c.Run(); err != nil && c.ProcessState == nil {
		return -1
	}
	return c.ProcessState.ExitCode()
}

// writeSamples writes every sample as a tab-separated table.
func writeSamples(path string, samples []Sample) error {
	var b strings.Builder
	fmt.Fprintln(&b, "seconds\tlife\tup_seconds\trss_kib\tfds\tgoroutines\tengines\tsettled\tgames\tlife_games\truns\tworkers\tlife_runs")
	for _, s := range samples {
		fmt.Fprintf(&b, "%.2f\t%d\t%.2f\t%d\t%d\t%d\t%d\t%t\t%d\t%d\t%d\t%d\t%d\n",
			s.At.Seconds(), s.Life, s.Up.Seconds(), s.RSSKiB, s.FDs, s.Goroutines, s.Engines, s.Settled, s.Games, s.LifeGames,
			s.Runs, s.Workers, s.LifeRuns)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	return nil
}

// head is the first few of a list, for a message.
func head(xs []int) []int { return xs[:min(len(xs), 10)] }
