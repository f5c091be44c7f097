//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"hivearbiter/internal/cli"

	"hivearbiter/arbiter"
	"hivearbiter/ci"
	"hivearbiter/configs"
	"hivearbiter/pool"
	"hivearbiter/results"
)

// playPool plays a pool soak to its last run, then audits it.
func (s *soak) playPool(ctx context.Context) error {
	fmt.Fprintf(s.out, "soak: a pool: arbiter server, %d workers at concurrency %d, %d runs of %d games (%d rounds of hivebot against %d fakes, colours swapped; "+
		"one run in four an SPRT of hivebot against itself at depth 2, capped there), %d at once, seed %d, in %s\n",
		s.o.workers, s.o.concurrency, s.o.runs, s.games(), s.rounds, len(fakes(s.o.stallOn)), s.o.active, s.o.seed, s.o.dir)
	command := filepath.Join(s.o.dir, "command.sh")
	script := cli.QuoteArgs(s.serverArgs()) + "\n" + cli.QuoteArgs(s.poolWorkerArgs(0)) + "\n" + cli.QuoteArgs(s.submitArgs(0)) + "\n"
	if err := os.WriteFile(command, []byte(script), 0o644); err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	fmt.Fprintf(s.out, "soak: the server's command (run again after each SIGKILL), a worker's and the first run's submit are in %s\n", command)
	return s.audit(ctx, s.poolLoop)
}

// auditPool checks every run the soak submitted: the server says it finished with its
// scheduled games; its records file holds each of them once, each replayed by the referee;
// arbiter server runs -json says of it what arbiter stats -json says of its records; and no
// engine process outlives the soak. It returns the runs' audits summed.
func (s *soak) auditPool(ctx context.Context, fail func(string, ...any)) (*audit, error) {
	w, p := s.out, s.pool
	for cmd, n := range p.failures {
		fmt.Fprintf(w, "commands that failed while the server was down or starting (tried again): %s %d\n", cmd, n)
	}
	sum := &audit{Endings: make(map[string]int)}
	finished, agree := 0, 0
	adj := arbiter.Adjudication{MaxPlies: 2 * s.o.maxMoves, Repetitions: configs.DefaultRepetitions}
	sprt := make(map[string]int)
	for i, r := range p.runs {
		st := r.state
		decided := sprtDecided(st)
		if isSPRT(i) {
			sprt[map[bool]string{true: "decided", false: "ran to its cap"}[decided > 0]]++
		}
		complete := st.Games() == st.Scheduled || decided > 0 && st.Games() >= 2*decided
		if st.State != pool.StateFinished || !complete || st.Scheduled != s.games() {
			fail("run %s (seed %d): the server says %s, %d of %d games (%d scheduled by the soak): %s",
				r.id, r.seed, st.State, st.Games(), st.Scheduled, s.games(), st.Reason)
		} else {
			finished++
		}
		recs, damage, err := results.ReadFileWith(st.Records, results.ReadOptions{})
		if err != nil {
			fail("run %s: reading its records: %v", r.id, err)
			continue
		}
		if damage.Any() {
			fail("run %s: the records file is damaged: %s", r.id, strings.Join(damage.Lines(false), "; "))
		}
		a := auditRecords(recs, s.games(), adj)
		if decided > 0 {
			a.decidedAt(2 * decided)
		}
		if len(a.Missing) > 0 || len(a.Duplicated) > 0 || decided == 0 && a.Recorded != a.Scheduled {
			fail("run %s: not every game recorded exactly once: %d records, missing %v, duplicated %v", r.id, a.Recorded, head(a.Missing), head(a.Duplicated))
		}
		for _, inv := range a.Invalid[:min(len(a.Invalid), 10)] {
			fail("run %s: %s", r.id, inv)
		}
		if why := s.agrees(ctx, st); why != "" {
			fail("run %s: arbiter server runs -json and arbiter stats -json of %s differ: %s", r.id, st.Records, why)
		} else {
			agree++
		}
		sum.add(a)
	}
	fmt.Fprintf(w, "runs: %d submitted (of %d), %d finished with every scheduled game (an SPRT's, up to its decision) as the server says; SPRTs: %s\n",
		len(p.runs), s.o.runs, finished, sortedCounts(sprt))
	if len(p.runs) < s.o.runs {
		fail("only %d of %d runs were submitted", len(p.runs), s.o.runs)
	}
	fmt.Fprintf(w, "games: %d scheduled in %d runs (a decided SPRT's: up to its decision), %d records, %d missing, %d recorded more than once\n",
		sum.Scheduled, len(p.runs), sum.Recorded, len(sum.Missing), len(sum.Duplicated))
	fmt.Fprintf(w, "referee: %d of %d records replay to their result and reason\n", sum.Recorded-len(sum.Invalid), sum.Recorded)
	fmt.Fprintf(w, "arbiter server runs -json agrees with arbiter stats -json of the records (games, each engine's W/D/L, faults): %d of %d runs\n",
		agree, len(p.runs))
	left := s.leftovers()
	fmt.Fprintf(w, "processes of the soak left once the server and workers were stopped: %s\n", sortedCounts(left))
	if len(left) > 0 {
		fail("processes outlived the soak (killed now): %s", sortedCounts(left))
	}
	return sum, nil
}

