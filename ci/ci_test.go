package ci

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/compliance"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/results"
)

func ptr(x float64) *float64 { return &x }

// gates are the outcomes a gate's reports must render: a pass on mirrors only, a regression
// caught, a cap reached, a strict stop with the misbehaviour table, and a gain test ([2, 7]
// normalized) that showed its gain and one that did not. The SPRTs' reasons are
// SPRTReason's, as the commands give them.
func gates() map[string]Gate {
	all := gatesAsRun()
	setup := results.Setup{Limit: "depth=3", GameType: "Base+MLP", Openings: "random 4-ply openings", MaxGames: 400,
		Engines: []results.Identity{{Name: "new", ID: "hivebot v0.2.0"}, {Name: "released", ID: "hivebot v0.1.0"}}}
	for name, g := range all {
		g.Setup = setup
		if strings.HasPrefix(name, "gain") {
			g.Setup.MaxGames = 20000
		}
		if name == "cap-h0" {
			g.Setup.MaxGames = 800
		}
		if g.Summary.SPRT != nil && g.Verdict.ExitCode != 5 {
			g.Verdict.Reason, g.Verdict.Tested = SPRTReason(g.Summary), true
		}
		all[name] = g
	}
	return all
}

func gatesAsRun() map[string]Gate {
	sprt := func(llr float64, decision string, pairs int) *results.SPRTSummary {
		return &results.SPRTSummary{Elo0: -50, Elo1: 0, Alpha: 0.05, Beta: 0.05, Model: "logistic", LLR: llr, Lower: -2.944, Upper: 2.944, Decision: decision, Pairs: pairs}
	}
	gain := func(llr float64, decision string, pairs int) *results.SPRTSummary {
		return &results.SPRTSummary{Elo0: 2, Elo1: 7, Alpha: 0.05, Beta: 0.05, Model: "normalized", LLR: llr, Lower: -2.944, Upper: 2.944, Decision: decision, Pairs: pairs}
	}
	atCap := func(s *results.SPRTSummary, threshold float64) *results.SPRTSummary {
		s.DecidedAtCap, s.Threshold = true, &threshold
		return s
	}
	engines := []results.EngineSummary{{Name: "new"}, {Name: "released"}}
	return map[string]Gate{
		"h1-mirrors": {Name: "CI regression gate", Mirrors: 22, Pairs: 22,
			Verdict: Verdict{Passed: true, ExitCode: 0, Decision: "H1 accepted", Reason: "the SPRT accepted H1"},
			Summary: &results.Summary{Status: "H1", Games: 44, Engines: engines, SPRT: sprt(3.08, "H1", 20), Faults: map[string]results.Faults{},
				Pairings: []results.PairingSummary{{First: "new", Second: "released", Games: 44, Wins: 22, Losses: 22, Pentanomial: [5]int{0, 0, 22, 0, 0},
					Estimate: "no-spread", Elo: ptr(0), LOS: 0.5, DrawRatio: 1, PairsRatio: ptr(0), StatisticsPentanomial: true}}}},
		"h0": {Name: "CI regression gate", Mirrors: 3, Pairs: 26,
			Verdict: Verdict{ExitCode: 3, Decision: "H0 accepted", Reason: "the SPRT accepted H0: new is weaker"},
			Summary: &results.Summary{Status: "H0", Games: 52, Engines: engines, SPRT: sprt(-3.05, "H0", 26), Faults: map[string]results.Faults{},
				Pairings: []results.PairingSummary{{First: "new", Second: "released", Games: 52, Wins: 9, Draws: 6, Losses: 37, Pentanomial: [5]int{15, 4, 6, 0, 1},
					Estimate: "regular", Elo: ptr(-249.3), EloError: ptr(122.93), NormalizedElo: ptr(-288.22), NormalizedEloError: ptr(94.43), LOS: 0.0001, DrawRatio: 0.2308, PairsRatio: ptr(0.05), StatisticsPentanomial: true}}}},
		"cap": {Name: "CI regression gate", Mirrors: 0, Pairs: 200,
			Verdict: Verdict{ExitCode: 4, Decision: "no decision", Reason: "the SPRT decided nothing in 200 game pairs"},
			Summary: &results.Summary{Status: "inconclusive", Games: 400, Engines: engines, SPRT: sprt(0.33, "continue", 200), Faults: map[string]results.Faults{},
				Pairings: []results.PairingSummary{{First: "new", Second: "released", Games: 400, Wins: 150, Draws: 100, Losses: 150, Pentanomial: [5]int{10, 40, 100, 40, 10},
					Estimate: "regular", Elo: ptr(-0.0001), EloError: ptr(30.1), EloErrorUnbounded: false, NormalizedElo: ptr(0), NormalizedEloError: ptr(13.9), LOS: 0.5, DrawRatio: 0.5, PairsRatio: ptr(1), StatisticsPentanomial: true}}}},
		"cap-h0": {Name: "CI regression gate", Mirrors: 0, Pairs: 400,
			Verdict: Verdict{ExitCode: 3, Decision: "H0 accepted", Reason: "the SPRT accepted H0 at its cap"},
			Summary: &results.Summary{Status: "H0", Games: 800, Engines: engines, SPRT: atCap(sprt(-0.41, "H0", 400), -0.07), Faults: map[string]results.Faults{},
				Pairings: []results.PairingSummary{{First: "new", Second: "released", Games: 800, Wins: 350, Draws: 60, Losses: 390, Pentanomial: [5]int{90, 20, 170, 15, 105},
					Estimate: "regular", Elo: ptr(-17.4), EloError: ptr(29.8), NormalizedElo: ptr(-16.2), NormalizedEloError: ptr(27.7), LOS: 0.13, DrawRatio: 0.425, PairsRatio: ptr(1.09), StatisticsPentanomial: true}}}},
		"gain-h0": {Name: "gain test", Pairs: 900,
			Verdict: Verdict{ExitCode: 3, Decision: "H0 accepted"},
			Summary: &results.Summary{Status: "H0", Games: 1800, Engines: engines, SPRT: gain(-2.95, "H0", 900), Faults: map[string]results.Faults{},
				Pairings: []results.PairingSummary{{First: "new", Second: "released", Games: 1800, Wins: 700, Draws: 380, Losses: 720, Pentanomial: [5]int{200, 100, 300, 100, 200},
					Estimate: "regular", Elo: ptr(-3.9), EloError: ptr(20.3), NormalizedElo: ptr(-3.2), NormalizedEloError: ptr(16.5), LOS: 0.35, DrawRatio: 0.3333, PairsRatio: ptr(1), StatisticsPentanomial: true}}}},
		"gain-h1": {Name: "gain test", Pairs: 700,
			Verdict: Verdict{Passed: true, ExitCode: 0, Decision: "H1 accepted"},
			Summary: &results.Summary{Status: "H1", Games: 1400, Engines: engines, SPRT: gain(2.96, "H1", 700), Faults: map[string]results.Faults{},
				Pairings: []results.PairingSummary{{First: "new", Second: "released", Games: 1400, Wins: 600, Draws: 300, Losses: 500, Pentanomial: [5]int{120, 100, 230, 110, 140},
					Estimate: "regular", Elo: ptr(24.9), EloError: ptr(21.2), NormalizedElo: ptr(22.1), NormalizedEloError: ptr(18.8), LOS: 0.99, DrawRatio: 0.3286, PairsRatio: ptr(1.14), StatisticsPentanomial: true}}}},
		"strict-stop": {Name: "CI | gate", Pairs: 1,
			Verdict: Verdict{ExitCode: 5, Decision: "stopped by engine failures", Reason: "strict: 1 games ended by engine misbehaviour"},
			Summary: &results.Summary{Status: "strict-stop", Games: 3, Engines: engines, Faults: map[string]results.Faults{"new": {results.ReasonTimeForfeit: 1}},
				Pairings: []results.PairingSummary{{First: "new", Second: "released", Games: 3, Wins: 1, Losses: 2, Pentanomial: [5]int{0, 0, 1, 0, 0}, Unpaired: 1,
					Estimate: "regular", Elo: ptr(-120.4), EloErrorUnbounded: true, NormalizedElo: ptr(-100), NormalizedEloError: ptr(300), LOS: 0.2, DrawRatio: 1, PairsRatio: ptr(0), StatisticsPentanomial: true}}}},
	}
}

