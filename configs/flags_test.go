package configs

import (
	"slices"
	"strings"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/elo"
)

// TestRespell: a flag spelled as in the TOML file or as fastchess spells it becomes the flag of
// that setting, keeping its value; a flag defined, a word that is no flag, an unknown name and
// whatever follows "--" stay as they are. (The flags' values over the file are cmd/arbiter's
// TestMatchFlagsOverTheFile, where the flags are bound.)
func TestRespell(t *testing.T) {
	defined := func(name string) bool {
		return slices.Contains([]string{"maxplies", "json", "start-timeout", "seed", "config", "max_plies_too"}, name)
	}
	tests := []struct{ args, want []string }{
		{[]string{"-max_plies", "30"}, []string{"-maxplies", "30"}},
		{[]string{"--json_out=x.json", "-Start_Timeout", "2"}, []string{"-json=x.json", "-start-timeout", "2"}},
		{[]string{"-srand", "4", "x", "-"}, []string{"-seed", "4", "x", "-"}},
		{[]string{"-maxplies", "3", "-max_plies_too", "-nokey"}, []string{"-maxplies", "3", "-max_plies_too", "-nokey"}},
		{[]string{"-pgn_out", "g.pgn"}, []string{"-pgn_out", "g.pgn"}}, // pgnout is not defined here
		{[]string{"--", "-max_plies"}, []string{"--", "-max_plies"}},
	}
	for _, tc := range tests {
		if got := Respell(tc.args, defined); !slices.Equal(got, tc.want) {
			t.Errorf("Respell(%q) = %q, want %q", tc.args, got, tc.want)
		}
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
	// The flags as match gives them (cmd/arbiter binds them): none, or -repetitions 0.
	config := func(flags Flags) arbiter.Config {
		t.Helper()
		fl := flags
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
	if got := config(Flags{}).Adjudication.Repetitions; got != DefaultRepetitions {
		t.Errorf("the command line's repetitions: %d, want %d", got, DefaultRepetitions)
	}
	if got := config(Flags{Given: map[string]bool{"repetitions": true}}).Adjudication.Repetitions; got != 0 {
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
	streak := func(n int) Flags {
		return Flags{Values: file{FailureStreak: n}, Given: map[string]bool{"failure-streak": true}}
	}
	for _, tc := range []struct {
		name  string
		flags Flags
		want  int
	}{{"none", Flags{}, arbiter.DefaultFailureStreak}, {"-failure-streak 5", streak(5), 5}, {"-failure-streak 0", streak(0), -1}} {
		if got := config(tc.flags).FailureStreak; got != tc.want {
			t.Errorf("%s: failure streak %d, want %d", tc.name, got, tc.want)
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
