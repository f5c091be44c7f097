package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/ci"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/results"
)

// TestRefusedCommandLines: a command line or configuration that cannot give the run the user
// asked for is refused before any game, with exit code 2, a sentence per problem that names
// the flag, key or file, and nothing created on disk.
func TestRefusedCommandLines(t *testing.T) {
	engines := append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...)
	tests := []struct {
		name  string
		args  []string // "DIR" is replaced by the test's directory
		files map[string]string
		want  []string // in the error output, one problem each
	}{
		{"negative rounds", []string{"-rounds", "-5"}, nil, []string{"-rounds -5: want 1 or more"}},
		{"zero rounds", []string{"-rounds", "0"}, nil, []string{"-rounds 0"}},
		{"negative concurrency", []string{"-concurrency", "-1"}, nil, []string{"-concurrency -1"}},
		{"zero games", []string{"-games", "0"}, nil, []string{"-games 0: want 2"}},
		{"negative rating interval", []string{"-ratinginterval", "-1"}, nil, []string{"-ratinginterval -1"}},
		{"seeds in a match", []string{"-seeds", "5"}, nil, []string{"-seeds 5: seeds are the engines"}},
		{"repetitions 1", []string{"-repetitions", "1"}, nil, []string{"-repetitions 1: want 2 or more"}},
		{"format and tournament", []string{"-format", "match", "-tournament", "gauntlet"}, nil, []string{"-format match and -tournament gauntlet disagree"}},
		{"openings file and plies", []string{"-openings", "file=DIR/book.txt", "plies=4"}, map[string]string{"book.txt": "Base+MLP\n"}, []string{"file= and plies= exclude each other"}},
		{"tc and depth", []string{"-each", "tc=10+0.1", "depth=4"}, nil, []string{"-each tc=10+0.1 depth=4: give one limit"}},
		{"maxmoves and maxplies", []string{"-maxmoves", "10", "-maxplies", "30"}, nil, []string{"-maxmoves 10 and -maxplies 30 disagree"}},
		{"pgnout with a fastchess key", []string{"-pgnout", "notation=san"}, nil, []string{"-pgnout notation=san"}},
		{"json in a missing directory", []string{"-json", "DIR/nope/summary.json"}, nil, []string{"-json DIR/nope/summary.json: the directory DIR/nope does not exist"}},
		{"json is a directory", []string{"-json", "DIR"}, nil, []string{"-json DIR: is a directory"}},
		{"out and json alike", []string{"-out", "DIR/x", "-json", "DIR/x"}, nil, []string{"-out and -json name the same file"}},
		{"pgnout is the records file", []string{"-out", "DIR/x.jsonl", "-pgnout", "DIR/./x.jsonl"}, nil, []string{"-out and -pgnout name the same file"}},
		{"json over the openings", []string{"-openings", "file=DIR/book.txt", "-json", "DIR/book.txt"}, map[string]string{"book.txt": "Base+MLP\n"}, []string{"-json DIR/book.txt would overwrite the -openings file= file"}},
		{"report over the records", []string{"-out", "DIR/x.jsonl", "-report", "DIR/x.jsonl"}, nil, []string{"-out and -report name the same file"}},
		{"transcripts is a file", []string{"-transcripts", "DIR/book.txt"}, map[string]string{"book.txt": "Base+MLP\n"}, []string{"-transcripts DIR/book.txt: is a file"}},
		{"engines that cannot run", []string{"-engine", "cmd=DIR/nope", "name=c", "-engine", "cmd=DIR", "name=d"}, nil,
			[]string{`engine "c": the program "DIR/nope" does not exist`, `engine "d": "DIR" is a directory, not a program`}},
		{"every problem at once", []string{"-rounds", "0", "-concurrency", "-1", "-games", "3"}, nil, []string{"-rounds 0", "-concurrency -1", "-games 3"}},
		{"missing config", []string{"-config", "DIR/nope.toml"}, nil, []string{"DIR/nope.toml: no such file"}},
		{"config values", []string{"-config", "DIR/bad.toml"}, map[string]string{"bad.toml": "rounds = -5\nconcurrency = -1\nrating_interval = -1\n[adjudication]\nrepetitions = 1\n[[engine]]\ncmd = \"x\"\ntc = \"st=1\"\n[[engine]]\ncmd = \"y\"\ntc = \"st=1\"\n"},
			[]string{"bad.toml:1: rounds: -5", "bad.toml:2: concurrency: -1", "bad.toml:3: rating_interval: -1", "bad.toml:5: adjudication.repetitions: 1"}},
		{"config key spelled as the flag", []string{"-config", "DIR/bad.toml"}, map[string]string{"bad.toml": "json = \"x.json\"\n[[engine]]\ncmd = \"x\"\ntc = \"st=1\"\n"}, []string{"bad.toml:1: json: unknown key: the JSON summary is json_out"}},
	}
	var all strings.Builder // every message, for a person to read in the golden file
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir) // a default records file would land here
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := listDir(t, dir)
			args := []string{"match"}
			for _, a := range tc.args {
				args = append(args, strings.ReplaceAll(a, "DIR", dir))
			}
			if !slices.Contains(tc.args, "-config") {
				args = append(args, engines...)
				if !slices.Contains(tc.args, "-each") {
					args = append(args, "-each", "st=1")
				}
			}
			var stdout, stderr bytes.Buffer
			code := exitCode(run(context.Background(), args, &stdout, &stderr), &stderr)
			if code != ci.ExitUsage {
				t.Errorf("exit code %d, want %d\n%s%s", code, ci.ExitUsage, stdout.String(), stderr.String())
			}
			text := strings.ReplaceAll(stderr.String(), dir, "DIR")
			fmt.Fprintf(&all, "# %s\n%s\n", tc.name, text)
			for _, want := range tc.want {
				if !strings.Contains(text, want) {
					t.Errorf("the error output lacks %q:\n%s", want, text)
				}
			}
			for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
				if !strings.HasPrefix(line, "arbiter: ") || strings.HasPrefix(line, "arbiter: arbiter:") {
					t.Errorf("line %q: want one \"arbiter: \" prefix", line)
				}
			}
			if after := listDir(t, dir); !slices.Equal(before, after) {
				t.Errorf("the refused run changed %s: %v, then %v", dir, before, after)
			}
		})
	}
	golden.Check(t, filepath.Join("testdata", "refused.golden"), []byte(all.String()))
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		names = append(names, path)
		return nil
	})
	return names
}

