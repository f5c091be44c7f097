package ratinglist

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/testkit/golden"
)

// fake is an entrant played by a fake UHP engine (package uhpfake) of cfg.
func fake(t testing.TB, name string, cfg uhpfake.Config) Entrant {
	t.Helper()
	tc, err := driver.ParseTimeControl("depth=1")
	if err != nil {
		t.Fatal(err)
	}
	e := Entrant{Name: name, Version: "1", Words: []string{"cmd=fake"}}
	e.Engine = driver.EngineConfig{Name: e.Player(), Command: []string{os.Args[0]}, Env: []string{uhpfake.Env(cfg)}, Time: tc}
	return e
}

// The entrants a list refuses: one whose every bestmove is the illegal "wQ wQ" (it fails arbiter
// check), and one that plays Base alone, in a Base+MLP list (it passes arbiter check, which
// plays it at the game types it says it plays, and cannot start a game of the list's).
func illegalMover(t testing.TB) Entrant {
	return fake(t, "illegal", uhpfake.Config{ID: "illegal v1", Faults: []uhpfake.Fault{{On: "bestmove", Print: []string{"wQ wQ", "ok"}, Then: "silent"}}})
}

func baseOnly(t testing.TB) Entrant {
	return fake(t, "base-only", uhpfake.Config{ID: "base-only v1", Capabilities: []string{}})
}

// countingCheck is arbiter check's suite on the fakes and the bare entry on hivebot (whose
// check package arbiter's tests cover, and which takes seconds a race-built bench), counting
// the checks of each entrant.
type countingCheck struct {
	mu     sync.Mutex
	checks map[string]int
}

func (c *countingCheck) check(ctx context.Context, e Entrant) (string, error) {
	c.mu.Lock()
	if c.checks == nil {
		c.checks = map[string]int{}
	}
	c.checks[e.Player()]++
	c.mu.Unlock()
	if e.Words[0] == "cmd=fake" {
		return CheckEntrant(ctx, e)
	}
	return noCheck(ctx, e)
}

func (c *countingCheck) count(player string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.checks[player]
}

