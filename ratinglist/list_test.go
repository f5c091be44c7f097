package ratinglist

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hivearbiter/internal/proc"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/driver"
	"hivearbiter/cmd/hivebot/hivebotcmd"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/openings"
	_ "hivearbiter/proto/uhp"
	"hivearbiter/results"
)

// The test binary doubles as the entrants: with hivebotEnv set it is hivebot, whose profiles
// differ in strength and which plays the same moves for the same position at a fixed depth.
const hivebotEnv = "RATINGLIST_HIVEBOT"

func TestMain(m *testing.M) {
	// On Windows the test binary is its own Ctrl-C sender, as the arbiter is (see proc.Main).
	proc.Main()
	uhpfake.Main() // the fake engines the tests enter, when the environment names one
	if os.Getenv(hivebotEnv) != "" {
		os.Exit(hivebotcmd.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

// bot is an entrant played by hivebot with the given options, NAME=VALUE.
func bot(t testing.TB, name, version string, options ...string) Entrant {
	t.Helper()
	tc, err := driver.ParseTimeControl("depth=1")
	if err != nil {
		t.Fatal(err)
	}
	e := Entrant{Name: name, Version: version, Words: []string{"cmd=hivebot"}}
	e.Engine = driver.EngineConfig{Name: e.Player(), Command: []string{os.Args[0]}, Env: []string{hivebotEnv + "=1"}, Time: tc}
	for _, o := range options {
		k, v, _ := strings.Cut(o, "=")
		e.Engine.Options = append(e.Engine.Options, driver.EngineOption{Name: k, Value: v})
	}
	return e
}

// testList is a list of hivebot's profiles at depth 1 in dir, small enough to finish in
// seconds: a loose error target and a small budget.
func testList(t testing.TB, dir string, entrants ...Entrant) *List {
	t.Helper()
	l := &List{Name: "test list", Path: filepath.Join(dir, "list.toml"), GameType: "Base+MLP", Limit: []string{"depth=1"},
		Openings: openings.Config{Book: "Base+MLP"}, Adjudication: arbiter.Adjudication{Repetitions: 3, MaxPlies: 120},
		Concurrency: 2, Seed: 5, Pairs: 2, Opponents: 2, ErrorTarget: 400, MaxGames: 16,
		Anchor: Anchor{Entrant: "weak 1", Elo: 1000}, Entrants: entrants,
		Records: filepath.Join(dir, "list.records.jsonl"), Checks: filepath.Join(dir, "checks"), Site: filepath.Join(dir, "site")}
	if err := l.Normalize(); err != nil {
		t.Fatal(err)
	}
	return l
}

func threeBots(t testing.TB) []Entrant {
	return []Entrant{
		bot(t, "weak", "1", "Profile=weak"),
		bot(t, "wild", "1", "Profile=weak", "Aggression=5"),
		bot(t, "medium", "1", "Profile=medium", "Aggression=1"),
	}
}

// noCheck enters every entrant without arbiter check's suite (which package arbiter tests).
func noCheck(context.Context, Entrant) (string, error) { return "checked\n", nil }

func run(t testing.TB, ctx context.Context, l *List, maxBatches int) []results.Record {
	t.Helper()
	r := &Runner{List: l, Check: noCheck, MaxBatches: maxBatches}
	recs, err := r.Run(ctx)
	if err != nil && ctx.Err() == nil {
		t.Fatal(err)
	}
	return recs
}

// gameKeys are the records' games as the schedule names them, with their results.
func gameKeys(recs []results.Record) []string {
	var keys []string
	for _, r := range recs {
		keys = append(keys, fmt.Sprintf("%s %s#%d %s-%s %d %s %s", r.Settings[LabelBatch], r.Run, r.Game, r.White.Name, r.Black.Name, r.OpeningIndex, r.Result, r.Reason))
	}
	slices.Sort(keys)
	return keys
}

func TestRunReachesTheTargetOnceEachGame(t *testing.T) {
	l := testList(t, t.TempDir(), threeBots(t)...)
	recs := run(t, t.Context(), l, 0)
	if len(recs) == 0 {
		t.Fatal("no games played")
	}
	seen := map[results.Key]bool{}
	for _, r := range recs {
		if seen[r.Key()] {
			t.Errorf("game %v played twice", r.Key())
		}
		seen[r.Key()] = true
	}
	if _, more, err := Next(l, recs); more || err != nil {
		t.Fatalf("after the run, Next says more=%v, %v", more, err)
	}
	var plan strings.Builder
	if err := WritePlan(&plan, l, recs); err != nil || plan.String() != "Every entrant of "+l.Name+" is done: nothing to play.\n" {
		t.Errorf("after the run, the plan says %q, %v", plan.String(), err)
	}
	plan.Reset()
	if err := WritePlan(&plan, l, nil); err != nil || !strings.HasPrefix(plan.String(), "Next: ") || !strings.HasSuffix(plan.String(), " games.\n") {
		t.Errorf("before the run, the plan says %q, %v", plan.String(), err)
	}
	table, err := Compute(l, recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range table.Rows {
		done := row.Status == StatusAnchor || row.Error <= l.ErrorTarget || row.Games >= l.MaxGames
		if !done || !row.Rated {
			t.Errorf("%s: %+v, neither at the target nor at its budget", row.Player, row)
		}
	}
	if anchor, _ := table.Row("weak 1"); anchor.Elo != 1000 || anchor.Error != 0 {
		t.Errorf("anchor row %+v, want 1000 ± 0", anchor)
	}
}

// A run stopped in the middle of a batch (as by SIGKILL: the games in flight are lost) and run
// again plays the same games as a run never stopped, none twice.
func TestStoppedRunResumesTheSameSchedule(t *testing.T) {
	whole := run(t, t.Context(), testList(t, t.TempDir(), threeBots(t)...), 0)

	l := testList(t, t.TempDir(), threeBots(t)...)
	ctx, cancel := context.WithCancel(t.Context())
	stopAt := len(whole) / 2
	r := &Runner{List: l, Check: noCheck, Console: &cancelAfter{n: stopAt, cancel: cancel}}
	r.Play = PlayLocally(r.Console)
	if _, err := r.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v, want context.Canceled", err)
	}
	partial, _ := ReadRecords(l.Records)
	if len(partial) == 0 || len(partial) >= len(whole) {
		t.Fatalf("the stop left %d of %d games: not mid-run", len(partial), len(whole))
	}
	resumed := run(t, t.Context(), l, 0)
	if got, want := gameKeys(resumed), gameKeys(whole); !slices.Equal(got, want) {
		t.Errorf("resumed run's games differ from the unbroken run's:\n got %q\nwant %q", got, want)
	}
}

// cancelAfter cancels when n games have finished, as the console says them.
type cancelAfter struct {
	n, seen int
	cancel  func()
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	c.seen += bytes.Count(p, []byte("Finished game "))
	if c.seen >= c.n {
		c.cancel()
	}
	return len(p), nil
}

// An entrant added to a finished list plays its own games alone: the records' first bytes do
// not change, and each new game is the new entrant's.
func TestAddedEntrantPlaysOnlyItsGames(t *testing.T) {
	dir := t.TempDir()
	l := testList(t, dir, threeBots(t)...)
	before := run(t, t.Context(), l, 0)
	data, err := os.ReadFile(l.Records)
	if err != nil {
		t.Fatal(err)
	}
	hashBefore := sha256.Sum256(data)

	l = testList(t, dir, append(threeBots(t), bot(t, "strong", "1", "Profile=strong"))...)
	after := run(t, t.Context(), l, 0)
	if sha256.Sum256(mustRead(t, l.Records, len(before))) != hashBefore {
		t.Error("the records' first bytes changed")
	}
	if len(after) <= len(before) {
		t.Fatal("the new entrant played no games")
	}
	for _, r := range after[len(before):] {
		if r.White.Name != "strong 1" && r.Black.Name != "strong 1" {
			t.Errorf("game %v (%s vs %s) after the entrant was added is not its", r.Key(), r.White.Name, r.Black.Name)
		}
	}
	table, err := Compute(l, after)
	if err != nil {
		t.Fatal(err)
	}
	if row, _ := table.Row("strong 1"); !row.Rated || (row.Error > l.ErrorTarget && row.Games < l.MaxGames) {
		t.Errorf("the new entrant's row: %+v", row)
	}
}

// mustRead returns the bytes of the first n records of a records file.
func mustRead(t *testing.T, path string, n int) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	end := 0
	for range n {
		end += bytes.IndexByte(data[end:], '\n') + 1
	}
	return data[:end]
}

func TestVerifyNamesTheGameWithAChangedMove(t *testing.T) {
	l := testList(t, t.TempDir(), threeBots(t)...)
	recs := run(t, t.Context(), l, 1)
	if _, err := Verify(l, recs); err != nil {
		t.Fatalf("the list's own records: %v", err)
	}
	k := len(recs) / 2
	r := &recs[k]
	if len(r.Moves) < 3 {
		t.Fatalf("game %d has %d moves", k, len(r.Moves))
	}
	r.Moves[2].Move = r.Moves[0].Move // a move of another ply: illegal here, or another game
	_, err := Verify(l, recs)
	var ve *VerifyError
	if !errors.As(err, &ve) || len(ve.Games) != 1 || !strings.Contains(ve.Games[0], gameName(r)) {
		t.Fatalf("Verify after a move was changed: %v, want it to name %s alone", err, gameName(r))
	}
}

func TestRecordsOfAnotherListAreRefused(t *testing.T) {
	l := testList(t, t.TempDir(), threeBots(t)...)
	recs := run(t, t.Context(), l, 1)
	other := testList(t, t.TempDir(), threeBots(t)...)
	other.Seed = 99 // another list: other conditions
	_, err := Compute(other, recs)
	var re *RecordsError
	if !errors.As(err, &re) || !strings.Contains(re.Msg, "not of this list") {
		t.Fatalf("Compute of another list's records: %v", err)
	}
	renamed := testList(t, t.TempDir(), bot(t, "weak", "1"), bot(t, "wild", "2"), bot(t, "medium", "1"))
	renamed.Seed = l.Seed
	if _, err := Compute(renamed, recs); !errors.As(err, &re) || !strings.Contains(re.Msg, "no entrant") {
		t.Fatalf("Compute with an entrant gone: %v", err)
	}
}

func TestNormalizeRefusesBadLists(t *testing.T) {
	tests := []struct {
		name   string
		change func(*List)
		want   string
	}{
		{"duplicate", func(l *List) { l.Entrants[1] = l.Entrants[0] }, `two entrants are "weak 1"`},
		{"no version", func(l *List) { l.Entrants[1].Version = "" }, "has no version"},
		{"anchor", func(l *List) { l.Anchor.Entrant = "nobody 1" }, `the anchor "nobody 1" is not an entrant`},
		{"no limit", func(l *List) { l.Limit = nil }, "no limit"},
		{"mode", func(l *List) { l.Mode = "swiss" }, `mode "swiss"`},
		{"same file name", func(l *List) {
			l.Entrants[0].Version, l.Entrants[1].Name, l.Entrants[1].Version = "v1.0", "weak", "v1-0"
		},
			`entrants "weak v1.0" and "weak v1-0" would share the check report weak-v1-0.txt`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := testList(t, t.TempDir(), threeBots(t)...)
			tt.change(l)
			if err := l.Normalize(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Normalize: %v, want %q", err, tt.want)
			}
		})
	}
}

func TestIdentifyRefusesAChangedProgram(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "engine.sh")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho v1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	l := testList(t, dir, threeBots(t)...)
	l.Entrants[1].Engine.Command = []string{prog}
	if err := l.IdentifyAll(Self{}, nil); err != nil {
		t.Fatal(err)
	}
	sum := l.Entrants[1].Engine.Program
	recs := []results.Record{{White: results.Player{Name: "wild 1", Program: sum}, Black: results.Player{Name: "weak 1", Program: l.Entrants[0].Engine.Program}}}
	if err := l.IdentifyAll(Self{}, recs); err != nil {
		t.Fatalf("the same program: %v", err)
	}
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho v2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := l.IdentifyAll(Self{}, recs)
	if err == nil || !strings.Contains(err.Error(), "wild 1 is another program") {
		t.Fatalf("a rebuilt program under its old version: %v", err)
	}
	// The arbiter's own binary (builtin=hivebot) is identified by its version.
	self := Self{Path: os.Args[0], Version: "0.1.0"}
	a, _ := Identify(l.Entrants[0].Engine, self)
	self.Version = "0.2.0"
	if b, _ := Identify(l.Entrants[0].Engine, self); a == b {
		t.Error("a built-in entrant's identity does not follow the arbiter's version")
	}
}

