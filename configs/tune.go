package configs

import (
	"errors"
	"fmt"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/openings"
)

// tuneSection is a file's [tune] table: what makes a configuration a tune's ("arbiter tune
// -config") rather than a match's. The engine, openings, adjudication and the run's other
// settings are the file's usual keys.
type tuneSection struct {
	Iterations int      `toml:"iterations"`
	A          *float64 `toml:"A"`
	Alpha      *float64 `toml:"alpha"`
	Gamma      *float64 `toml:"gamma"`
	// Params are the tuned options, each as -param takes one: NAME,start,min,max,c_end,r_end.
	Params []string `toml:"params"`
}

// matchOnlyKeys are settings of a tournament that a tune has no use for: it plays one engine
// against itself, a pair per iteration, and has no SPRT.
var matchOnlyKeys = []string{"format", "rounds", "games", "seeds", "pgn_out", "json_out", "transcripts", "event", "rating_interval", "sprt"}

// Tune is a tune as a configuration file describes it, for package tune to build on (it reads
// the parameters and applies its own defaults). A nil pointer was not given.
type Tune struct {
	Engine     driver.EngineConfig
	Iterations int
	A          *float64
	Alpha      *float64
	Gamma      *float64
	Params     []string
	// GameType, Concurrency, Seed, Out and the timeouts are the file's top-level keys, zero
	// when not given; Openings and Adjudication have the defaults of a match.
	GameType                                   string
	Concurrency                                int
	Seed                                       int64
	Out                                        string
	Openings                                   openings.Config
	Adjudication                               arbiter.Adjudication
	StartTimeout, CommandTimeout, DepthTimeout time.Duration

	run *Run
}

// ReadTune reads a tune's configuration file: its [tune] table, its one [[engine]] (with
// [each]) and the run's settings. Problems name the file, the line and the key.
func ReadTune(path string, resolve Resolver) (*Tune, error) {
	r, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return r.tune(resolve)
}

func (r *Run) tune(resolve Resolver) (*Tune, error) {
	f := &r.f
	if f.Tune == nil {
		return nil, &Error{File: r.name, Msg: "no [tune] table: a tune's file has one, with iterations and params (see docs/tuning.md)"}
	}
	problems := r.checkValues()
	for _, k := range matchOnlyKeys {
		if r.givenTable(k) {
			problems = append(problems, r.fileError(k, "a match's setting: a tune plays its one engine against itself, a game pair per iteration of [tune]"))
		}
	}
	t := &Tune{Iterations: f.Tune.Iterations, A: f.Tune.A, Alpha: f.Tune.Alpha, Gamma: f.Tune.Gamma, Params: f.Tune.Params,
		GameType: f.GameType, Concurrency: f.Concurrency, Seed: f.Seed, Out: f.Out,
		StartTimeout: seconds(f.StartTimeout), CommandTimeout: seconds(f.CommandTimeout), DepthTimeout: seconds(f.DepthTimeout), run: r}
	t.Openings, t.Adjudication = r.openingsAndAdjudication()
	if f.Tune.Iterations < 1 {
		problems = append(problems, r.fileError("tune.iterations", fmt.Sprintf("%d: want the number of game pairs, 1 or more", f.Tune.Iterations)))
	}
	if len(f.Tune.Params) == 0 {
		// Missing, so at the table's line.
		problems = append(problems, &Error{File: r.name, Line: lineOfKey(r.data, "tune"), Key: "tune.params",
			Msg: `missing: give the tuned options, each as "NAME,start,min,max,c_end,r_end"`})
	}
	engines, err := r.engineConfigs(resolve)
	switch {
	case err != nil:
		problems = append(problems, err)
	case len(engines) != 1:
		problems = append(problems, &Error{File: r.name, Msg: fmt.Sprintf("%d [[engine]] tables: a tune has one, played against itself", len(engines))})
	default:
		t.Engine = engines[0]
	}
	return t, errors.Join(problems...)
}

// Problem reports err as a problem with a key of the [tune] table (such as "params"), at its
// line in the file.
func (t *Tune) Problem(key string, err error) error {
	return t.run.fileError("tune."+key, err.Error())
}
