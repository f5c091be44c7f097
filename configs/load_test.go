package configs

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	_ "hivearbiter/proto/uhp" // the default protocol, which Normalize checks engines against
)

func fakeResolver(name string) ([]string, error) {
	if name != "hivebot" {
		return nil, errors.New("unknown built-in engine")
	}
	return []string{"/bin/arbiter", "hivebot"}, nil
}

func TestEveryExampleLoads(t *testing.T) {
	names := Examples()
	if len(names) < 6 {
		t.Fatalf("only %d example configs embedded: %v", len(names), names)
	}
	for _, name := range names {
		cfg, err := LoadExample(name, fakeResolver)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(cfg.Engines) < 2 {
			t.Errorf("%s: %d engines", name, len(cfg.Engines))
		}
		for _, e := range cfg.Engines {
			if e.Time.IsZero() || len(e.Command) == 0 {
				t.Errorf("%s: engine %q has no time control or command", name, e.Name)
			}
		}
	}
	// The files on disk are the ones embedded: the README points users at them.
	for _, name := range names {
		disk, err := os.ReadFile(name)
		emb, _ := Example(name)
		if err != nil || string(disk) != string(emb) {
			t.Errorf("%s on disk differs from the embedded copy", name)
		}
	}
}

func TestLoadDefault(t *testing.T) {
	cfg, err := LoadExample(DefaultName, fakeResolver)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Format != arbiter.Match || cfg.GameType != "Base+MLP" || cfg.GamesPerPairing != 2 {
		t.Errorf("default is not a Base+MLP match of game pairs: %+v", cfg)
	}
	want := driver.TimeControl{Base: 6 * time.Second, Increment: 100 * time.Millisecond}
	for _, e := range cfg.Engines {
		if e.Time != want || e.Setting("fractional") != "true" || e.Command[0] != "/bin/arbiter" {
			t.Errorf("engine %+v: want a 6+0.1 clock, fractional seconds and the built-in command", e)
		}
	}
}

func TestLoadEngineDetails(t *testing.T) {
	src := `
format = "gauntlet"
rounds = 3
[each]
tc = "10+0.1"
margin = 0.5
options = { Threads = "1", Hash = "16" }
[[engine]]
name = "a"
cmd = "./a"
args = ["-x", "y"]
env = ["A=1"]
options = { Zeta = "z", Alpha = "a", Hash = "64" }
[[engine]]
name = "b"
cmd = "./b"
tc = "st=2"
fractional_seconds = true
[[engine]]
name = "c"
cmd = "./c"
tc = "depth=4"
`
	cfg, err := Load("t.toml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := cfg.Engines[0], cfg.Engines[1], cfg.Engines[2]
	if !reflect.DeepEqual(a.Command, []string{"./a", "-x", "y"}) || !reflect.DeepEqual(a.Env, []string{"A=1"}) {
		t.Errorf("engine a: %+v", a)
	}
	wantOpts := []driver.EngineOption{{Name: "Threads", Value: "1"}, {Name: "Zeta", Value: "z"}, {Name: "Alpha", Value: "a"}, {Name: "Hash", Value: "64"}}
	if !reflect.DeepEqual(a.Options, wantOpts) {
		t.Errorf("options = %v, want %v (each first, own in file order, own overriding)", a.Options, wantOpts)
	}
	if a.Margin != 500*time.Millisecond || a.Time.Base != 10*time.Second {
		t.Errorf("engine a did not inherit [each]: %+v", a)
	}
	if b.Time.MoveTime != 2*time.Second || b.Setting("fractional") != "true" || c.Time.Depth != 4 {
		t.Errorf("own time controls lost: b %+v c %+v", b.Time, c.Time)
	}
	if cfg.Seeds != 1 || cfg.GamesPerPairing != 2 {
		t.Errorf("defaults not applied: seeds %d games %d", cfg.Seeds, cfg.GamesPerPairing)
	}
}

func TestLoadErrorsNameFileLineAndKey(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		key, msg  string
	}{
		{"unknown top-level key", "rounds = 2\nroundz = 3\n[[engine]]\ncmd=\"a\"\ntc=\"st=1\"\n", 2, "roundz", "unknown key"},
		{"unknown engine key", "[[engine]]\ncmd = \"a\"\ntc = \"st=1\"\noptoins = {}\n", 4, "engine.optoins", "unknown key"},
		{"wrong type", "rounds = \"many\"\n", 1, "rounds", ""},
		{"bad time control", "[[engine]]\ncmd = \"a\"\ntc = \"fast\"\n[[engine]]\ncmd=\"b\"\ntc=\"st=1\"\n", 3, "engine[1].tc", "fast"},
		{"missing command", "[[engine]]\nname = \"x\"\ntc = \"st=1\"\n", 0, "engine[1].cmd", "missing"},
		{"bad format", "format = \"swiss\"\n[[engine]]\ncmd=\"a\"\ntc=\"st=1\"\n", 1, "format", "swiss"},
		{"syntax error", "rounds = = 2\n", 1, "", ""},
		{"no engines", "rounds = 2\n", 0, "", "no engines"},
		{"one engine match", "[[engine]]\ncmd=\"a\"\ntc=\"st=1\"\n", 0, "", "exactly 2 engines"},
		// Names given alike (default names alike are told apart: driver.DefaultNames).
		{"duplicate names", "[[engine]]\ncmd=\"./a\"\nname=\"a\"\ntc=\"st=1\"\n[[engine]]\ncmd=\"/x/a\"\nname=\"a\"\ntc=\"st=1\"\n", 0, "", "two engines are named"},
	}
	for _, tc := range tests {
		_, err := Load("bad.toml", []byte(tc.src), nil)
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%s: err = %v, want a configs.Error", tc.name, err)
			continue
		}
		if ce.File != "bad.toml" || (tc.line != 0 && ce.Line != tc.line) || (tc.key != "" && ce.Key != tc.key) || !strings.Contains(ce.Error(), tc.msg) {
			t.Errorf("%s: got %q (line %d key %q), want line %d key %q containing %q", tc.name, ce.Error(), ce.Line, ce.Key, tc.line, tc.key, tc.msg)
		}
	}
}