// An entrant that fails its check, and one that cannot play the list's game type, entered
// before a working entrant, are both refused with their reasons and reports; the entrant after
// them plays its gauntlet and is rated; the run ends saying which are refused. Run again, the
// list neither forgets the refusals nor checks the same programs again, unless asked; an
// entrant fixed (another program) is entered again and plays.
func TestRefusedEntrantsDoNotStopTheList(t *testing.T) {
	bots := threeBots(t)
	l := testList(t, t.TempDir(), bots[0], illegalMover(t), baseOnly(t), bots[2])
	l.Entrants[1].Engine.Program = "illegal-build-1" // as IdentifyAll sets it
	c := &countingCheck{}
	var console strings.Builder
	r := &Runner{List: l, Check: c.check, Console: &console}
	recs, err := r.Run(t.Context())
	t.Logf("the run:\n%s", console.String())
	if err != nil {
		t.Fatalf("the run stopped: %v", err)
	}
	var refusals *RefusalsError
	if err := r.Refused(); !errors.As(err, &refusals) || len(refusals.Refused) != 2 {
		t.Fatalf("the run's refusals: %v, want the 2 entrants", err)
	}
	wantReason := map[string]string{
		"illegal 1":   "arbiter check failed: ",
		"base-only 1": "it cannot play under the list's conditions (Base+MLP, depth=1): it does not play Mosquito, Ladybug, Pillbug",
	}
	for i, want := range []string{"illegal 1", "base-only 1"} {
		got := refusals.Refused[i]
		if got.Entrant != want || !strings.Contains(got.Reason, wantReason[want]) {
			t.Errorf("refusal %d: %s refused for %q, want %s for %q", i, got.Entrant, got.Reason, want, wantReason[want])
		}
		report, err := os.ReadFile(got.Report)
		if err != nil {
			t.Errorf("%s's report: %v", want, err)
		} else if !strings.Contains(string(report), "arbiter check of "+want) {
			t.Errorf("%s's report is not its check's:\n%s", want, report)
		}
	}
	if report, _ := os.ReadFile(refusals.Refused[1].Report); !strings.Contains(string(report), "does not play Mosquito, Ladybug, Pillbug") {
		t.Errorf("the base-only entrant's report does not say why it was refused:\n%s", report)
	}
	if msg := refusals.Message(); !strings.Contains(msg, "2 entrants are refused") || !strings.Contains(msg, "Fix them and enter them again") {
		t.Errorf("the run's refusals say %q", msg)
	}

	table, err := Compute(l, recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"illegal 1", "base-only 1"} {
		row, _ := table.Row(p)
		if row.Status != StatusRefused || row.Rated || row.Games+row.Faults != 0 || !strings.Contains(row.Failure, wantReason[p]) {
			t.Errorf("%s's row: %+v, want refused for %q, no game", p, row, wantReason[p])
		}
		if played(recs, p) {
			t.Errorf("%s, refused, played", p)
		}
	}
	if medium, _ := table.Row("medium 1"); !medium.Rated || medium.Games == 0 || medium.Status == StatusRefused {
		t.Errorf("the entrant after the refused ones: %+v, want rated", medium)
	}
	var plan strings.Builder
	if err := WritePlan(&plan, l, recs); err != nil || !strings.HasPrefix(plan.String(), "Every entrant of test list is done") ||
		!strings.Contains(plan.String(), "Refused, and passed over until it is entered again: illegal 1 (arbiter check failed: ") ||
		!strings.Contains(plan.String(), "Refused, and passed over until it is entered again: base-only 1 (it cannot play") {
		t.Errorf("the plan after the run: %v\n%s", err, plan.String())
	}
	if reports := l.CheckReports(); !strings.Contains(reports["base-only 1"], "does not play") || reports["medium 1"] == "" {
		t.Errorf("the check reports the site publishes: %q", reports)
	}

	// Run again (as after a kill): the refusals hold, and nothing is checked or played again.
	before := len(recs)
	r = &Runner{List: l, Check: c.check}
	if recs, err = r.Run(t.Context()); err != nil || len(recs) != before {
		t.Fatalf("run again: %v, %d games (was %d)", err, len(recs), before)
	}
	if err := r.Refused(); !errors.As(err, &refusals) || len(refusals.Refused) != 2 {
		t.Errorf("run again, the refusals: %v", err)
	}
	for _, p := range []string{"illegal 1", "base-only 1", "medium 1"} {
		if n := c.count(p); n != 1 {
			t.Errorf("%s was checked %d times, want once", p, n)
		}
	}
	// Asked to, the run checks the refused entrants again; they are refused again.
	r = &Runner{List: l, Check: c.check, Recheck: true}
	if _, err = r.Run(t.Context()); err != nil || r.Refused() == nil {
		t.Fatalf("run with Recheck: %v, refused %v", err, r.Refused())
	}
	if c.count("illegal 1") != 2 || c.count("base-only 1") != 2 || c.count("medium 1") != 1 {
		t.Errorf("after a run with Recheck, checks %v, want the refused entrants' twice", c.checks)
	}

	// The illegal mover fixed (another build): it is entered again, plays and is rated.
	fixed := fake(t, "illegal", uhpfake.Config{ID: "illegal v1", Play: "random", Seed: 3})
	fixed.Engine.Program = "illegal-build-2"
	l.Entrants[1] = fixed
	r = &Runner{List: l, Check: c.check}
	if recs, err = r.Run(t.Context()); err != nil {
		t.Fatalf("run with the fixed entrant: %v", err)
	}
	if c.count("illegal 1") != 3 || !played(recs, "illegal 1") {
		t.Errorf("the fixed entrant was checked %d times in all, played %v", c.count("illegal 1"), played(recs, "illegal 1"))
	}
	if err := r.Refused(); !errors.As(err, &refusals) || len(refusals.Refused) != 1 || refusals.Refused[0].Entrant != "base-only 1" {
		t.Errorf("with the fixed entrant, the refusals: %v, want base-only 1's alone", err)
	}
	if table, err = Compute(l, recs); err != nil {
		t.Fatal(err)
	}
	if row, _ := table.Row("illegal 1"); row.Status == StatusRefused || row.Games == 0 {
		t.Errorf("the fixed entrant's row: %+v", row)
	}
	for _, rec := range recs[:before] {
		if rec.White.Name == "illegal 1" || rec.Black.Name == "illegal 1" {
			t.Errorf("game %v: the refused entrant played before it was fixed", rec.Key())
		}
	}
}

