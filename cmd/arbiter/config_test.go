package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/ci"
	"hivearbiter/configs"
	"hivearbiter/distributed"
	"hivearbiter/report"
)

// TestConfigShowAndVersion: the demo tells users to copy configs/match.toml, which an installed
// binary has no file of: "arbiter config show match" prints it. -version prints the version.
func TestConfigShowAndVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"config", "show", "match"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	want, _ := configs.Example("match.toml")
	if stdout.String() != string(want) {
		t.Errorf("config show match printed:\n%s", stdout.String())
	}
	stdout.Reset()
	if err := run(context.Background(), []string{"-version"}, &stdout, &stderr); err != nil || !strings.HasPrefix(stdout.String(), "Hive Arbiter ") {
		t.Errorf("-version: %v %q", err, stdout.String())
	}
	if code := exitCode(run(context.Background(), []string{"config", "show", "nope"}, &stdout, &stderr), &stderr); code != ci.ExitUsage {
		t.Errorf("config show nope: exit %d", code)
	}
}

// TestRepeatedPairsWarned: game pairs on one opening replay the same games with deterministic
// engines; the run says so before it starts.
func TestRepeatedPairsWarned(t *testing.T) {
	_, output, err := playMatch(t, append(fakeEngines("random", "a", "b"), "-each", "st=0.05", "fractional=true", "-rounds", "2", "-openings", "plies=0")...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(output, "Warning: 1 of 2 game pairs repeat an opening") {
		t.Errorf("no warning of repeated pairs:\n%s", output)
	}
}

// TestOneRunByEitherPath: a configuration file gives one run, with one run id, whether a
// program loads it (configs.LoadFile, arbiter.NewTournament) or "arbiter match -config" does.
// The move limit and opening defaults were the command's only, so the run ids differed.
func TestOneRunByEitherPath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "run.toml")
	os.WriteFile(file, []byte("rounds = 3\n[each]\ntc = \"st=1\"\n[[engine]]\nname = \"a\"\ncmd = \"./a\"\n[[engine]]\nname = \"b\"\ncmd = \"./b\"\n"), 0o755)
	id := func(cfg arbiter.Config) string {
		t.Helper()
		tour, err := arbiter.NewTournament(cfg, arbiter.TournamentOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return tour.Run()
	}
	library, err := configs.LoadFile(file, builtinResolver)
	if err != nil {
		t.Fatal(err)
	}
	command, err := matchConfigFlags([]string{"-config", file}, io.Discard, new(distributed.HostConfig), new(report.RunOptions))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := id(library), id(command); a != b {
		t.Errorf("run %s by configs.LoadFile, %s by arbiter match -config", a, b)
	}
	if library.Adjudication.MaxPlies != 2*configs.DefaultMaxMoves || library.Openings.RandomPlies != configs.DefaultOpeningPlies {
		t.Errorf("configs.LoadFile: %d plies, openings of %d plies: want the defaults", library.Adjudication.MaxPlies, library.Openings.RandomPlies)
	}
}

// TestUnknownSPRTModelRefused: an SPRT model the arbiter does not know is refused by every
// command that takes -sprt; stats and report took it as the normalized model.
func TestUnknownSPRTModelRefused(t *testing.T) {
	records := filepath.Join("..", "..", "report", "testdata", "hivebot.jsonl")
	for _, args := range [][]string{
		{"stats", "-sprt", "elo0=0", "elo1=5", "model=bayes", records},
		{"report", "-o", filepath.Join(t.TempDir(), "r.html"), "-sprt", "elo0=0", "elo1=5", "model=bayes", records},
		{"match", "-engine", "cmd=./a", "name=a", "-engine", "cmd=./b", "name=b", "-each", "st=1", "-sprt", "elo0=0", "elo1=5", "model=bayes"},
	} {
		var stdout, stderr bytes.Buffer
		code := exitCode(run(context.Background(), args, &stdout, &stderr), &stderr)
		if code != ci.ExitUsage || !strings.Contains(stderr.String(), `arbiter: SPRT model "bayes": want normalized or logistic`) {
			t.Errorf("arbiter %s: exit %d, %s", args[0], code, stderr.String())
		}
	}
}
