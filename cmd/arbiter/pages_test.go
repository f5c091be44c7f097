package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/cli"
	"hivearbiter/report"
)

// TestMatchPages plays a short match with -report and a live page, and checks that the report
// holds every game at the end.
func TestMatchPages(t *testing.T) {
	page := filepath.Join(t.TempDir(), "run.html")
	recs, out, err := playMatch(t, append(append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...),
		"-each", "st=0.05", "fractional=true", "-rounds", "2", "-maxplies", "30", "-report", page, "-http", "127.0.0.1:0")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "Live page at http://127.0.0.1:") {
		t.Errorf("the match did not say where its live page is:\n%s", out)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"games":4,`; len(recs) != 4 || !strings.Contains(string(b), want) {
		t.Errorf("%d games recorded; the report does not hold %s", len(recs), want)
	}
}

func TestMatchRefusesAPublicLivePage(t *testing.T) {
	_, out, err := playMatch(t, append(append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...),
		"-each", "st=0.05", "fractional=true", "-http", "0.0.0.0:0")...)
	var ue cli.UsageError
	if !errors.As(err, &ue) || !errors.Is(err, report.ErrPublicAddress) {
		t.Errorf("err = %v, want a usage error refusing the address\n%s", err, out)
	}
}

// TestMatchConfigTakesPageFlags checks that every reader of match's command line (the README
// test, -config checks) accepts the page flags.
func TestMatchConfigTakesPageFlags(t *testing.T) {
	var stderr strings.Builder
	args := append(append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...), "-each", "st=1", "-report", "run.html", "-http", "127.0.0.1:8080", "-rounds", "3")
	cfg, err := matchConfig(args, &stderr)
	if err != nil || cfg.Rounds != 3 {
		t.Errorf("rounds %d, %v\n%s", cfg.Rounds, err, stderr.String())
	}
}