// An entrant let in before (its check report kept, as an older arbiter kept it without trying
// the entrant under the list's conditions) that its first batch cannot start is refused then,
// and the list goes on; an entrant with games that cannot start stops the run, as before.
func TestEntrantTheBatchCannotStartIsRefused(t *testing.T) {
	bots := threeBots(t)
	l := testList(t, t.TempDir(), bots[0], baseOnly(t), bots[2])
	if err := os.MkdirAll(l.Checks, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.CheckReport(l.Entrants[1]), []byte("arbiter check of base-only 1: passed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var console strings.Builder
	r := &Runner{List: l, Check: noCheck, Console: &console}
	recs, err := r.Run(t.Context())
	if err != nil {
		t.Fatalf("the run stopped: %v\n%s", err, console.String())
	}
	var refusals *RefusalsError
	if err := r.Refused(); !errors.As(err, &refusals) || len(refusals.Refused) != 1 ||
		!strings.Contains(refusals.Refused[0].Reason, "it could not be started for the list's games (Base+MLP, depth=1): it does not play Mosquito, Ladybug, Pillbug") {
		t.Fatalf("the refusals: %v\n%s", err, console.String())
	}
	report, _ := os.ReadFile(refusals.Refused[0].Report)
	if !strings.Contains(string(report), "arbiter check of base-only 1: passed") || !strings.Contains(string(report), "Its first batch could not start it") {
		t.Errorf("the refused entrant's report:\n%s", report)
	}
	if _, err := os.Stat(l.CheckReport(l.Entrants[1])); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the report of the check it passed is kept: it would enter again unchecked (%v)", err)
	}
	if !played(recs, "medium 1") || played(recs, "base-only 1") {
		t.Errorf("medium played %v, base-only %v: want only medium", played(recs, "medium 1"), played(recs, "base-only 1"))
	}

	// The anchor, with games, that cannot start any more: the run's error, not a refusal.
	l.Entrants[0].Engine.Command = []string{l.Checks} // a folder, not a program
	l.MaxGames, l.ErrorTarget = 2*l.MaxGames, 10      // medium plays again
	if _, err := (&Runner{List: l, Check: noCheck}).Run(t.Context()); err == nil {
		t.Fatalf("a run whose anchor cannot start: %v", err)
	} else if errors.As(err, new(*RefusedError)) || !errors.As(err, new(*arbiter.EngineStartError)) || !strings.Contains(err.Error(), "weak 1") {
		t.Errorf("a run whose anchor cannot start: %v, want the anchor's start failure", err)
	}
}

// A run stopped in the middle of a batch after an entrant before it was refused resumes the
// same batch; if the refused entrant is fixed meanwhile (another program), the list lets it in
// first, in its place in the list's order, and the gauntlet begun goes on after it, in batches
// of its own: no batch is resumed as another entrant's.
func TestRefusedEntrantFixedDuringABatch(t *testing.T) {
	bots := threeBots(t)
	l := testList(t, t.TempDir(), bots[0], illegalMover(t), bots[2])
	l.Entrants[1].Engine.Program = "illegal-build-1"
	c := &countingCheck{}
	ctx, cancel := context.WithCancel(t.Context())
	r := &Runner{List: l, Check: c.check, Console: &cancelAfter{n: 1, cancel: cancel}}
	r.Play = PlayLocally(r.Console)
	if _, err := r.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v, want context.Canceled", err)
	}
	partial, _ := ReadRecords(l.Records)
	b, ok, err := Next(l, partial)
	if err != nil || !ok || !b.Resumed || l.Entrants[b.Entrant].Player() != "medium 1" {
		t.Fatalf("after the stop, Next is %+v, %v, %v: want medium 1's batch resumed", b, ok, err)
	}

	fixed := fake(t, "illegal", uhpfake.Config{ID: "illegal v1", Play: "random", Seed: 3})
	fixed.Engine.Program = "illegal-build-2"
	l.Entrants[1] = fixed
	if b, ok, err = Next(l, partial); err != nil || !ok || b.Resumed || l.Entrants[b.Entrant].Player() != "illegal 1" || b.Number != 2 {
		t.Fatalf("with the refused entrant fixed, Next is %+v, %v, %v: want illegal 1's batch 2", b, ok, err)
	}
	recs, err := (&Runner{List: l, Check: c.check}).Run(t.Context())
	if err != nil {
		t.Fatalf("run with the entrant fixed: %v", err)
	}
	if !slices.Equal(gameKeys(recs[:len(partial)]), gameKeys(partial)) {
		t.Error("the games before the fix changed")
	}
	table, err := Compute(l, recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"illegal 1", "medium 1"} {
		if row, _ := table.Row(p); !row.Rated || row.Status == StatusRefused {
			t.Errorf("%s: %+v, want rated", p, row)
		}
	}
}

