package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/ci"
	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/tune"
)

// arbiter tune plays its pairs against a UHP engine with the option, writes them down, prints
// the values as option words and a TOML line, and a second run with the same file has nothing
// left to play.
func TestTuneCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "tune.jsonl")
	skill := uhpserver.Option{Name: "Skill", Type: "int", Value: "50", Default: "50", Extra: []string{"0", "100"}}
	engine := fakeEngineSpec("dev", uhpfake.Config{Play: "random", Seed: 3, Options: []uhpserver.Option{skill}})
	args := append([]string{"tune", "-param", "Skill,20,0,100,10,0.1", "-iterations", "3", "-maxplies", "8", "-seed", "2", "-out", out},
		append(engine, "depth=1")...)
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("arbiter tune: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	for _, want := range []string{"Tune of dev: 3 of 3 game pairs", "Values: option.Skill=", `options = { Skill = "`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	h, recs, _, err := tune.ReadRecords(out)
	if err != nil || h.Engine != "dev" || len(recs) != 3 {
		t.Fatalf("records: header %+v, %d pairs, %v; want dev's 3", h, len(recs), err)
	}
	for _, r := range recs {
		if len(r.Games) != 2 || r.PlusSent[0] == "" {
			t.Errorf("pair %d: %+v, want two games and the values sent", r.Iteration, r)
		}
	}
	stdout.Reset()
	if err := run(context.Background(), args, &stdout, io.Discard); err != nil || !strings.Contains(stdout.String(), "3 of 3") {
		t.Errorf("second run: %v\n%s", err, stdout.String())
	}

	// arbiter report draws the tune's records as a tune, and refuses them mixed with games.
	page := filepath.Join(dir, "tune.html")
	stdout.Reset()
	if err := run(context.Background(), []string{"report", "-o", page, out}, &stdout, io.Discard); err != nil || !strings.Contains(stdout.String(), "3 of 3 game pairs of a tune of dev") {
		t.Errorf("arbiter report on a tune: %v\n%s", err, stdout.String())
	}
	if html, err := os.ReadFile(page); err != nil || !strings.Contains(string(html), `data-mode="tune"`) {
		t.Errorf("the tune's page: %v, want a page in tune mode", err)
	}
	if err := run(context.Background(), []string{"report", "-o", page, out, out}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "holds a tune") {
		t.Errorf("arbiter report on a tune and more: %v, want a refusal", err)
	}
}

// A protocol without options is refused with the reason, as a usage error (exit code 2), and
// so is a tune of no parameter or of two engines.
func TestTuneRefusals(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"gamestring", []string{"-param", "X,1,0,2,1,1", "-engine", "proto=gamestring", "cmd=" + os.Args[0], "st=1"}, "its protocol (gamestring) has none: a one-engine player has no options to set"},
		{"no param", []string{"-engine", "cmd=" + os.Args[0], "depth=1"}, "no parameter to tune"},
		{"two engines", []string{"-param", "X,1,0,2,1,1", "-engine", "cmd=" + os.Args[0], "depth=1", "-engine", "cmd=" + os.Args[0], "depth=1"}, "give one engine with -engine, not 2"},
		{"bad param", []string{"-param", "X,5,0,2,1,1", "-engine", "cmd=" + os.Args[0], "depth=1"}, "start 5 is outside [0, 2]"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		args := append([]string{"tune", "-iterations", "2", "-out", filepath.Join(dir, tt.name+".jsonl")}, tt.args...)
		err := run(context.Background(), args, io.Discard, &stderr)
		if code := exitCode(err, &stderr); code != ci.ExitUsage || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%s: exit %d, %s; want %d and %q", tt.name, code, stderr.String(), ci.ExitUsage, tt.want)
		}
	}
}

// A tune stopped by Ctrl-C exits 130 with its values so far and how to resume; the same
// command then plays the rest.
func TestTuneInterruptResumes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tune.jsonl")
	skill := uhpserver.Option{Name: "Skill", Type: "int", Value: "50", Default: "50", Extra: []string{"0", "100"}}
	engine := fakeEngineSpec("dev", uhpfake.Config{Play: "random", Seed: 3, Delay: 50 * time.Millisecond, Options: []uhpserver.Option{skill}})
	args := append([]string{"tune", "-param", "Skill,20,0,100,10,0.1", "-iterations", "6", "-maxplies", "6", "-out", out},
		append(engine, "depth=1")...)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, args, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != ci.ExitInterrupted || !strings.Contains(stdout.String(), "Stopped before its end") {
		t.Fatalf("interrupted tune: exit %d, want %d and how to resume:\n%s%s", code, ci.ExitInterrupted, stdout.String(), stderr.String())
	}
	_, recs, _, err := tune.ReadRecords(out)
	if err != nil || len(recs) >= 6 {
		t.Fatalf("after the interrupt: %d pairs, %v; want fewer than 6", len(recs), err)
	}
	stdout.Reset()
	if err := run(context.Background(), args, &stdout, &stderr); err != nil || !strings.Contains(stdout.String(), "Tune of dev: 6 of 6 game pairs") {
		t.Errorf("resumed tune: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	t.Logf("stopped after %d pairs, then finished", len(recs))
}

// arbiter tune -http serves the tune's live page while it runs, on loopback unless told
// otherwise.
func TestTuneLivePage(t *testing.T) {
	dir := t.TempDir()
	skill := uhpserver.Option{Name: "Skill", Type: "int", Value: "50", Default: "50", Extra: []string{"0", "100"}}
	engine := append(fakeEngineSpec("dev", uhpfake.Config{Play: "random", Seed: 3, Options: []uhpserver.Option{skill}}), "depth=1")
	args := func(extra ...string) []string {
		a := []string{"tune", "-param", "Skill,20,0,100,10,0.1", "-iterations", "2", "-maxplies", "8", "-out", filepath.Join(dir, "tune.jsonl")}
		return append(append(a, extra...), engine...)
	}
	var stdout bytes.Buffer
	if err := run(context.Background(), args("-http", "127.0.0.1:0"), &stdout, io.Discard); err != nil || !strings.Contains(stdout.String(), "Live page at http://127.0.0.1:") {
		t.Errorf("arbiter tune -http: %v\n%s", err, stdout.String())
	}
	err := run(context.Background(), args("-http", "0.0.0.0:0"), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("arbiter tune -http 0.0.0.0:0: %v, want a refusal", err)
	}
}
