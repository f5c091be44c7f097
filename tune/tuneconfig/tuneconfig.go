package tuneconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/configs"
	"hivearbiter/openings"
	"hivearbiter/tune"
)

// Flags are a tune's settings as "arbiter tune" takes them on its command line (the command
// binds its flags to them, DefaultFlags holding their defaults): Config builds the tune. The
// engine is given as match gives one (-engine and -each words, configs.Engines).
type Flags struct {
	ConfigFile  string   // -config: a TOML file describing the tune ("" for none)
	Params      []string // -param, one NAME,start,min,max,c_end,r_end each
	ParamsFile  string   // -params: a file of tuned options
	Iterations  int      // -iterations: the game pairs to play
	Seed        int64    // -seed of the perturbations, the rounding and the openings
	A           float64  // -A, the warm-up of the step gain; below 0: N/10 (see SetA)
	Alpha       float64  // -alpha: the decay of the step gain
	Gamma       float64  // -gamma: the decay of the perturbation
	GameType    string   // -gametype
	Concurrency int      // -concurrency: game pairs played at once
	Out         string   // -out: the records file
	MaxPlies    int      // -maxplies: the draw by length (0: none)
	Repetitions int      // -repetitions: the draw by repetition (0: never)
	// StartTimeout, CommandTimeout and DepthTimeout are -start-timeout, -command-timeout
	// and -depth-timeout, in seconds (0: the engine's defaults).
	StartTimeout, CommandTimeout, DepthTimeout float64
	// Given names the flags given (without the '-'): with a -config file, only those
	// override its settings.
	Given map[string]bool
}

// DefaultFlags are a tune's settings given no flags.
func DefaultFlags() Flags {
	return Flags{A: -1, Alpha: tune.DefaultAlpha, Gamma: tune.DefaultGamma, Concurrency: 1,
		MaxPlies: 2 * configs.DefaultMaxMoves, Repetitions: configs.DefaultRepetitions}
}

// SetA reads the value of -A: a number of at least 0.
func (f *Flags) SetA(s string) error {
	a, err := strconv.ParseFloat(s, 64)
	if err != nil || a < 0 {
		return fmt.Errorf("want a number of at least 0")
	}
	f.A = a
	return nil
}

// Config builds the tune from the parsed flags and the multi-word flags' words, on top of the
// -config file's settings when there is one. It reports every problem it finds.
func (f *Flags) Config(groups map[string][][]string, resolve configs.Resolver) (tune.Config, error) {
	set := f.Given
	var file *configs.Tune
	if f.ConfigFile != "" {
		t, err := configs.ReadTune(f.ConfigFile, resolve)
		if err != nil {
			return tune.Config{}, err
		}
		file = t
	}
	var problems []error
	cfg := tune.Config{Seed: f.Seed, GameType: f.GameType, Concurrency: f.Concurrency, Out: f.Out,
		Adjudication: arbiter.Adjudication{MaxPlies: f.MaxPlies, Repetitions: f.Repetitions},
		Openings:     openings.Config{RandomPlies: configs.DefaultOpeningPlies},
		StartTimeout: seconds(f.StartTimeout), CommandTimeout: seconds(f.CommandTimeout), DepthTimeout: seconds(f.DepthTimeout)}
	iterations := f.Iterations
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
	cfg.Gains = tune.NewGains(iterations)
	cfg.Gains.Alpha, cfg.Gains.Gamma = f.Alpha, f.Gamma
	if f.A >= 0 {
		cfg.Gains.A = f.A
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
		cfg.Out = cfg.DefaultOut()
	}
	return cfg, errors.Join(problems...)
}

// fromFile takes the -config file's settings where no flag gives them, and returns the tune
// and its iterations.
func (f *Flags) fromFile(cfg tune.Config, file *configs.Tune, set map[string]bool, openingsGiven bool) (tune.Config, int) {
	iterations := file.Iterations
	if set["iterations"] {
		iterations = f.Iterations
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
func fileParams(file *configs.Tune) ([]tune.Param, error) {
	var params []tune.Param
	for _, s := range file.Params {
		p, err := tune.ParseParam(s)
		if err != nil {
			return nil, file.Problem("params", err)
		}
		params = append(params, p)
	}
	if err := tune.CheckParams(params); err != nil {
		return nil, file.Problem("params", err)
	}
	return params, nil
}

// parseParams reads -param and -params.
func (f *Flags) parseParams() ([]tune.Param, error) {
	var params []tune.Param
	var problems []error
	for _, s := range f.Params {
		p, err := tune.ParseParam(s)
		problems = append(problems, err)
		params = append(params, p)
	}
	if f.ParamsFile != "" {
		data, err := os.ReadFile(f.ParamsFile)
		if err != nil {
			return nil, fmt.Errorf("tune: -params: %w", err)
		}
		parse := tune.ParseFishtestLines
		if strings.EqualFold(filepath.Ext(f.ParamsFile), ".toml") {
			parse = tune.ParseTOML
		}
		more, err := parse(string(data))
		if err != nil {
			return nil, fmt.Errorf("tune: -params %s: %w", f.ParamsFile, err)
		}
		params = append(params, more...)
	}
	if err := errors.Join(problems...); err != nil {
		return nil, err
	}
	return params, tune.CheckParams(params)
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
