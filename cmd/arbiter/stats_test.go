package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hivearbiter/ci"
)

// TestStatsDamagedRecords: a corrupt line in the middle of a records file is refused with its
// line number and the way past it; -skip-bad reads the rest and says how many lines it skipped;
// a cut-short last line is ignored, with a word; the file is never changed.
func TestStatsDamagedRecords(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	recs, output, err := playMatchTo(t, good, append(fakeEngines("random", "a", "b"), "-each", "st=0.05", "fractional=true", "-rounds", "2")...)
	if err != nil || len(recs) != 4 {
		t.Fatalf("%d records, %v\n%s", len(recs), err, output)
	}
	data, _ := os.ReadFile(good)
	lines := strings.SplitAfter(string(data), "\n")
	damaged := filepath.Join(dir, "damaged.jsonl")
	content := lines[0] + lines[1] + "{\"schem{\"schema\":1,\n" + lines[2] + lines[3] + `{"schema":1,"run":"x","ga`
	os.WriteFile(damaged, []byte(content), 0o644)

	var stdout, stderr bytes.Buffer
	code := exitCode(run(context.Background(), []string{"stats", damaged}, &stdout, &stderr), &stderr)
	if code != ci.ExitUsage || !strings.Contains(stderr.String(), "damaged.jsonl:3:") || !strings.Contains(stderr.String(), "-skip-bad") {
		t.Errorf("exit %d, stderr %q: want 2, the line number and -skip-bad", code, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if err := run(context.Background(), []string{"stats", "-skip-bad", damaged}, &stdout, &stderr); err != nil {
		t.Fatalf("stats -skip-bad: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"4 games from 1 file", "skipped 1 line(s)", "line 3", "the last line (25 bytes) was cut short", "ignored"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stats -skip-bad output lacks %q:\n%s", want, stdout.String())
		}
	}
	if after, _ := os.ReadFile(damaged); string(after) != content {
		t.Error("stats changed the records file")
	}
}

// TestStatsKeepsUnrelatedApart: stats warns when files of different runs are merged, keeps an
// engine that played under two time controls apart (unless -merge-names), and counts warnings.
func TestStatsKeepsUnrelatedApart(t *testing.T) {
	dir := t.TempDir()
	fast, slow := filepath.Join(dir, "fast.jsonl"), filepath.Join(dir, "slow.jsonl")
	engines := append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "wrong-state")...)
	for _, f := range []struct{ path, st string }{{fast, "st=0.05"}, {slow, "st=0.1"}} {
		if _, output, err := playMatchTo(t, f.path, append(slices.Clone(engines), "-each", f.st, "fractional=true", "-openings", "plies=0")...); err != nil {
			t.Fatalf("%v\n%s", err, output)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"stats", fast, slow}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, want := range []string{"come from 2 different runs", "engine a plays under 2 time controls (st=0.05, st=0.1)", "a [st=0.05]", "Warnings in the records (anomalies that decided no game): b 4", "b [st=0.1] "} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stats output lacks %q:\n%s", want, stdout.String())
		}
	}
	stdout.Reset()
	if err := run(context.Background(), []string{"stats", "-merge-names", fast, slow}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout.String(), "[st=") {
		t.Errorf("-merge-names kept the players apart:\n%s", stdout.String())
	}
}

// TestStatsKeepsProgramsApart: another program entered under a name already used (its id
// differs in the records) is rated apart from it, saying how to merge them; -merge-names does.
func TestStatsKeepsProgramsApart(t *testing.T) {
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first.jsonl"), filepath.Join(dir, "second.jsonl")
	other := fakeConfig("random")
	other.ID = "another-engine 2.0"
	for _, f := range []struct {
		path string
		a    []string
	}{{first, fakeEngineArgs("a", "random")}, {second, append(fakeEngineSpec("a", other), "-seed", "2")}} {
		args := append(slices.Clone(f.a), fakeEngineArgs("b", "random")...)
		if _, output, err := playMatchTo(t, f.path, append(args, "-each", "st=0.05", "fractional=true", "-openings", "plies=0", "-maxplies", "6")...); err != nil {
			t.Fatalf("%v\n%s", err, output)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"stats", first, second}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, want := range []string{
		`engine a is 2 programs by the id each gave (`, `is "another-engine 2.0"`, `is "fake-random v1.0"`,
		`rated apart as "a [id HASH]"; if they are one engine, -merge-names rates it as one player`,
		"a [id ",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stats output lacks %q:\n%s", want, stdout.String())
		}
	}
	// docs/statistics.md shows this warning as it is printed.
	warning, _, _ := strings.Cut(stdout.String(), "\n")
	if page, err := os.ReadFile(filepath.Join(repoRoot, "docs/statistics.md")); err != nil || !strings.Contains(string(page), warning) {
		t.Errorf("docs/statistics.md does not show the warning %q (%v)", warning, err)
	}
	stdout.Reset()
	if err := run(context.Background(), []string{"stats", "-merge-names", first, second}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout.String(), "[id ") {
		t.Errorf("-merge-names kept the programs apart:\n%s", stdout.String())
	}
}

// TestReportRefusesToOverwriteRecords: arbiter report -o naming a records file it reads would
// replace the games with a web page.
func TestReportRefusesToOverwriteRecords(t *testing.T) {
	recs := filepath.Join(t.TempDir(), "games.jsonl")
	os.WriteFile(recs, nil, 0o644)
	var stdout, stderr bytes.Buffer
	code := exitCode(run(context.Background(), []string{"report", "-o", recs, recs}, &stdout, &stderr), &stderr)
	if code != ci.ExitUsage || !strings.Contains(stderr.String(), "would overwrite the records file") {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
}