// TestIdentifyMissingProgram: an entrant whose program is missing is refused in words that
// name the entrant and the program, with the package's name once, at the front of the error.
func TestIdentifyMissingProgram(t *testing.T) {
	dir := t.TempDir()
	l := testList(t, dir, threeBots(t)...)
	missing := filepath.Join(dir, "no-such-engine")
	l.Entrants[1].Engine.Command = []string{missing}
	_, err := Identify(l.Entrants[1].Engine, Self{})
	if err == nil || !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "ratinglist: program "+missing+": ") {
		t.Fatalf("Identify of a missing program: %v, want a ratinglist error that wraps fs.ErrNotExist", err)
	}
	err = l.IdentifyAll(Self{}, nil)
	want := "entrant wild 1 cannot be identified: program " + missing + ": "
	if err == nil || !strings.Contains(err.Error(), want) || strings.Count(err.Error(), "ratinglist: ") != 1 {
		t.Fatalf("IdentifyAll: %v, want %q after the package's name, said once", err, want)
	}
}

// An entrant that fails game after game is stopped by its failure streak and shown as failed,
// never rated on its forfeits; the list goes on with the others.
func TestFailingEntrantIsStoppedNotRated(t *testing.T) {
	bots := threeBots(t)
	broken := Entrant{Name: "broken", Version: "1", Words: []string{"proto=test", "cmd=illegal@6"}}
	broken.Engine = driver.EngineConfig{Name: broken.Player(), Protocol: arbitertest.Name, Command: []string{"illegal@6"}, Time: bots[0].Engine.Time}
	l := testList(t, t.TempDir(), bots[0], broken, bots[2])
	recs := run(t, t.Context(), l, 0)
	table, err := Compute(l, recs)
	if err != nil {
		t.Fatal(err)
	}
	row, _ := table.Row("broken 1")
	if row.Status != StatusFailed || row.Rated || row.Faults != l.FailureStreak || !strings.Contains(row.Failure, "illegal") {
		t.Errorf("the failing entrant's row: %+v", row)
	}
	if medium, _ := table.Row("medium 1"); !medium.Rated || medium.Games == 0 {
		t.Errorf("the entrant after it: %+v", medium)
	}
	for _, r := range recs {
		if (r.White.Name == "broken 1" || r.Black.Name == "broken 1") && r.Settings[LabelEntrant] != "broken 1" {
			t.Errorf("the failed entrant was chosen as an opponent: game %v", r.Key())
		}
	}
}

