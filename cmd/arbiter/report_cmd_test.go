package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/cli"
)

func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	records := filepath.Join(dir, "games.jsonl")
	if _, out, err := playMatchTo(t, records, append(append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...),
		"-each", "st=0.05", "fractional=true", "-rounds", "2", "-maxplies", "20")...); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	page := filepath.Join(dir, "report.html")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"report", "-sprt", "elo0=0", "elo1=5", "-o", page, records}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "Wrote "+page+": 4 games of a, b") {
		t.Errorf("stdout: %q", stdout.String())
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<title>a vs b</title>", `"games":4,`, `"sprt":{`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the report lacks %s", want)
		}
	}
}

func TestReportCommandUsage(t *testing.T) {
	for _, args := range [][]string{{"report"}, {"report", "-sprt", "elo0=5", "elo1=0", "x.jsonl"}} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), args, &stdout, &stderr)
		if _, ok := err.(cli.UsageError); !ok {
			t.Errorf("arbiter %s: %v, want a usage error", strings.Join(args, " "), err)
		}
	}
}