// TestSecondWriterRefused: a second run on a records file that a run is writing is refused
// with exit code 2 and a sentence that says why, and the first run's file is left alone.
func TestSecondWriterRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	first, _, err := results.OpenLog(out)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	args := append([]string{"match", "-out", out, "-each", "st=0.05", "fractional=true"}, fakeEngines("random", "a", "b")...)
	var stdout, stderr bytes.Buffer
	if code := exitCode(run(context.Background(), args, &stdout, &stderr), &stderr); code != ci.ExitUsage {
		t.Errorf("exit code %d, want %d\n%s%s", code, ci.ExitUsage, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "is being written by another run") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if info, err := os.Stat(out); err != nil || info.Size() != 0 {
		t.Errorf("the first run's file was written to: %v %v", info, err)
	}
}

// TestFlagMistakes: a mistyped flag gets one sentence naming it, not the whole help text; a
// flag spelled as its TOML key is understood.
func TestFlagMistakes(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := exitCode(run(context.Background(), []string{"match", "-rouns", "3"}, &stdout, &stderr), &stderr)
	if code != ci.ExitUsage || stderr.String() != "arbiter: unknown flag -rouns; arbiter match -h lists the flags\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	for args, want := range map[string]string{
		"stats nope.jsonl":  "arbiter: nope.jsonl: no such file\n",
		"match -rounds x":   "arbiter: -rounds x: not a valid value (parse error); arbiter match -h lists the flags\n",
		"match -strict=may": "arbiter: -strict may: not a valid value (parse error); arbiter match -h lists the flags\n",
	} {
		stderr.Reset()
		code := exitCode(run(context.Background(), strings.Fields(args), &stdout, &stderr), &stderr)
		if code != ci.ExitUsage || stderr.String() != want {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", args, code, stderr.String(), want)
		}
	}
	cfg, err := matchConfig(append(fakeEngines("random", "a", "b"), "-each", "st=1", "-max_plies", "30", "-json_out=x.json", "-start_timeout", "20",
		"-pgnout", "file=x.pgn", "-repeat"), &stderr)
	if err != nil || cfg.Adjudication.MaxPlies != 30 || cfg.JSONOut != "x.json" || cfg.StartTimeout != 20*time.Second {
		t.Errorf("TOML spellings: %v, %d plies, json %q, start timeout %v", err, cfg.Adjudication.MaxPlies, cfg.JSONOut, cfg.StartTimeout)
	}
	// fastchess's spellings: -pgnout file=NAME, and -repeat for -games 2.
	if cfg.PGNOut != "x.pgn" || cfg.GamesPerPairing != 2 {
		t.Errorf("-pgnout file=x.pgn gave %q, -repeat gave %d games per pairing", cfg.PGNOut, cfg.GamesPerPairing)
	}
}
