package configs

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/elo"
)

// TestFlagsOverTheFile: a flag overrides the file's key, the move limit in either unit; what
// neither gives gets the defaults; a problem names the flag that gave the value.
func TestFlagsOverTheFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "run.toml")
	os.WriteFile(file, []byte("rounds = 2\n[adjudication]\nmax_moves = 150\n[each]\ntc = \"st=1\"\n[[engine]]\ncmd = \"a\"\n[[engine]]\ncmd = \"b\"\n"), 0o644)
	engines := []string{"-engine", "cmd=a", "-engine", "cmd=b", "-each", "st=1"}
	tests := []struct {
		name            string
		args            []string
		rounds, plies   int
		openings, games int
		err             string
	}{
		{"the file", []string{"-config", file}, 2, 300, DefaultOpeningPlies, 2, ""},
		{"rounds over the file", []string{"-config", file, "-rounds", "5"}, 5, 300, DefaultOpeningPlies, 2, ""},
		{"plies over moves", []string{"-config", file, "-maxplies", "31"}, 2, 31, DefaultOpeningPlies, 2, ""},
		{"no file", append([]string{"-openings", "plies=2", "-repeat"}, engines...), 1, 2 * DefaultMaxMoves, 2, 2, ""},
		{"TOML spelling", append([]string{"-max_moves", "10"}, engines...), 1, 20, DefaultOpeningPlies, 2, ""},
		{"format alias", append([]string{"-tournament", "gauntlet", "-seeds", "1"}, engines...), 1, 400, DefaultOpeningPlies, 2, ""},
		{"bad flag value", append([]string{"-rounds", "0"}, engines...), 0, 0, 0, 0, "configs: -rounds 0: want 1 or more"},
		{"bad value in the file", []string{"-config", file, "-games", "3"}, 0, 0, 0, 0, "configs: -games 3: want 2"},
		{"no engines", nil, 0, 0, 0, 0, "configs: no engines: give -config FILE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var rest []string
			groups := map[string][][]string{}
			for i := 0; i < len(tc.args); i++ {
				if name := strings.TrimLeft(tc.args[i], "-"); name == "engine" || name == "each" || name == "openings" {
					groups[name] = append(groups[name], []string{tc.args[i+1]})
					i++
					continue
				}
				rest = append(rest, tc.args[i])
			}
			fs := flag.NewFlagSet("match", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var fl Flags
			fl.Register(fs)
			if err := fs.Parse(fl.Respell(rest)); err != nil {
				t.Fatal(err)
			}
			r, err := fl.Run(groups, fakeResolver)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := r.Config(fakeResolver)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Rounds != tc.rounds || cfg.Adjudication.MaxPlies != tc.plies || cfg.Openings.RandomPlies != tc.openings || cfg.GamesPerPairing != tc.games {
				t.Errorf("rounds %d, %d plies, openings of %d plies, %d games; want %d, %d, %d, %d", cfg.Rounds, cfg.Adjudication.MaxPlies,
					cfg.Openings.RandomPlies, cfg.GamesPerPairing, tc.rounds, tc.plies, tc.openings, tc.games)
			}
		})
	}
}