// TestWriteMarkdown keeps the job summary of each kind of gate outcome (golden files; they
// render on GitHub as tables, so each table row has as many cells as its header).
func TestWriteMarkdown(t *testing.T) {
	for name, g := range gates() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteMarkdown(&b, g); err != nil {
				t.Fatal(err)
			}
			checkTables(t, b.String())
			golden.Check(t, filepath.Join("testdata", "summary-"+name+".md"), b.Bytes())
		})
	}
}

// checkTables fails when a Markdown table's rows do not all have the header's number of
// cells, which GitHub renders as a broken table.
func checkTables(t *testing.T, md string) {
	t.Helper()
	cells := func(line string) int {
		return strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") - 1
	}
	want := -1
	for _, line := range strings.Split(md, "\n") {
		switch {
		case !strings.HasPrefix(line, "|"):
			want = -1
		case want < 0:
			want = cells(line)
		case cells(line) != want:
			t.Errorf("table row of %d cells under a header of %d: %q", cells(line), want, line)
		}
	}
}

// TestWriteJUnit keeps the JUnit files of checks and gates (golden files) and validates each
// against the JUnit schema CI systems read.
func TestWriteJUnit(t *testing.T) {
	stamp := time.Date(2026, 11, 28, 4, 0, 0, 0, time.UTC)
	checks := []compliance.Result{
		{Name: "start and banner", Status: compliance.Passed, Detail: `id "fake v1.0"`},
		{Name: "bestmove time 00:00:01", Status: compliance.Failed, Detail: "answered wQ wQ: not a legal move\n<&> kept whole"},
		{Name: "bench (optional)", Status: compliance.Skipped, Detail: "the engine has no bench command"},
	}
	suites := map[string][]Suite{
		"check":          {CheckSuite("fake", checks, nil)},
		"check-no-start": {CheckSuite("./engine", nil, errors.New("exec: no such file"))},
	}
	for name, g := range gates() {
		suites["gate-"+name] = []Suite{GateSuite(g)}
	}
	suites["check"][0].Timestamp, suites["check"][0].Time = stamp, 1500*time.Millisecond
	for name, s := range suites {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteJUnit(&b, s...); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "junit-"+name+".xml")
			golden.Check(t, path, b.Bytes())
			file := filepath.Join(t.TempDir(), "report.xml")
			if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			testenv.ValidateXML(t, file, "testdata/junit.xsd")
		})
	}
}

