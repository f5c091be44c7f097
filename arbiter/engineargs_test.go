package arbiter_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/openings"
	"hivearbiter/results"
)

// TestFingerprintArguments: a run's id changes with an engine's arguments, but not with where
// its local files are; an engine without arguments keeps the id it had before arguments were
// part of it.
func TestFingerprintArguments(t *testing.T) {
	dirA, dirB := t.TempDir(), t.TempDir()
	for _, d := range []string{dirA, dirB} {
		if err := os.WriteFile(filepath.Join(d, "bot.py"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	id := func(dir string, args ...string) string {
		t.Helper()
		a := engine("a", "random")
		a.Command, a.Dir = append(a.Command, args...), dir
		cfg := baseConfig(a, engine("b", "random"))
		if err := cfg.Normalize(); err != nil {
			t.Fatal(err)
		}
		run, err := cfg.Fingerprint()
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	base := id("", "-profile", "medium", "--weights=/opt/a/w.bin")
	for _, tc := range []struct {
		name string
		run  string
		same bool
	}{
		{"another local path", id("", "-profile", "medium", "--weights=/home/b/w.bin"), true},
		{"another directory with the same file", id(dirB, "-profile", "medium", "--weights=/opt/a/w.bin"), true},
		{"another argument", id("", "-profile", "strong", "--weights=/opt/a/w.bin"), false},
		{"fewer arguments", id("", "-profile", "medium"), false},
		{"no arguments", id(""), false},
		{"a path more", id("", "-profile", "medium", "--weights=/opt/a/w.bin", "/opt/book"), false},
		{"another flag for the path", id("", "-profile", "medium", "--book=/opt/a/w.bin"), false},
		{"arguments in another order", id("", "medium", "-profile", "--weights=/opt/a/w.bin"), false},
	} {
		if (tc.run == base) != tc.same {
			t.Errorf("%s: run %s, the base's %s: want the same id %v", tc.name, tc.run, base, tc.same)
		}
	}
	if a, b := id(dirA, "bot.py"), id(dirB, "bot.py"); a != b {
		t.Errorf("one file name in two engine directories: runs %s and %s, want one", a, b)
	}
	if a, b := id(dirA, "bot.py"), id("", "/opt/bots/bot.py"); a == b {
		t.Errorf("a bare file name and a path: both run %s, want two runs", a)
	}
	// 892b2237bc45 is the id the landed arbiter (d982f6c) gave this configuration without
	// random openings, before arguments and the draw of random openings were part of run ids.
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Openings = openings.Config{}
	if err := cfg.Normalize(); err != nil {
		t.Fatal(err)
	}
	if got, err := cfg.Fingerprint(); err != nil || got != "892b2237bc45" {
		t.Errorf("the run of engines without arguments or random openings is %s (%v), want the id it always had, 892b2237bc45", got, err)
	}
}

// TestTournamentRefusesRecordsWithoutArguments: records written when run ids left out the
// engines' arguments (same configuration, id computed without them) are refused with a
// message that says so, rather than resumed under arguments they may not have been played with.
func TestTournamentRefusesRecordsWithoutArguments(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	older := baseConfig(engine("a", "random"), engine("b", "random"))
	older.Openings = openings.Config{} // random openings change the run id on their own
	older.Out = out
	if _, err := fakeTournament(t, older).Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	before, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// The records of the run without arguments have the id that run has with arguments, when
	// arguments are left out.
	withArgs := baseConfig(engine("a", "random"), engine("b", "random"))
	withArgs.Openings = openings.Config{}
	withArgs.Engines[0].Command = append(withArgs.Engines[0].Command, "-profile", "medium")
	withArgs.Out = out
	_, err = fakeTournament(t, withArgs).Play(context.Background())
	var ce *driver.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "left out the engines' arguments") {
		t.Fatalf("err = %v, want an arbiter.ConfigError saying the records' run id left out the arguments", err)
	}
	if after, _ := results.ReadFile(out); len(after) != len(before) {
		t.Errorf("%d records after the refusal, want the first run's %d", len(after), len(before))
	}
}

// TestTournamentRefusesRecordsOfAnEarlierDraw: the records of a run with random openings that
// the landed arbiter (d982f6c) wrote carry its run id, 635cbf215f96 for this configuration.
// Its pairs' openings may differ from this arbiter's, which avoids repeats up to symmetry, so
// a pair could be split over two openings: the records are refused, saying why.
func TestTournamentRefusesRecordsOfAnEarlierDraw(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Out = out
	if _, err := fakeTournament(t, cfg).Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	recs, err := results.ReadFile(out)
	if err != nil || len(recs) == 0 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	var earlier []byte
	for _, r := range recs {
		r.Run = "635cbf215f96"
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		earlier = append(append(earlier, line...), '\n')
	}
	if err := os.WriteFile(out, earlier, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Rounds = 2
	_, err = fakeTournament(t, cfg).Play(context.Background())
	var ce *driver.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "random openings could repeat a position up to symmetry") {
		t.Fatalf("err = %v, want an arbiter.ConfigError saying the earlier arbiter's openings could repeat", err)
	}
}

// TestTournamentRefusesRecordsOfOtherArguments: a run resumed with other arguments for an
// engine of the same name would mix two builds in one table; it is refused, naming them.
func TestTournamentRefusesRecordsOfOtherArguments(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	withProfile := func(profile string) arbiter.Config {
		cfg := baseConfig(engine("a", "random"), engine("b", "random"))
		cfg.Engines[0].Command = append(cfg.Engines[0].Command, "-profile", profile, "--book=/opt/"+profile+"/book.txt")
		cfg.Out = out
		return cfg
	}
	if _, err := fakeTournament(t, withProfile("medium")).Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := fakeTournament(t, withProfile("strong")).Play(context.Background())
	want := "engine a: test st=5 margin=1 arg=-profile arg=medium arg=--book={local-path} there, test st=5 margin=1 arg=-profile arg=strong arg=--book={local-path} here"
	var ce *driver.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want an arbiter.ConfigError saying %q", err, want)
	}
}