// In round-robin mode every entrant first meets every entrant before it, Rounds pairs each,
// one batch per entrant; the gauntlets that follow are as in gauntlet mode.
func TestRoundRobinModeMeetsEveryEarlierEntrant(t *testing.T) {
	l := testList(t, t.TempDir(), append(threeBots(t), bot(t, "strong", "1", "Profile=strong"))...)
	l.Mode, l.Rounds, l.ErrorTarget = RoundRobin, 1, 1000
	recs := run(t, t.Context(), l, 0)
	met := map[[2]string]int{}
	for _, r := range recs {
		a, b := r.White.Name, r.Black.Name
		if a > b {
			a, b = b, a
		}
		met[[2]string{a, b}]++
	}
	if len(met) != 6 {
		t.Errorf("%d pairings met, want all 6 of 4 entrants: %v", len(met), met)
	}
	for k, n := range met {
		if n != 2 {
			t.Errorf("%s and %s played %d games, want one pair", k[0], k[1], n)
		}
	}
}

// A batch begun under some settings is not resumed under others: its games would be two runs'.
func TestChangedSettingsDuringABatchAreRefused(t *testing.T) {
	l := testList(t, t.TempDir(), threeBots(t)...)
	ctx, cancel := context.WithCancel(t.Context())
	r := &Runner{List: l, Check: noCheck, Console: &cancelAfter{n: 1, cancel: cancel}}
	r.Play = PlayLocally(r.Console)
	if _, err := r.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v", err)
	}
	l.Entrants[1].Engine.Options = append(l.Entrants[1].Engine.Options, driver.EngineOption{Name: "Aggression", Value: "1"})
	_, err := (&Runner{List: l, Check: noCheck}).Run(t.Context())
	if err == nil || !strings.Contains(err.Error(), "changed in the list file during the batch") {
		t.Fatalf("resuming under changed settings: %v", err)
	}
}