// TestSchemaRejects makes sure the validation can fail: a case without its classname, and a
// case that both failed and was skipped, are refused.
func TestSchemaRejects(t *testing.T) {
	for _, doc := range []string{
		`<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase name="c"/></testsuite></testsuites>`,
		`<testsuites><testsuite name="s" tests="1" failures="1" errors="0"><testcase name="c" classname="k"><skipped/><failure message="m"/></testcase></testsuite></testsuites>`,
	} {
		file := filepath.Join(t.TempDir(), "bad.xml")
		if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		inner := &recorder{TB: t}
		testenv.ValidateXML(inner, file, "testdata/junit.xsd")
		if !inner.failed {
			t.Errorf("the schema accepted %s", doc)
		}
	}
}

// recorder is a test that notes an error instead of failing.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

// TestAnnotate checks the workflow commands: escaped as the Actions runner reads them back, an
// error for a failed gate and a notice for a passed one, a warning per misbehaving engine.
func TestAnnotate(t *testing.T) {
	var b bytes.Buffer
	Annotate(&b, "error", "a: b, c", "50% of\nit")
	if got, want := b.String(), "::error title=a%3A b%2C c::50%25 of%0Ait\n"; got != want {
		t.Errorf("Annotate wrote %q, want %q", got, want)
	}
	g := gates()
	tests := []struct {
		gate Gate
		want []string
	}{
		{g["h1-mirrors"], []string{"::notice title=Hive Arbiter gate passed::H1 accepted: ", "::notice title=Every pair was a mirror::Every one of the 22"}},
		{g["h0"], []string{"::error title=Hive Arbiter gate failed::H0 accepted: "}},
		{g["strict-stop"], []string{"::error title=Hive Arbiter gate failed::stopped by engine failures: ", "::warning title=new misbehaved::time-forfeit 1"}},
		{g["gain-h0"], []string{"::warning title=Hive Arbiter SPRT ended%3A H0 accepted::H0 accepted: the SPRT ([2, 7] normalized Elo) accepted H0, new gains at most 2 normalized Elo over released"}},
		{g["gain-h1"], []string{"::notice title=Hive Arbiter gate passed::H1 accepted: the SPRT ([2, 7] normalized Elo) accepted H1, new gains at least 7 normalized Elo over released"}},
	}
	for _, tc := range tests {
		b.Reset()
		AnnotateGate(&b, tc.gate)
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if len(lines) != len(tc.want) {
			t.Errorf("%d annotations, want %d:\n%s", len(lines), len(tc.want), b.String())
			continue
		}
		for i, want := range tc.want {
			if !strings.HasPrefix(lines[i], want) {
				t.Errorf("annotation %d is %q, want it to begin %q", i, lines[i], want)
			}
		}
	}
}