func TestLoadFileMissing(t *testing.T) {
	if _, err := LoadFile(filepath.Join(t.TempDir(), "none.toml"), nil); err == nil {
		t.Fatal("a missing file loaded")
	}
}

func TestParseEngine(t *testing.T) {
	each := []string{"tc=10+0.1", "option.Threads=1"}
	e, err := ParseEngine(MergeEngine(each, []string{"cmd=./dev", "name=dev", "arg=--uhp", "option.Hash=32", "st=1", "margin=0.3", "fractional=true"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "dev" || !reflect.DeepEqual(e.Command, []string{"./dev", "--uhp"}) || e.Time.MoveTime != time.Second ||
		e.Margin != 300*time.Millisecond || e.Setting("fractional") != "true" ||
		!reflect.DeepEqual(e.Options, []driver.EngineOption{{Name: "Threads", Value: "1"}, {Name: "Hash", Value: "32"}}) {
		t.Errorf("ParseEngine = %+v", e)
	}
	b, err := ParseEngine([]string{"builtin=hivebot", "arg=-profile", "arg=weak", "depth=2"}, fakeResolver)
	if err != nil || !reflect.DeepEqual(b.Command, []string{"/bin/arbiter", "hivebot", "-profile", "weak"}) || b.Setting("fractional") != "true" {
		t.Errorf("builtin engine = %+v, %v", b, err)
	}
	for _, words := range [][]string{{"cmd=x"}, {"cmd=x", "tc=abc"}, {"cmd=x", "tc=1", "colour=red"}, {"cmdx"}, {"cmd=x", "tc=1", "margin=-1"}, {"builtin=x", "tc=1"}} {
		if _, err := ParseEngine(words, fakeResolver); err == nil {
			t.Errorf("ParseEngine(%q) accepted bad input", words)
		}
	}
}

func FuzzLoad(f *testing.F) {
	for _, name := range Examples() {
		data, _ := Example(name)
		f.Add(data)
	}
	f.Add([]byte("[[engine]]\ncmd=1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Load("fuzz.toml", data, fakeResolver)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if len(cfg.Engines) < 2 {
			t.Fatalf("a config with %d engines was accepted", len(cfg.Engines))
		}
	})
}

// Keys fastchess users type mean what they mean in fastchess: timemargin in milliseconds,
// args split into arguments; restart=on asks for a fresh process per game.
func TestParseEngineFastchessKeys(t *testing.T) {
	e, err := ParseEngine([]string{"cmd=./dev", "tc=10+0.1", "timemargin=150", `args=--uhp -t "two words"`, "arg=--last", "restart=on", "proto=uhp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.Margin != 150*time.Millisecond {
		t.Errorf("timemargin=150 gave a margin of %v; fastchess reads milliseconds", e.Margin)
	}
	if want := []string{"./dev", "--uhp", "-t", "two words", "--last"}; !reflect.DeepEqual(e.Command, want) {
		t.Errorf("command %q; want %q (args= split as fastchess does)", e.Command, want)
	}
	if !e.Restart {
		t.Error("restart=on was not kept")
	}
	if e, err := ParseEngine([]string{"cmd=./dev", "tc=10+0.1", "restart=off"}, nil); err != nil || e.Restart {
		t.Errorf("restart=off: %+v, %v", e, err)
	}
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"cmd=./dev", "tc=1", "nmae=x"}, "did you mean name?"},
		{[]string{"cmd=./dev", "tc=1", "fractinal=true"}, "did you mean fractional?"},
		{[]string{"cmd=./dev", "tc=1", "fractional_seconds=true"}, "did you mean fractional?"},
		{[]string{"cmd=./dev", "tc=1", "timemargin=0.2"}, "milliseconds"},
		{[]string{"cmd=./dev", "tc=1", "restart=sometimes"}, "restart=sometimes: want on or off"},
		{[]string{"cmd=./dev", "tc=1", `args=-a "b`}, "unterminated quote"},
	} {
		_, err := ParseEngine(tc.words, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseEngine(%q) = %v; want an error saying %s", tc.words, err, tc.want)
		}
	}
}

