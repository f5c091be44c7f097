package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hivearbiter/ci"
)

// printedDecisionCode is the exit code that the SPRT decision a command printed calls for:
// the last SPRT line of match or stats -sprt, or sprt-calc's verdict.
func printedDecisionCode(t *testing.T, out string) int {
	t.Helper()
	switch {
	case strings.Contains(out, "H1 was accepted"), strings.Contains(out, "H1 accepted"):
		return ci.ExitOK
	case strings.Contains(out, "H0 was accepted"), strings.Contains(out, "H0 accepted"):
		return ci.ExitH0
	case strings.Contains(out, "no decision yet"), strings.Contains(out, "was inconclusive"):
		return ci.ExitInconclusive
	}
	t.Fatalf("no SPRT decision in the output:\n%s", out)
	return 0
}

var ptnmlLine = regexp.MustCompile(`Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]`)

// TestDecisionExitCodesAgree plays a match to each decision (H1, H0, and none at the game
// cap) and then asks stats -sprt about its records and sprt-calc about its pair counts: the
// three commands must exit with the same code and print the same decision, so that a CI job
// that gates on merged shards or on counts gates as the match itself would.
func TestDecisionExitCodesAgree(t *testing.T) {
	t.Parallel()
	// Salted engines play the same games in any process; bad blunders now and then (one that
	// lost every game would stop the run, exit 5: a run that informs of nothing).
	good, bad := fakeEngineSpec("good", detConfig("good", 0, 0)), fakeEngineSpec("bad", detConfig("bad", 25, 0))
	sprt := []string{"elo0=0", "elo1=100", "alpha=0.1", "beta=0.1"}
	tests := []struct {
		name    string
		engines []string
		rounds  string
		code    int
		verdict string   // what stats and sprt-calc print
		atCap   []string // the match's own -sprt words
	}{
		{"H1", append(append([]string{}, good...), bad...), "100", ci.ExitOK, "H1 accepted", nil},
		{"H0", append(append([]string{}, bad...), good...), "100", ci.ExitH0, "H0 accepted", nil},
		// Asked to end inconclusive at its cap: a match that decided there by its final
		// threshold would decide where records and counts without the cap do not.
		{"no-decision", append(append([]string{}, good...), fakeEngineSpec("other", detConfig("other", 0, 0))...), "1", ci.ExitInconclusive, "no decision yet",
			[]string{"at_cap=inconclusive"}},
		// A tournament format of two engines decides as a match does.
		{"round-robin-H0", append(append([]string{"-format", "round-robin"}, bad...), good...), "100", ci.ExitH0, "H0 accepted", nil},
		{"gauntlet-H1", append(append([]string{"-format", "gauntlet"}, good...), bad...), "100", ci.ExitOK, "H1 accepted", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "gate.jsonl")
			// One game at a time: no game finishes after the decision, so the records hold
			// exactly the pairs the match decided on.
			args := append([]string{"-rounds", tc.rounds, "-concurrency", "1", "-seed", "3", "-openings", "plies=2",
				"-each", "st=0.2", "fractional=true", "-failure-streak", "0", "-sprt"}, append(append(append([]string{}, sprt...), tc.atCap...), tc.engines...)...)
			_, text, err := playMatchTo(t, out, args...)
			var stderr bytes.Buffer
			if code := exitCode(err, &stderr); code != tc.code {
				t.Fatalf("match: exit code %d, want %d\n%s%s", code, tc.code, text, stderr.String())
			}

			var stats bytes.Buffer
			err = run(context.Background(), append(append([]string{"stats", "-sprt"}, sprt...), out), &stats, &stderr)
			if code := exitCode(err, &stderr); code != tc.code {
				t.Errorf("stats -sprt: exit code %d, want %d (the match's)\n%s%s", code, tc.code, stats.String(), stderr.String())
			}
			if got := printedDecisionCode(t, stats.String()); got != tc.code {
				t.Errorf("stats -sprt printed a decision of exit code %d, want %d:\n%s", got, tc.code, stats.String())
			}
			// The records carry the match's test: stats of them alone decides as -sprt did.
			var alone bytes.Buffer
			err = run(context.Background(), []string{"stats", out}, &alone, &stderr)
			if code := exitCode(err, &stderr); code != tc.code {
				t.Errorf("stats of the records alone: exit code %d, want %d (the match's)\n%s%s", code, tc.code, alone.String(), stderr.String())
			}
			if got := printedDecisionCode(t, alone.String()); got != tc.code {
				t.Errorf("stats of the records alone printed a decision of exit code %d, want %d:\n%s", got, tc.code, alone.String())
			}
			want := "SPRT of the records' run: elo0=0 elo1=100 alpha=0.1 beta=0.1 model=normalized"
			for _, word := range tc.atCap { // the records carry the match's at_cap
				want += " " + word
			}
			if want += ", at most "; !strings.Contains(alone.String(), want) {
				t.Errorf("stats of the records alone does not say the test it applies (%q):\n%s", want, alone.String())
			}
			m := ptnmlLine.FindStringSubmatch(stats.String())
			if m == nil {
				t.Fatalf("stats printed no pair counts:\n%s", stats.String())
			}

			var calc bytes.Buffer
			calcArgs := []string{"sprt-calc", "-ptnml", strings.Join(m[1:], ","), "-elo0", "0", "-elo1", "100", "-alpha", "0.1", "-beta", "0.1"}
			err = run(context.Background(), calcArgs, &calc, &stderr)
			if code := exitCode(err, &stderr); code != tc.code {
				t.Errorf("%v: exit code %d, want %d (the match's)\n%s%s", calcArgs, code, tc.code, calc.String(), stderr.String())
			}
			if !strings.Contains(calc.String(), tc.verdict) {
				t.Errorf("%v printed no %q:\n%s", calcArgs, tc.verdict, calc.String())
			}
		})
	}
}

