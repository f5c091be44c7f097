package tuneconfig

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"hivearbiter/openings"
	_ "hivearbiter/proto/uhp" // the default protocol, which configs checks engines against
	"hivearbiter/tune"
)

func builtinHivebot(name string) ([]string, error) { return []string{"/bin/arbiter", name}, nil }

// tuneFlags are the settings arbiter tune's flags give (its binding of them is cmd/arbiter's,
// tested there): DefaultFlags changed by set, the flags named by given given.
func tuneFlags(set func(*Flags), given ...string) Flags {
	f := DefaultFlags()
	set(&f)
	f.Given = map[string]bool{}
	for _, name := range given {
		f.Given[name] = true
	}
	return f
}

// flagsConfig builds a tune from the flags' settings as arbiter tune does.
func flagsConfig(groups map[string][][]string, f Flags) (tune.Config, error) {
	return f.Config(groups, builtinHivebot)
}

// withConfig is -config path alone.
func withConfig(path string) Flags {
	return tuneFlags(func(f *Flags) { f.ConfigFile = path }, "config")
}

// The demonstration's configuration file describes the tune its command line does (docs/
// tuning.md gives both), and a flag overrides the file's setting.
func TestConfigFile(t *testing.T) {
	const file = "../../configs/tune/hivebot.toml"
	fromFile, err := flagsConfig(nil, withConfig(file))
	if err != nil {
		t.Fatal(err)
	}
	fromFlags, err := flagsConfig(map[string][][]string{"engine": {{"builtin=hivebot", "name=hivebot", "depth=3"}}, "openings": {{"plies=4", "order=random"}}},
		tuneFlags(func(f *Flags) {
			f.Params = []string{"InPlayAnt,8,0,128,6,0.015", "EnemyNeighbor,8,0,144,6,0.015", "Surround5,10,0,280,12,0.015", "FreeFriend,40,0,48,4,0.015"}
			f.Iterations, f.GameType, f.Concurrency, f.Seed, f.Out = 1500, "Base+MLP", 2, 26, "tune-hivebot.jsonl"
		}, "param", "iterations", "gametype", "concurrency", "seed", "out"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromFile, fromFlags) {
		t.Errorf("from the file:\n%+v\nfrom the flags:\n%+v", fromFile, fromFlags)
	}
	over, err := flagsConfig(nil, tuneFlags(func(f *Flags) { f.ConfigFile, f.Iterations, f.Seed, f.Gamma = file, 30, 4, 0.2 }, "config", "iterations", "seed", "gamma"))
	if err != nil {
		t.Fatal(err)
	}
	if over.Gains != (tune.Gains{Iterations: 30, A: 3, Alpha: tune.DefaultAlpha, Gamma: 0.2}) || over.Seed != 4 || over.Concurrency != 2 || len(over.Params) != 4 {
		t.Errorf("-config with -iterations 30 -seed 4 -gamma 0.2: gains %+v, seed %d, concurrency %d, %d params", over.Gains, over.Seed, over.Concurrency, len(over.Params))
	}
}

// A malformed tune file is refused with what is wrong, where: the file, the line and the key.
func TestConfigFileErrors(t *testing.T) {
	const engine = "\n[[engine]]\nname = \"e\"\ncmd = \"prog\"\ntc = \"depth=1\"\n"
	for _, tt := range []struct{ name, text, want string }{
		{"no tune table", engine, "no [tune] table"},
		{"no iterations", "[tune]\nparams = [\"X,1,0,2,1,0.1\"]\n" + engine, "tune.iterations: 0: want the number of game pairs"},
		{"no params", "[tune]\niterations = 5\n" + engine, ":1: tune.params: missing"},
		{"bad param", "[tune]\niterations = 5\nparams = [\"X,1,0\"]\n" + engine, ":3: tune.params: "},
		{"param out of range", "[tune]\niterations = 5\nparams = [\"X,9,0,2,1,0.1\"]\n" + engine, ":3: tune.params: "},
		{"unknown key", "[tune]\niterations = 5\nparam = [\"X,1,0,2,1,0.1\"]\n" + engine, "tune.param"},
		{"wrong type", "[tune]\niterations = \"many\"\n" + engine, ":2: tune.iterations"},
		{"a match's key", "rounds = 3\n[tune]\niterations = 5\nparams = [\"X,1,0,2,1,0.1\"]\n" + engine, ":1: rounds: a match's setting"},
		{"two engines", "[tune]\niterations = 5\nparams = [\"X,1,0,2,1,0.1\"]\n" + engine + engine, "2 [[engine]] tables: a tune has one"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tune.toml")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := flagsConfig(nil, withConfig(path))
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error naming %s and saying %q", err, path, tt.want)
			}
		})
	}
}