// A refusal file holds under the list's conditions and of the program refused alone; one that
// does not read is named, with what to do, and nothing is written.
func TestRefusals(t *testing.T) {
	bots := threeBots(t)
	l := testList(t, t.TempDir(), bots[0], baseOnly(t), bots[2])
	l.Entrants[1].Engine.Program = "build-1"
	if _, err := l.Refuse(l.Entrants[1], "it plays Base alone", "its report\n"); err != nil {
		t.Fatal(err)
	}
	other := *l
	other.Entrants = slices.Clone(l.Entrants)
	other.Seed++ // other conditions
	rebuilt := *l
	rebuilt.Entrants = slices.Clone(l.Entrants)
	rebuilt.Entrants[1].Engine.Program = "build-2"
	unknown := *l
	unknown.Entrants = slices.Clone(l.Entrants)
	unknown.Entrants[1].Engine.Program = "" // not identified: the table's view
	tests := []struct {
		name  string
		list  *List
		holds bool
	}{
		{"the list as it was", l, true},
		{"other conditions", &other, false},
		{"another program", &rebuilt, false},
		{"a program not identified", &unknown, true},
	}
	for _, tc := range tests {
		got, err := tc.list.Refusals()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r, ok := got["base-only 1"]; ok != tc.holds || ok && (r.Reason != "it plays Base alone" || len(got) != 1) {
			t.Errorf("%s: refusals %+v, want the refusal to hold: %v", tc.name, got, tc.holds)
		}
	}
	if reports := l.CheckReports(); reports["base-only 1"] != "its report\n" {
		t.Errorf("the refused entrant's report as the site publishes it: %q", reports["base-only 1"])
	}

	path := l.refusalPath(l.Entrants[1])
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := l.Refusals()
	var lerr *Error
	if !errors.As(err, &lerr) || !strings.Contains(lerr.Message(), path) || !strings.Contains(lerr.Message(), "remove it, and the entrant is checked again") {
		t.Errorf("a damaged refusal: %v", err)
	}
	if _, err := Compute(l, nil); err == nil {
		t.Error("the table of a list with a damaged refusal says nothing of it")
	}
}

// FuzzRefusals: whatever a refusal file holds, Refusals neither panics nor lets in a refusal
// of another entrant or list.
func FuzzRefusals(f *testing.F) {
	l := testList(f, f.TempDir(), threeBots(f)...)
	if _, err := l.Refuse(l.Entrants[1], "a reason", "a report"); err != nil {
		f.Fatal(err)
	}
	path := l.refusalPath(l.Entrants[1])
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"entrant":"weak 1","list":"` + l.ID() + `","reason":"x"}`))
	f.Add([]byte(`{"entrant":"wild 1","list":"other","reason":"x"}`))
	f.Add([]byte("null"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := l.Refusals()
		if err != nil {
			return
		}
		for player, r := range got {
			if player != "wild 1" || r.Entrant != player || r.List != l.ID() {
				t.Errorf("a refusal let in: %q: %+v", player, r)
			}
		}
	})
}

// TestRefusalsMessage: what a run that refused entrants ends with, for one and for several.
func TestRefusalsMessage(t *testing.T) {
	illegal := &RefusedError{Entrant: "illegal 1", Reason: "arbiter check failed: 2 of 26 checks failed, 2 skipped", Report: "list.checks/illegal-1.failed.txt"}
	baseOnly := &RefusedError{Entrant: "base-only 1", Reason: "it cannot play under the list's conditions (Base+MLP, depth=1): it does not play Mosquito, Ladybug, Pillbug, which Base+MLP needs (it plays Base)",
		Report: "list.checks/base-only-1.failed.txt"}
	var b strings.Builder
	for _, e := range []*RefusalsError{{[]*RefusedError{illegal}}, {[]*RefusedError{illegal, baseOnly}}} {
		b.WriteString(e.Message() + "\n\n")
	}
	golden.Check(t, filepath.Join("testdata", "refusals.txt"), []byte(b.String()))
}