// TestVerdictsTrueOfBounds: each verdict states the hypothesis it accepted in words true of
// its bounds' signs, and only a gate fails: a gain test that showed no gain ended.
func TestVerdictsTrueOfBounds(t *testing.T) {
	g := gates()
	tests := []struct {
		gate          string
		reason, title string
		failed        bool
	}{
		{"h0", "accepted H0, new is weaker than released by 50 Elo or more: LLR -3.05 reached -2.94", "### ❌ Hive Arbiter: CI regression gate failed: H0 accepted", true},
		{"h1-mirrors", "accepted H1, new is no weaker than released: LLR 3.08 reached 2.94", "### ✅ Hive Arbiter: CI regression gate passed: H1 accepted", false},
		{"cap", "decided nothing in 200 game pairs", "### ❌ Hive Arbiter: CI regression gate failed: no decision", true},
		{"cap-h0", "accepted H0, new is weaker than released by 50 Elo or more, at its cap of 400 game pairs: LLR -0.41, between -2.94 and 2.94, is below the final threshold -0.07",
			"### ❌ Hive Arbiter: CI regression gate failed: H0 accepted", true},
		{"gain-h0", "accepted H0, new gains at most 2 normalized Elo over released: LLR -2.95 reached -2.94", "### ➖ Hive Arbiter: gain test ended: H0 accepted", false},
		{"gain-h1", "accepted H1, new gains at least 7 normalized Elo over released: LLR 2.96 reached 2.94", "### ✅ Hive Arbiter: gain test passed: H1 accepted", false},
	}
	for _, tc := range tests {
		gate := g[tc.gate]
		if !strings.Contains(gate.Verdict.Reason, tc.reason) {
			t.Errorf("%s: reason %q, want it to hold %q", tc.gate, gate.Verdict.Reason, tc.reason)
		}
		var b bytes.Buffer
		if err := WriteMarkdown(&b, gate); err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(b.String(), "\n"); first != tc.title {
			t.Errorf("%s: heading %q, want %q", tc.gate, first, tc.title)
		}
		if gate.Failed() != tc.failed {
			t.Errorf("%s: Failed() = %v, want %v", tc.gate, gate.Failed(), tc.failed)
		}
	}
}

func TestGitHubFrom(t *testing.T) {
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": "/tmp/summary.md"}
	if got := GitHubFrom(func(k string) string { return env[k] }); !got.Actions || got.StepSummary != "/tmp/summary.md" {
		t.Errorf("GitHubFrom = %+v", got)
	}
	if got := GitHubFrom(func(string) string { return "" }); got.Actions || got.StepSummary != "" {
		t.Errorf("GitHubFrom of no environment = %+v", got)
	}
}