// TestStatsDecidesAtTheCapAsTheMatch: a match that reaches its cap between the bounds decides
// there by its final threshold; its records carry the test and the cap, so stats of them alone
// takes the same decision at the cap, with the same exit code.
func TestStatsDecidesAtTheCapAsTheMatch(t *testing.T) {
	good, other := fakeEngineSpec("good", detConfig("good", 0, 0)), fakeEngineSpec("other", detConfig("other", 0, 0))
	out := filepath.Join(t.TempDir(), "capped.jsonl")
	args := append([]string{"-rounds", "2", "-concurrency", "1", "-seed", "3", "-openings", "plies=2",
		"-each", "st=0.2", "fractional=true", "-failure-streak", "0", "-sprt", "elo0=0", "elo1=100", "alpha=0.1", "beta=0.1"},
		append(append([]string{}, good...), other...)...)
	_, text, err := playMatchTo(t, out, args...)
	var stderr bytes.Buffer
	code := exitCode(err, &stderr)
	if code != ci.ExitOK && code != ci.ExitH0 {
		t.Fatalf("match: exit code %d, want a decision at the cap (%d or %d)\n%s%s", code, ci.ExitOK, ci.ExitH0, text, stderr.String())
	}
	if !strings.Contains(text, "at its cap") {
		t.Fatalf("the match does not say it decided at its cap:\n%s", text)
	}
	var alone bytes.Buffer
	err = run(context.Background(), []string{"stats", out}, &alone, &stderr)
	if got := exitCode(err, &stderr); got != code {
		t.Errorf("stats of the records alone: exit code %d, want %d (the match's)\n%s%s", got, code, alone.String(), stderr.String())
	}
	if got := printedDecisionCode(t, alone.String()); got != code {
		t.Errorf("stats of the records alone printed a decision of exit code %d, want %d:\n%s", got, code, alone.String())
	}
	if !strings.Contains(alone.String(), "at its cap (LLR ") {
		t.Errorf("stats of the records alone does not say it decided at the cap:\n%s", alone.String())
	}
}