// The command line's spelling of a setting is accepted in a file where it is unambiguous, and
// an unknown key suggests the name meant.
func TestLoadSpellingsAndSuggestions(t *testing.T) {
	cfg, err := Load("ok.toml", []byte("[[engine]]\ncmd=\"a\"\ntc=\"st=1\"\nfractional=true\nrestart=true\n[[engine]]\ncmd=\"b\"\ntc=\"st=1\"\nrestart=\"on\"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := cfg.Engines[0], cfg.Engines[1]; a.Setting("fractional") != "true" || !a.Restart || !b.Restart {
		t.Errorf("fractional and restart lost: %+v %+v", a, b)
	}
	for _, tc := range []struct{ name, src, want string }{
		{"top-level typo", "roundz = 3\n", "did you mean rounds?"},
		{"flag spelling", "maxplies = 300\n", "max_plies in [adjudication]"},
		{"json", "json = \"x.json\"\n", "json_out"},
		{"pgnout", "pgnout = \"x.pgn\"\n", "pgn_out"},
		{"start timeout", "start-timeout = 30\n", "did you mean start_timeout?"},
		{"engine typo", "[[engine]]\ncmd=\"a\"\ntc=\"st=1\"\nnmae=\"x\"\n", "did you mean name?"},
		{"each timemargin", "[each]\ntimemargin=100\n", "margin"},
		{"both spellings", "[[engine]]\ncmd=\"a\"\ntc=\"st=1\"\nfractional=true\nfractional_seconds=false\n", "fractional and fractional_seconds"},
		{"restart value", "[[engine]]\ncmd=\"a\"\ntc=\"st=1\"\nrestart=\"never\"\n", "restart"},
	} {
		_, err := Load("bad.toml", []byte(tc.src), nil)
		var ce *Error
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v; want a configs.Error saying %s", tc.name, err, tc.want)
		}
	}
}

// "cmd=X dir=Y" quoted as one word (as the README's check example is) is two settings; a
// value with spaces stays one.
func TestParseEngineSplitsAQuotedSpecification(t *testing.T) {
	e, err := ParseEngine([]string{"cmd=./dev dir=/tmp name=dev", "tc=1"}, nil)
	if err != nil || !reflect.DeepEqual(e.Command, []string{"./dev"}) || e.Dir != "/tmp" || e.Name != "dev" {
		t.Errorf("got %+v, %v", e, err)
	}
	e, err = ParseEngine([]string{"cmd=./dev", "name=My Engine", "arg=--hash 64", "tc=1"}, nil)
	if err != nil || e.Name != "My Engine" || !reflect.DeepEqual(e.Command, []string{"./dev", "--hash 64"}) {
		t.Errorf("got %+v, %v", e, err)
	}
}

// A setting of the run given among an engine's settings says where it belongs.
func TestParseEngineRunSettingsSayWhereTheyGo(t *testing.T) {
	for _, tc := range []struct{ word, want string }{
		{"start_timeout=30", "-start-timeout"},
		{"command-timeout=30", "-command-timeout"},
		{"maxplies=300", "-maxplies"},
	} {
		_, err := ParseEngine([]string{"cmd=./dev", "tc=1", tc.word}, nil)
		if err == nil || !strings.Contains(err.Error(), "a setting of the run") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v; want it to name %s", tc.word, err, tc.want)
		}
	}
}