// A larger budget reopens the gauntlets that closed at their budget, and only those.
func TestLargerBudgetReopensProvisionalEntrants(t *testing.T) {
	dir := t.TempDir()
	l := testList(t, dir, threeBots(t)...)
	l.ErrorTarget, l.MaxGames = 50, 8 // a target no entrant reaches in 8 games
	before := run(t, t.Context(), l, 0)
	l.MaxGames = 16
	after := run(t, t.Context(), l, 0)
	own := map[string]int{}
	wildMetMedium := false
	for _, r := range after[len(before):] {
		own[r.Settings[LabelEntrant]]++
		if r.Settings[LabelEntrant] == "wild 1" && (r.White.Name == "medium 1" || r.Black.Name == "medium 1") {
			wildMetMedium = true
		}
	}
	if !wildMetMedium {
		t.Error("the reopened gauntlet of wild 1 did not meet medium 1, rated after it: it should choose from the whole field")
	}
	if own["wild 1"] == 0 || own["medium 1"] == 0 {
		t.Errorf("a larger budget gave more games to %v, want both provisional entrants", own)
	}
}

// An entrant is its bits, not where they lie: the same program copied elsewhere, or the arbiter
// itself at another path, is the same entrant.
func TestIdentityIgnoresWhereTheProgramLies(t *testing.T) {
	dir := t.TempDir()
	data := []byte("#!/bin/sh\necho v1\n")
	a, b := filepath.Join(dir, "a", "engine"), filepath.Join(dir, "b", "engine")
	for _, p := range []string{a, b} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ha, err1 := Identify(driver.EngineConfig{Command: []string{a, "uhp"}}, Self{})
	hb, err2 := Identify(driver.EngineConfig{Command: []string{b, "uhp"}}, Self{})
	if err1 != nil || err2 != nil || ha != hb {
		t.Errorf("one program at two paths: %s, %s (%v, %v)", ha, hb, err1, err2)
	}
	if hc, _ := Identify(driver.EngineConfig{Command: []string{b, "ugi"}}, Self{}); hc == hb {
		t.Error("other arguments gave the same identity")
	}
	sa, _ := Identify(driver.EngineConfig{Command: []string{a, "hivebot"}}, Self{Path: a, Version: "1"})
	sb, _ := Identify(driver.EngineConfig{Command: []string{b, "hivebot"}}, Self{Path: b, Version: "1"})
	if sa != sb {
		t.Error("the arbiter at two paths gave its built-in engine two identities")
	}
}

// Slug spells a name as a file name; an entrant whose player name has no letter a-z or digit
// still has a check report of its own.
func TestSlug(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"weak 1", "weak-1"}, {"Nokamute v0.4.1 (UHP)", "nokamute-v0-4-1-uhp"}, {"  x--y  ", "x-y"}, {"日本 α", ""},
	} {
		if got := Slug(tt.name); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	l := &List{Checks: "checks"}
	if got := l.CheckReport(Entrant{Name: "日本", Version: "α"}); got != filepath.Join("checks", "entrant.txt") {
		t.Errorf("the check report of 日本 α is %s", got)
	}
}
