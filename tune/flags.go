package tune

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/configs"
	"hivearbiter/openings"
)

// Flags are a tune's settings on the command line, as "arbiter tune" takes them: Register
// defines them on a FlagSet, and Config builds the tune once it is parsed. The engine is given
// as match gives one (-engine and -each words, configs.Engines).
type Flags struct {
	fs                                 *flag.FlagSet
	config                             string
	params                             []string
	paramsFile                         string
	iterations                         int
	seed                               int64
	a, alpha, gamma                    float64
	gameType, out                      string
	concurrency, maxPlies, repetitions int
	start, command, depth              float64
}

// Register defines the flags on fs. The multi-word flags (-engine, -each, -openings) are
// defined for their -h text only: their words are the caller's to collect.
func (f *Flags) Register(fs *flag.FlagSet) {
	f.fs = fs
	fs.StringVar(&f.config, "config", "", "TOML `file` describing the tune: a [tune] table (iterations, params, A, alpha, gamma), one [[engine]] and the run's settings; flags override it")
	fs.Func("param", "a tuned option: `NAME,start,min,max,c_end,r_end` (an integer when start, min and max are); repeat for more", func(s string) error {
		f.params = append(f.params, s)
		return nil
	})
	fs.StringVar(&f.paramsFile, "params", "", "`file` of tuned options: in fishtest's form, one a line (NAME, int|float, start, min, max, c_end, r_end), or, for a .toml file, [[param]] tables (name, type, start, min, max, c_end, r_end)")
	fs.IntVar(&f.iterations, "iterations", 0, "game pairs to play, N: the gains reach c_end and r_end at the last (required)")
	fs.Int64Var(&f.seed, "seed", 0, "seed of the perturbations, the rounding and the random openings")
	f.a = -1
	fs.Func("A", "warm-up `A` of a_k = a/(A+k)^alpha, at least 0 (default N/10)", func(s string) error {
		a, err := strconv.ParseFloat(s, 64)
		if err != nil || a < 0 {
			return fmt.Errorf("want a number of at least 0")
		}
		f.a = a
		return nil
	})
	fs.Float64Var(&f.alpha, "alpha", DefaultAlpha, "decay of the step gain a_k")
	fs.Float64Var(&f.gamma, "gamma", DefaultGamma, "decay of the perturbation c_k")
	fs.StringVar(&f.gameType, "gametype", "", "GameTypeString such as Base or Base+ML (default Base+MLP)")
	fs.IntVar(&f.concurrency, "concurrency", 1, "game pairs played at once, each with its own engine processes")
	fs.StringVar(&f.out, "out", "", "JSON Lines `file` of the tune's pairs; the same file resumes the tune (default tune-ENGINE-SEED.jsonl)")
	fs.IntVar(&f.maxPlies, "maxplies", 2*configs.DefaultMaxMoves, "draw after this many plies, opening included (0: no limit)")
	fs.IntVar(&f.repetitions, "repetitions", configs.DefaultRepetitions, "draw when a position occurs this many times, at least 2 (0: never)")
	fs.Float64Var(&f.start, "start-timeout", 0, "seconds an engine may take to start (its info banner and options) (default 10)")
	fs.Float64Var(&f.command, "command-timeout", 0, "seconds an engine may take to answer any command but bestmove (default 10)")
	fs.Float64Var(&f.depth, "depth-timeout", 0, "seconds a depth-limited search may take before it is stopped (default 300)")
	none := func(string) error { return nil }
	fs.Func("each", "engine settings (key=value words), merged under -engine's", none)
	fs.Func("engine", "the engine tuned (key=value words, as match takes them)", none)
	fs.Func("openings", fmt.Sprintf("openings: file=F|book=NAME order=sequential|random start=N plies=N (default plies=%d)", configs.DefaultOpeningPlies), none)
}

// Config builds the tune from the parsed flags and the multi-word flags' words, on top of the
// -config file's settings when there is one. It reports every problem it finds.
func (f *Flags) Config(groups map[string][][]string, resolve configs.Resolver) (Config, error) {
	set := map[string]bool{}
	if f.fs != nil {
		f.fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	}
	var file *configs.Tune
	if f.config != "" {
		t, err := configs.ReadTune(f.config, resolve)
		if err != nil {
			return Config{}, err
		}
		file = t
	}
	var problems []error
	cfg := Config{Seed: f.seed, GameType: f.gameType, Concurrency: f.concurrency, Out: f.out,
		Adjudication: arbiter.Adjudication{MaxPlies: f.maxPlies, Repetitions: f.repetitions},
		Openings:     openings.Config{RandomPlies: configs.DefaultOpeningPlies},
		StartTimeout: seconds(f.start), CommandTimeout: seconds(f.command), DepthTimeout: seconds(f.depth)}
	iterations := f.iterations
	if file != nil {
		cfg, iterations = f.fromFile(cfg, file, set, len(groups["openings"]) > 0)
	}
	haveEngine := file != nil
	switch {
	case file != nil && len(groups["engine"]) == 0 && len(groups["each"]) > 0:
		problems = append(problems, errors.New("tune: -each applies to -engine's engine: with -config, give -engine too, or set [each] in the file"))
	case file == nil || len(groups["engine"]) > 0:
		engines, err := configs.Engines(groups["each"], groups["engine"], nil, resolve)
		switch {
		case err != nil:
			problems = append(problems, err)
		case len(engines) != 1:
			problems = append(problems, fmt.Errorf("tune: give one engine with -engine, not %d: the tune plays it against itself", len(engines)))
		default:
			cfg.Engine, haveEngine = engines[0], true
		}
	}
	params, err := f.parseParams()
	if file != nil && !set["param"] && !set["params"] {
		params, err = fileParams(file)
	}
	problems = append(problems, err)
	cfg.Params = params
	if err := applyOpenings(&cfg.Openings, groups["openings"]); err != nil {
		problems = append(problems, err)
	}
	if iterations < 1 {
		problems = append(problems, errors.New("tune: give -iterations N, the number of game pairs (at least 1)"))
	}
	cfg.Gains = NewGains(iterations)
	cfg.Gains.Alpha, cfg.Gains.Gamma = f.alpha, f.gamma
	if f.a >= 0 {
		cfg.Gains.A = f.a
	}
	if file != nil {
		for _, g := range []struct {
			flag  string
			value *float64
			to    *float64
		}{{"A", file.A, &cfg.Gains.A}, {"alpha", file.Alpha, &cfg.Gains.Alpha}, {"gamma", file.Gamma, &cfg.Gains.Gamma}} {
			if g.value != nil && !set[g.flag] {
				*g.to = *g.value
			}
		}
	}
	if cfg.Out == "" && haveEngine {
		cfg.Out = fmt.Sprintf("tune-%s-%d.jsonl", engineName(cfg.Engine), cfg.Seed)
	}
	return cfg, errors.Join(problems...)
}