// TestLoadRunSettings: max_moves counts moves of each side (two plies); a file that sets no
// move limit or openings gets the defaults of "arbiter match" (it got none before), one that
// sets them, 0 included, keeps its own; impossible values are reported together, each with
// its line and key.
func TestLoadRunSettings(t *testing.T) {
	const engines = "[[engine]]\ncmd = \"x\"\ntc = \"st=1\"\n[[engine]]\ncmd = \"y\"\ntc = \"st=1\"\n"
	tests := []struct {
		name         string
		text         string
		plies        int
		openingPlies int
		errs         []string
	}{
		{"nothing set", engines, 2 * DefaultMaxMoves, DefaultOpeningPlies, nil},
		{"max_moves", "[adjudication]\nmax_moves = 150\n" + engines, 300, DefaultOpeningPlies, nil},
		{"dotted keys", "adjudication.max_plies = 0\nopenings.plies = 0\n" + engines, 0, 0, nil},
		{"no limit, said", "[adjudication]\nmax_plies = 0\n[openings]\nplies = 0\n" + engines, 0, 0, nil},
		{"disagreeing limits", "[adjudication]\nmax_plies = 100\nmax_moves = 100\n" + engines, 0, 0,
			[]string{"x.toml:3: adjudication.max_moves: 100 disagrees with max_plies = 100"}},
		{"file and plies", "[openings]\nfile = \"book.txt\"\nplies = 4\n" + engines, 0, 0,
			[]string{"x.toml:3: openings.plies: file and plies exclude each other"}},
		{"a book", "[openings]\nbook = \"base\"\n" + engines, 2 * DefaultMaxMoves, 0, nil},
		{"book and plies", "[openings]\nbook = \"base\"\nplies = 4\n" + engines, 0, 0,
			[]string{"openings: book excludes file and plies"}},
		{"several at once", "rounds = 0\ngames = 3\nseeds = 0\n" + engines, 0, 0,
			[]string{"x.toml:1: rounds: 0", "x.toml:2: games: 3", "x.toml:3: seeds: 0"}},
		{"flag spellings", "maxplies = 3\npgnout = \"x.pgn\"\n" + engines, 0, 0,
			[]string{"x.toml:1: maxplies: unknown key: the move limit is max_plies in [adjudication]", "x.toml:2: pgnout: unknown key: the PGN file is pgn_out"}},
		{"unknown SPRT model", "[sprt]\nelo0 = 0\nelo1 = 5\nmodel = \"bayes\"\n" + engines, 0, 0,
			[]string{`x.toml: SPRT model "bayes": want normalized or logistic`}},
		{"unknown SPRT at_cap", "[sprt]\nelo0 = 0\nelo1 = 5\nat_cap = \"maybe\"\n" + engines, 0, 0,
			[]string{`x.toml:4: sprt.at_cap: "maybe": want decide (by the final threshold, the default) or inconclusive`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Load("x.toml", []byte(tt.text), fakeResolver)
			if tt.errs == nil {
				if err != nil || cfg.Adjudication.MaxPlies != tt.plies || cfg.Openings.RandomPlies != tt.openingPlies {
					t.Errorf("%v: %d plies, openings of %d plies; want %d, %d", err, cfg.Adjudication.MaxPlies, cfg.Openings.RandomPlies, tt.plies, tt.openingPlies)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			for _, want := range tt.errs {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}

// FuzzParseSPRT: any words give an SPRT whose Normalize either refuses it or makes a test
// that validates, never a panic.
func FuzzParseSPRT(f *testing.F) {
	for _, s := range []string{"elo0=0 elo1=5", "elo0=0 elo1=5 alpha=0.1 model=logistic", "model=bayes", "elo0=x", "beta=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cfg, err := ParseSPRT(strings.Fields(s))
		if err != nil {
			return
		}
		if err := cfg.Normalize(); err != nil {
			return
		}
		if err := cfg.Test().Validate(); err != nil {
			t.Fatalf("%q: normalized, but the test does not validate: %v", s, err)
		}
	})
}

// TestExampleByName: an example is named with or without ".toml"; an unknown name's error lists
// the names there are, as "arbiter config list" prints them.
func TestExampleByName(t *testing.T) {
	for _, name := range []string{"match", "match.toml"} {
		if data, err := Example(name); err != nil || !strings.Contains(string(data), "[[engine]]") {
			t.Errorf("%s: %v", name, err)
		}
	}
	_, err := Example("no-such")
	if err == nil || !strings.Contains(err.Error(), "no such example (have ") || !strings.Contains(err.Error(), "match,") || strings.Contains(err.Error(), ".toml") {
		t.Errorf("got %v", err)
	}
}