// sprtDecided is the game pairs an SPRT run's test decided at, as the server says; 0 when the
// run is no SPRT or played its whole schedule.
func sprtDecided(st pool.RunState) int {
	if st.Summary == nil || st.Summary.SPRT == nil || !strings.HasPrefix(st.Reason, "the SPRT accepted") {
		return 0
	}
	return st.Summary.SPRT.Pairs
}

// decidedAt makes a the audit of an SPRT decided once its first games were recorded: those
// must be there once each; the later ones, recorded before the decision could be made (a
// worker plays pairs out of order), may be there, each once.
func (a *audit) decidedAt(games int) {
	a.Scheduled = games
	a.Missing = slices.DeleteFunc(a.Missing, func(g int) bool { return g >= games })
}

// add sums another run's audit into a.
func (a *audit) add(b *audit) {
	a.Scheduled += b.Scheduled
	a.Recorded += b.Recorded
	a.Missing = append(a.Missing, b.Missing...)
	a.Duplicated = append(a.Duplicated, b.Duplicated...)
	a.Invalid = append(a.Invalid, b.Invalid...)
	for k, n := range b.Endings {
		a.Endings[k] += n
	}
	a.HealthyTimeLosses = append(a.HealthyTimeLosses, b.HealthyTimeLosses...)
	a.HealthyFaults = append(a.HealthyFaults, b.HealthyFaults...)
}

// agrees compares what the server says of a run with what arbiter stats -json says of its
// records file, as a user would: the games, each engine's results and faults. It returns
// what differs, "" when nothing does.
func (s *soak) agrees(ctx context.Context, st pool.RunState) string {
	if st.Summary == nil {
		return "the server gives no results"
	}
	out := filepath.Join(s.o.dir, "stats-"+st.ID+".json")
	// The records carry the run's SPRT, so stats of them alone exits with its verdict: H0 or
	// none yet (the games in flight at the decision counted too) are no disagreement.
	if code := s.stats(ctx, "-json", out, st.Records); code != ci.ExitOK && code != ci.ExitH0 && code != ci.ExitInconclusive {
		return fmt.Sprintf("arbiter stats exited with %d", code)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return err.Error()
	}
	var recorded results.Summary
	if err := json.Unmarshal(data, &recorded); err != nil {
		return fmt.Sprintf("%s: %v", out, err)
	}
	return summaryDiff(st.Summary, &recorded)
}

// summaryDiff says how two summaries of a run differ in its games, engines' results and
// faults; "" when they do not.
func summaryDiff(server, records *results.Summary) string {
	var diffs []string
	if server.Games != records.Games {
		diffs = append(diffs, fmt.Sprintf("games %d against %d", server.Games, records.Games))
	}
	if !reflect.DeepEqual(server.Engines, records.Engines) {
		diffs = append(diffs, fmt.Sprintf("engines %+v against %+v", server.Engines, records.Engines))
	}
	if !maps.EqualFunc(server.Faults, records.Faults, func(a, b results.Faults) bool { return maps.Equal(a, b) }) {
		diffs = append(diffs, fmt.Sprintf("faults %v against %v", server.Faults, records.Faults))
	}
	return strings.Join(diffs, "; ")
}