// fromFile takes the -config file's settings where no flag gives them, and returns the tune
// and its iterations.
func (f *Flags) fromFile(cfg Config, file *configs.Tune, set map[string]bool, openingsGiven bool) (Config, int) {
	iterations := file.Iterations
	if set["iterations"] {
		iterations = f.iterations
	}
	cfg.Engine = file.Engine
	if !set["seed"] {
		cfg.Seed = file.Seed
	}
	if !set["gametype"] {
		cfg.GameType = file.GameType
	}
	if !set["concurrency"] && file.Concurrency > 0 {
		cfg.Concurrency = file.Concurrency
	}
	if !set["out"] {
		cfg.Out = file.Out
	}
	flags := cfg.Adjudication
	cfg.Adjudication = file.Adjudication
	if set["maxplies"] {
		cfg.Adjudication.MaxPlies = flags.MaxPlies
	}
	if set["repetitions"] {
		cfg.Adjudication.Repetitions = flags.Repetitions
	}
	if !openingsGiven {
		cfg.Openings = file.Openings
	}
	for _, t := range []struct {
		flag string
		file time.Duration
		to   *time.Duration
	}{{"start-timeout", file.StartTimeout, &cfg.StartTimeout}, {"command-timeout", file.CommandTimeout, &cfg.CommandTimeout}, {"depth-timeout", file.DepthTimeout, &cfg.DepthTimeout}} {
		if !set[t.flag] {
			*t.to = t.file
		}
	}
	return cfg, iterations
}

// fileParams reads the params of a -config file's [tune] table.
func fileParams(file *configs.Tune) ([]Param, error) {
	var params []Param
	for _, s := range file.Params {
		p, err := ParseParam(s)
		if err != nil {
			return nil, file.Problem("params", err)
		}
		params = append(params, p)
	}
	if err := CheckParams(params); err != nil {
		return nil, file.Problem("params", err)
	}
	return params, nil
}

// parseParams reads -param and -params.
func (f *Flags) parseParams() ([]Param, error) {
	var params []Param
	var problems []error
	for _, s := range f.params {
		p, err := ParseParam(s)
		problems = append(problems, err)
		params = append(params, p)
	}
	if f.paramsFile != "" {
		data, err := os.ReadFile(f.paramsFile)
		if err != nil {
			return nil, fmt.Errorf("tune: -params: %w", err)
		}
		parse := ParseFishtestLines
		if strings.EqualFold(filepath.Ext(f.paramsFile), ".toml") {
			parse = ParseTOML
		}
		more, err := parse(string(data))
		if err != nil {
			return nil, fmt.Errorf("tune: -params %s: %w", f.paramsFile, err)
		}
		params = append(params, more...)
	}
	if err := errors.Join(problems...); err != nil {
		return nil, err
	}
	return params, CheckParams(params)
}

// applyOpenings applies the words of -openings (file=, book=, order=, start=, plies=), as match
// reads them: given at all, they replace the default random plies, and sources that exclude
// each other are refused as match refuses them.
func applyOpenings(o *openings.Config, groups [][]string) error {
	if len(groups) == 0 {
		return nil
	}
	*o = openings.Config{}
	for _, words := range groups {
		if _, err := configs.ApplyOpenings(o, words); err != nil {
			return fmt.Errorf("tune: %w", err)
		}
	}
	if conflict := configs.OpeningsConflict(*o); conflict != "" {
		return fmt.Errorf("tune: -openings: %s", conflict)
	}
	return nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// WriteOutcome prints where a tune ended: the values as option words and as a TOML line, or,
// for a tune stopped early, how to resume it.
func WriteOutcome(w io.Writer, out *Outcome, cfg Config) {
	fmt.Fprintf(w, "Tune of %s: %d of %d game pairs (plus side +%d =%d -%d)\n", engineName(cfg.Engine), out.Pairs, cfg.Gains.Iterations, out.Wins, out.Draws, out.Losses)
	if out.Pairs < cfg.Gains.Iterations {
		fmt.Fprintf(w, "Stopped before its end: the values so far are below; run the same command again to resume from %s.\n", cfg.Out)
	}
	fmt.Fprintf(w, "Values: %s\n", Words(out.Params, out.Theta))
	fmt.Fprintf(w, "In a configuration file, the tuned options of the engine's [[engine]]:\n  %s\n", TOML(out.Params, out.Theta))
}