// -openings takes the words a match takes, book= included: a shipped book replaces the random
// plies, and settings that exclude each other are refused.
func TestOpeningsFlag(t *testing.T) {
	base := tuneFlags(func(f *Flags) { f.Params, f.Iterations = []string{"X,1,0,2,1,0.1"}, 5 }, "param", "iterations")
	engine := [][]string{{"builtin=hivebot", "name=hivebot", "depth=1"}}
	for _, tt := range []struct {
		name  string
		words []string
		want  openings.Config
		err   string
	}{
		{"default", nil, openings.Config{RandomPlies: 4}, ""},
		{"plies", []string{"plies=6"}, openings.Config{RandomPlies: 6}, ""},
		{"book", []string{"book=base+mlp", "order=random"}, openings.Config{Book: "base+mlp", Order: "random"}, ""},
		{"file", []string{"file=o.txt", "start=3"}, openings.Config{File: "o.txt", Start: 3}, ""},
		{"file, no plies", []string{"file=o.txt", "plies=0"}, openings.Config{File: "o.txt"}, ""},
		{"book and plies", []string{"book=base", "plies=4"}, openings.Config{}, "book excludes file and plies"},
		{"book and file", []string{"book=base", "file=o.txt"}, openings.Config{}, "book excludes file and plies"},
		{"file and plies", []string{"file=o.txt", "plies=2"}, openings.Config{}, "file= and plies= exclude each other"},
		{"bad number", []string{"start=x"}, openings.Config{}, "-openings start=x: want a whole number"},
		{"unknown", []string{"deck=1"}, openings.Config{}, `unknown setting "deck"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			groups := map[string][][]string{"engine": engine}
			if tt.words != nil {
				groups["openings"] = [][]string{tt.words}
			}
			cfg, err := flagsConfig(groups, base)
			switch {
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("got %v, want an error saying %q", err, tt.err)
			case tt.err == "" && err != nil:
				t.Fatal(err)
			case tt.err == "" && cfg.Openings != tt.want:
				t.Errorf("openings %+v, want %+v", cfg.Openings, tt.want)
			}
		})
	}
}

// -param and -params (fishtest lines, or TOML by the file's name) add up, in that order, and
// the schedule takes -iterations, -A and the defaults.
func TestFlagsConfig(t *testing.T) {
	dir := t.TempDir()
	tomlFile, linesFile := filepath.Join(dir, "p.toml"), filepath.Join(dir, "p.txt")
	os.WriteFile(tomlFile, []byte("[[param]]\nname = \"B\"\nstart = 1\nmin = 0\nmax = 2\nc_end = 0.5\nr_end = 0.1\n"), 0o644)
	os.WriteFile(linesFile, []byte("C, int, 5, 0, 10, 1, 0.1\n"), 0o644)
	for file, want := range map[string][]string{tomlFile: {"A", "B"}, linesFile: {"A", "C"}} {
		f := tuneFlags(func(f *Flags) { f.Params, f.ParamsFile, f.Iterations = []string{"A,1,0,2,1,1"}, file, 50 }, "param", "params", "iterations", "A")
		if err := f.SetA("7"); err != nil {
			t.Fatal(err)
		}
		cfg, err := f.Config(map[string][][]string{"engine": {{"cmd=prog", "depth=1"}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range cfg.Params {
			names = append(names, p.Name)
		}
		if !slices.Equal(names, want) || cfg.Gains != (tune.Gains{Iterations: 50, A: 7, Alpha: tune.DefaultAlpha, Gamma: tune.DefaultGamma}) || cfg.Out != "tune-prog-0.jsonl" {
			t.Errorf("-params %s: params %v, gains %+v, out %q; want %v, N 50 and A 7, tune-prog-0.jsonl", file, names, cfg.Gains, cfg.Out, want)
		}
	}
}