// TestCommandAsWords: an engine quoted as one command line becomes cmd= and arg= words;
// key=value words, and words after other flags, are left as they are.
func TestCommandAsWords(t *testing.T) {
	tests := []struct{ args, want []string }{
		{[]string{"-engine", "./bot --depth 3", "-games", "1"}, []string{"-engine", "cmd=./bot", "arg=--depth", "arg=3", "-games", "1"}},
		{[]string{"--engine", "python3 bot.py"}, []string{"--engine", "cmd=python3", "arg=bot.py"}},
		{[]string{"-engine", "cmd=./bot", "name=b"}, []string{"-engine", "cmd=./bot", "name=b"}},
		{[]string{"-title", "./bot x"}, []string{"-title", "./bot x"}},
		{[]string{"-engine", ""}, []string{"-engine", ""}},
	}
	for _, tc := range tests {
		if got := CommandAsWords(slices.Clone(tc.args)); !slices.Equal(got, tc.want) {
			t.Errorf("CommandAsWords(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestSPRTFlags: no -sprt is no test; the last -sprt given is the test, with the defaults;
// a wrong one is refused even when a later one is right.
func TestSPRTFlags(t *testing.T) {
	if test, err := SPRTFlags(nil); test != nil || err != nil {
		t.Errorf("no -sprt: %v, %v", test, err)
	}
	test, err := SPRTFlags([][]string{{"elo0=0", "elo1=5"}, {"elo0=1", "elo1=3", "model=logistic"}})
	if err != nil || test.Elo0 != 1 || test.Elo1 != 3 || test.Alpha != arbiter.DefaultSPRTAlpha || test.Model.String() != "logistic" {
		t.Errorf("two -sprt: %+v, %v", test, err)
	}
	if _, err := SPRTFlags([][]string{{"elo0=0", "elo1=5", "model=bogus"}, {"elo0=0", "elo1=5"}}); err == nil {
		t.Error("an unknown model was taken")
	}
}

// TestSPRTAtCap: a test decides at its cap unless at_cap=inconclusive asks it not to, in
// the words of -sprt and in a file's [sprt] table; old files, without at_cap, decide.
func TestSPRTAtCap(t *testing.T) {
	for _, tc := range []struct {
		words        []string
		inconclusive bool
		err          string
	}{
		{[]string{"elo0=-50", "elo1=0"}, false, ""},
		{[]string{"elo0=-50", "elo1=0", "at_cap=decide"}, false, ""},
		{[]string{"elo0=-50", "elo1=0", "at_cap=inconclusive"}, true, ""},
		{[]string{"elo0=-50", "elo1=0", "at_cap=maybe"}, false, "-sprt at_cap=maybe: want decide (by the final threshold) or inconclusive"},
	} {
		test, err := SPRTTest(tc.words)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: error %v, want %q", tc.words, err, tc.err)
			}
		case err != nil || test.InconclusiveAtCap != tc.inconclusive:
			t.Errorf("%v: %+v, %v", tc.words, test, err)
		}
	}
	const engines = "[[engine]]\ncmd = \"x\"\ntc = \"st=1\"\n[[engine]]\ncmd = \"y\"\ntc = \"st=1\"\n"
	for text, want := range map[string]bool{"": false, "at_cap = \"inconclusive\"\n": true, "at_cap = \"decide\"\n": false} {
		cfg, err := Load("x.toml", []byte("[sprt]\nelo0 = -50\nelo1 = 0\n"+text+engines), fakeResolver)
		if err != nil || cfg.SPRT == nil || cfg.SPRT.InconclusiveAtCap != want {
			t.Errorf("[sprt] with %q: %+v, %v", text, cfg.SPRT, err)
		}
	}
}

// One set of defaults: the command line, every shipped configuration and a file that says
// nothing adjudicate repetition alike, and the failure streak is the arbiter's default unless
// given (0: never).
func TestDefaultsAgree(t *testing.T) {
	config := func(args ...string) arbiter.Config {
		t.Helper()
		fs := flag.NewFlagSet("match", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var fl Flags
		fl.Register(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		groups := map[string][][]string{"engine": {{"cmd=a"}, {"cmd=b"}}, "each": {{"st=1"}}}
		r, err := fl.Run(groups, fakeResolver)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := r.Config(fakeResolver)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	if got := config().Adjudication.Repetitions; got != DefaultRepetitions {
		t.Errorf("the command line's repetitions: %d, want %d", got, DefaultRepetitions)
	}
	if got := config("-repetitions", "0").Adjudication.Repetitions; got != 0 {
		t.Errorf("-repetitions 0: %d, want 0 (never)", got)
	}
	for _, name := range Examples() {
		cfg, err := LoadExample(name, fakeResolver)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Adjudication.Repetitions != DefaultRepetitions {
			t.Errorf("%s: repetitions %d, the command line's default is %d", name, cfg.Adjudication.Repetitions, DefaultRepetitions)
		}
	}
	for _, tc := range []struct {
		args []string
		want int
	}{{nil, arbiter.DefaultFailureStreak}, {[]string{"-failure-streak", "5"}, 5}, {[]string{"-failure-streak", "0"}, -1}} {
		if got := config(tc.args...).FailureStreak; got != tc.want {
			t.Errorf("%v: failure streak %d, want %d", tc.args, got, tc.want)
		}
	}
}

// TestSPRTCounts: sprt-calc's counts are pair counts for a pentanomial model or game counts,
// and counts that do not parse, do not fit the model or are all 0 are refused, naming the flag.
func TestSPRTCounts(t *testing.T) {
	ptnml, wdl, err := SPRTCounts("1,2,3,4,5", "", elo.Normalized)
	if err != nil || wdl != nil || *ptnml != (elo.Pentanomial{1, 2, 3, 4, 5}) {
		t.Errorf("-ptnml: %v, %v, %v", ptnml, wdl, err)
	}
	ptnml, wdl, err = SPRTCounts("", "10,5,3", elo.Logistic)
	if err != nil || ptnml != nil || *wdl != (elo.WDL{Wins: 10, Draws: 5, Losses: 3}) {
		t.Errorf("-wdl: %v, %v, %v", ptnml, wdl, err)
	}
	for _, tc := range []struct {
		ptnml, wdl string
		model      elo.Model
		want       string
	}{
		{"1,2,3", "", elo.Normalized, "-ptnml: want 5 comma-separated counts"},
		{"1,2,3,4,5", "", elo.Bayesian, "model is trinomial only: give -wdl"},
		{"0,0,0,0,0", "", elo.Normalized, "-ptnml: every count is 0"},
		{"", "1,x,2", elo.Normalized, `-wdl: "x" is not a count`},
		{"", "0,0,0", elo.Normalized, "-wdl: every count is 0"},
	} {
		if _, _, err := SPRTCounts(tc.ptnml, tc.wdl, tc.model); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q %q %v: %v, want %q", tc.ptnml, tc.wdl, tc.model, err, tc.want)
		}
	}
}
