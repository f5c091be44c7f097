package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hivearbiter/ci"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/results"
)

// verdictLine picks out what a run says of its SPRT in words: the fastchess line, the
// conclusion, and the annotations.
var verdictLine = regexp.MustCompile(`^(SPRT \(|H[01] accepted: |no decision yet|::)`)

// TestVerdictsGolden keeps what match and stats -sprt say of a regression gate and of a gain
// test, each decided both ways (golden files): the verdict lines and annotations on the
// console, the job summary and the JUnit file, every sentence true of its bounds.
func TestVerdictsGolden(t *testing.T) {
	gate := []string{"-sprt", "elo0=-50", "elo1=0", "model=logistic"}
	gain := []string{"-sprt", "elo0=2", "elo1=7"}
	tests := []struct {
		name  string
		sprt  []string
		ptnml [5]int // the records' pairs, from new's point of view
		code  int
	}{
		{"gate-h0", gate, [5]int{15, 4, 6, 0, 1}, ci.ExitH0},
		{"gate-h1", gate, [5]int{4, 6, 60, 6, 4}, ci.ExitOK},
		{"gate-undecided", gate, [5]int{2, 3, 20, 3, 2}, ci.ExitInconclusive},
		{"gain-h0", gain, [5]int{400, 500, 700, 300, 100}, ci.ExitH0},
		{"gain-h1", gain, [5]int{100, 300, 700, 500, 400}, ci.ExitOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			records := filepath.Join(dir, "run.jsonl")
			writePairs(t, records, tc.ptnml)
			t.Setenv("GITHUB_ACTIONS", "true")
			t.Setenv("GITHUB_STEP_SUMMARY", "")
			junit, summary := filepath.Join(dir, "gate.xml"), filepath.Join(dir, "gate.md")
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), append(append([]string{"stats", "-junit", junit, "-summary", summary}, tc.sprt...), records), &stdout, &stderr)
			if code := exitCode(err, &stderr); code != tc.code {
				t.Fatalf("exit code %d, want %d\n%s%s", code, tc.code, stdout.String(), stderr.String())
			}
			var b strings.Builder
			b.WriteString("== console\n")
			for _, line := range strings.Split(stdout.String(), "\n") {
				if verdictLine.MatchString(line) {
					b.WriteString(line + "\n")
				}
			}
			for _, f := range []string{summary, junit} {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "== %s\n%s", filepath.Base(f), data)
			}
			golden.Check(t, filepath.Join("testdata", "verdicts", "stats-"+tc.name+".golden"), []byte(b.String()))
		})
	}
}

// TestMatchVerdictsGolden keeps the banner and the verdict lines of a match's regression gate
// and gain test between deterministic fake engines (the weak one loses most games by an
// illegal move), whose decisions fall at the same pair on every run.
func TestMatchVerdictsGolden(t *testing.T) {
	t.Parallel()
	weakNew, strongReleased := fakeEngineSpec("new", detConfig("new", 25, 0)), fakeEngineSpec("released", detConfig("released", 0, 0))
	// The games of TestSPRTExitCodes's H1 case, of which the weak engine loses most, not all.
	strongNew, weakReleased := fakeEngineSpec("new", detConfig("good", 0, 0)), fakeEngineSpec("released", detConfig("bad", 25, 0))
	tests := []struct {
		name    string
		sprt    []string
		engines []string
		code    int
	}{
		{"gate-h0", []string{"-sprt", "elo0=-50", "elo1=0", "model=logistic"}, append(weakNew, strongReleased...), ci.ExitH0},
		{"gain-h1", []string{"-sprt", "elo0=0", "elo1=100", "alpha=0.1", "beta=0.1"}, append(strongNew, weakReleased...), ci.ExitOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run.jsonl")
			args := append(append([]string{"match", "-out", out, "-rounds", "100", "-concurrency", "2", "-seed", "3",
				"-openings", "plies=2", "-each", "st=0.2", "fractional=true", "-failure-streak", "0"}, tc.sprt...), tc.engines...)
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), args, &stdout, &stderr)
			if code := exitCode(err, &stderr); code != tc.code {
				t.Fatalf("exit code %d, want %d\n%s%s", code, tc.code, stdout.String(), stderr.String())
			}
			var b strings.Builder
			for _, line := range strings.Split(stdout.String(), "\n") {
				if strings.HasPrefix(line, "Hive Arbiter ") {
					// The banner, without the run's fingerprint and records path, which vary.
					banner, _, _ := strings.Cut(line, ", run ")
					b.WriteString(banner + "\n")
				}
				if verdictLine.MatchString(line) {
					b.WriteString(line + "\n")
				}
			}
			golden.Check(t, filepath.Join("testdata", "verdicts", "match-"+tc.name+".golden"), []byte(b.String()))
		})
	}
}

// writePairs writes records of game pairs between new and released with the pentanomial
// counts ptnml, from new's point of view: a one-point pair is a win and a loss.
func writePairs(t *testing.T, path string, ptnml [5]int) {
	t.Helper()
	// new's results in the pair's two games, for each pair score.
	games := [5][2]string{{"L", "L"}, {"L", "D"}, {"W", "L"}, {"W", "D"}, {"W", "W"}}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	start := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	pair := 0
	for score, n := range ptnml {
		for range n {
			for g, res := range games[score] {
				white, black := "new", "released"
				if g == 1 {
					white, black = black, white
				}
				result := results.Draw
				if res != "D" {
					newWhite := white == "new"
					if (res == "W") == newWhite {
						result = results.WhiteWins
					} else {
						result = results.BlackWins
					}
				}
				reason := results.ReasonQueenSurrounded
				if result == results.Draw {
					reason = results.ReasonRepetition
				}
				r := results.Record{Schema: results.SchemaVersion, Run: "verdicts", Game: 2*pair + g, Round: pair + 1, Pair: pair,
					White: results.Player{Name: white, ID: idOf(white), Time: "depth=3"}, Black: results.Player{Name: black, ID: idOf(black), Time: "depth=3"},
					Opening: fmt.Sprintf("Base+MLP;NotStarted;White[1];opening %d", pair), OpeningIndex: -1, GameType: "Base+MLP",
					Result: result, Reason: reason, Started: start, Finished: start.Add(time.Second), Arbiter: "test", Seed: 1}
				if err := enc.Encode(&r); err != nil {
					t.Fatal(err)
				}
			}
			pair++
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// idOf is what each engine of writePairs said of itself.
func idOf(name string) string {
	if name == "new" {
		return "hivebot v0.2.0-dev"
	}
	return "hivebot v0.1.0"
}
