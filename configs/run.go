package configs

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/openings"
)

// Defaults of a run that arbiter.Config leaves to its callers, since its zero values mean
// "none": a move limit, so that two engines shuffling pieces cannot play forever, and varied
// openings, so that deterministic engines do not replay one game pair again and again. A run
// gets them unless its file or command line sets the move limit or the openings, 0 included.
const (
	// DefaultMaxMoves is the move limit: a draw after this many moves of each side.
	DefaultMaxMoves = 200
	// DefaultRepetitions draws a game whose position occurs this many times. The Hive rules
	// have no such draw and Mzinga claims none, but nokamute claims a draw on threefold
	// repetition: without the rule, its claims are judged false and lost (10 of 57 games of a
	// depth-4 SPRT of nokamute against itself), and two engines shuffling pieces play to the
	// move limit.
	DefaultRepetitions = 3
	// DefaultOpeningPlies starts every game pair from this many random legal plies (seeded):
	// 4 give a thousand game pairs 999 different openings, 2 only 286.
	DefaultOpeningPlies = 4
)

// Run is a run's settings as a user gives them: in a TOML file, on the command line (Flags),
// or both, a flag overriding the file's key. Config turns it into a normalized
// arbiter.Config, so that the library (LoadFile) and "arbiter match" apply one set of
// defaults and checks, and one configuration is one run, with one run id, by either path.
type Run struct {
	f    file
	from map[string]string // each key given, with the flag that gave it ("" for the file's)
	name string            // the file, for messages ("" when there is none)
	data []byte            // the file's text, for the line of a key
	// engines, when not nil, are the command line's, which replace the file's.
	engines  []driver.EngineConfig
	shard    arbiter.Shard
	skipBad  bool
	problems []error // found while the command line was read
}

// given reports whether the file or a flag set key (a dotted TOML key, or a table's name).
func (r *Run) given(key string) bool {
	_, ok := r.from[key]
	return ok
}

// givenTable reports whether the file or a flag set a table or any key of it.
func (r *Run) givenTable(name string) bool {
	for k := range r.from {
		if k == name || strings.HasPrefix(k, name+".") {
			return true
		}
	}
	return false
}

// set records that a flag (or the file, flag "") gave key.
func (r *Run) set(key, flag string) {
	if r.from == nil {
		r.from = map[string]string{}
	}
	r.from[key] = flag
}

// field is the value of the setting with a dotted TOML key in a file layout.
func field(v reflect.Value, key string) reflect.Value {
	for part := range strings.SplitSeq(key, ".") {
		t := v.Type()
		for i := range t.NumField() {
			if t.Field(i).Tag.Get("toml") == part {
				v = v.Field(i)
				break
			}
		}
	}
	return v
}

// problem reports a setting's impossible value, named as the user gave it: "-rounds 0: want
// 1 or more" for a flag, "x.toml:3: rounds: 0: want 1 or more" for a file's key.
func (r *Run) problem(key, format string, args ...any) error {
	value := fmt.Sprint(field(reflect.ValueOf(r.f), key).Interface())
	msg := value + ": " + fmt.Sprintf(format, args...)
	if flag := r.from[key]; flag != "" {
		return &Error{Flag: flag, Msg: msg}
	}
	return r.fileError(key, msg)
}

// fileError is a problem with a key of the file, at its line.
func (r *Run) fileError(key, msg string) error {
	last := key[strings.LastIndex(key, ".")+1:]
	return &Error{File: r.name, Line: lineOfKey(r.data, last), Key: key, Msg: msg}
}

// Config checks the settings, all of them at once, applies the defaults and returns the
// normalized configuration (see arbiter.Config.Normalize).
func (r *Run) Config(resolve Resolver) (arbiter.Config, error) {
	f := &r.f
	c := arbiter.Config{
		GameType: f.GameType, Rounds: f.Rounds, GamesPerPairing: f.Games, Seeds: f.Seeds,
		Concurrency: f.Concurrency, Seed: f.Seed, Out: f.Out, PGNOut: f.PGNOut, JSONOut: f.JSONOut, TranscriptDir: f.Transcripts,
		Event: f.Event, RatingInterval: f.RatingInterval, Strict: f.Strict, Shard: r.shard, SkipBadRecords: r.skipBad,
		OnEngineFailure: arbiter.FailurePolicy(f.OnEngineFailure), Affinity: f.Affinity, FailureStreak: f.FailureStreak,
		StartTimeout: seconds(f.StartTimeout), CommandTimeout: seconds(f.CommandTimeout), DepthTimeout: seconds(f.DepthTimeout),
	}
	if r.given("failure_streak") && f.FailureStreak == 0 {
		c.FailureStreak = -1 // 0 given: never stop
	}
	problems := append(r.checkValues(), r.problems...)
	c.Openings, c.Adjudication = r.openingsAndAdjudication()
	if f.Tune != nil {
		problems = append(problems, &Error{File: r.name, Key: "tune", Msg: "the file describes a tune: run it with arbiter tune -config"})
	}
	if f.Format != "" {
		format, err := arbiter.ParseFormat(f.Format)
		if err != nil {
			problems = append(problems, r.problem("format", "want match, gauntlet or round-robin"))
		}
		c.Format = format
	}
	if f.SPRT != nil {
		c.SPRT = &arbiter.SPRTConfig{Elo0: f.SPRT.Elo0, Elo1: f.SPRT.Elo1, Alpha: f.SPRT.Alpha, Beta: f.SPRT.Beta, Model: f.SPRT.Model}
		inconclusive, err := ParseAtCap(f.SPRT.AtCap)
		if err != nil {
			problems = append(problems, r.fileError("sprt.at_cap", fmt.Sprintf("%q: want decide (by the final threshold, the default) or inconclusive", f.SPRT.AtCap)))
		}
		c.SPRT.InconclusiveAtCap = inconclusive
	}
	engines, err := r.engineConfigs(resolve)
	if err != nil {
		problems = append(problems, err)
	}
	c.Engines = engines
	if r.given("seeds") && len(engines) > 0 {
		switch {
		case c.Format != arbiter.Gauntlet:
			problems = append(problems, r.problem("seeds", "seeds are the engines that play all others in a gauntlet; give -format gauntlet, or leave -seeds out"))
		case f.Seeds >= len(engines):
			problems = append(problems, r.problem("seeds", "a gauntlet of %d engines has 1 to %d seeds", len(engines), len(engines)-1))
		}
	}
	if len(problems) > 0 {
		return c, errors.Join(problems...)
	}
	if err := c.Normalize(); err != nil {
		return c, r.normalizeErrors(err)
	}
	return c, nil
}

// openingsAndAdjudication are the run's openings and adjudication, with their defaults.
func (r *Run) openingsAndAdjudication() (openings.Config, arbiter.Adjudication) {
	f := &r.f
	o := openings.Config{File: f.Openings.File, Book: f.Openings.Book, Order: f.Openings.Order, Start: f.Openings.Start, RandomPlies: f.Openings.Plies}
	a := arbiter.Adjudication{Repetitions: f.Adjudication.Repetitions, MaxPlies: f.Adjudication.MaxPlies}
	if !r.given("adjudication.repetitions") {
		a.Repetitions = DefaultRepetitions
	}
	switch {
	case r.given("adjudication.max_moves"):
		a.MaxPlies = 2 * f.Adjudication.MaxMoves
	case !r.given("adjudication.max_plies"):
		a.MaxPlies = 2 * DefaultMaxMoves
	}
	if !r.givenTable("openings") {
		o.RandomPlies = DefaultOpeningPlies
	}
	return o, a
}

// checkValues reports every impossible value of the run's settings.
func (r *Run) checkValues() []error {
	f := &r.f
	var problems []error
	check := func(ok bool, key, format string, args ...any) {
		if !ok {
			problems = append(problems, r.problem(key, format, args...))
		}
	}
	given := r.given
	check(!given("rounds") || f.Rounds >= 1, "rounds", "want 1 or more")
	check(!given("concurrency") || f.Concurrency >= 1, "concurrency", "want 1 or more")
	check(!given("games") || f.Games == 1 || f.Games == 2, "games", "want 2 (a game pair, colours swapped) or 1")
	check(!given("seeds") || f.Seeds >= 1, "seeds", "want 1 or more")
	check(f.RatingInterval >= 0, "rating_interval", "want 0 (at the end only) or more")
	check(f.FailureStreak >= 0, "failure_streak", "want 0 (never stop) or more games")
	check(f.Adjudication.Repetitions == 0 || f.Adjudication.Repetitions >= 2, "adjudication.repetitions",
		"want 2 or more (the number of times a position occurs), or 0 for never")
	check(f.Adjudication.MaxPlies >= 0, "adjudication.max_plies", "want 0 (no limit) or more")
	check(f.Adjudication.MaxMoves >= 0, "adjudication.max_moves", "want 0 (no limit) or more")
	check(f.Openings.Start >= 0, "openings.start", "want 0 or more")
	check(f.Openings.Plies >= 0, "openings.plies", "want 0 or more")
	for _, key := range []string{"start_timeout", "command_timeout", "depth_timeout"} {
		v := field(reflect.ValueOf(r.f), key).Float()
		check(v > 0 || !given(key) || v == 0 && r.from[key] == "", key, "want a number of seconds above 0")
	}
	check(f.Each.Margin >= 0, "each.margin", "cannot be negative")
	if given("adjudication.max_plies") && given("adjudication.max_moves") && f.Adjudication.MaxPlies != 2*f.Adjudication.MaxMoves {
		if flag := r.from["adjudication.max_moves"]; flag != "" {
			problems = append(problems, &Error{Msg: fmt.Sprintf("%s %d and %s %d disagree: give one (a move is one ply of each side)",
				flag, f.Adjudication.MaxMoves, r.from["adjudication.max_plies"], f.Adjudication.MaxPlies)})
		} else {
			problems = append(problems, r.fileError("adjudication.max_moves", fmt.Sprintf("%d disagrees with max_plies = %d: give one (a move is one ply of each side)",
				f.Adjudication.MaxMoves, f.Adjudication.MaxPlies)))
		}
	}
	o := openings.Config{File: f.Openings.File, Book: f.Openings.Book, RandomPlies: f.Openings.Plies}
	switch conflict := OpeningsConflict(o); {
	case conflict == "":
	case o.Book != "":
		problems = append(problems, &Error{Msg: "openings: " + conflict})
	case r.from["openings.plies"] != "" || r.from["openings.file"] != "":
		problems = append(problems, &Error{Msg: "-openings: " + conflict})
	default:
		problems = append(problems, r.fileError("openings.plies", "file and plies exclude each other: the openings come from the file, or are random plies"))
	}
	return problems
}

// OpeningsConflict says why openings whose sources exclude each other cannot be played (a book
// with a file or random plies, a file with random plies), or "" when they can.
func OpeningsConflict(o openings.Config) string {
	switch {
	case o.Book != "" && (o.File != "" || o.RandomPlies > 0):
		return "book excludes file and plies: the openings come from one of them"
	case o.File != "" && o.RandomPlies > 0:
		return fmt.Sprintf("file= and plies= exclude each other: the openings come from the file, or are %d random plies", o.RandomPlies)
	}
	return ""
}

// engineConfigs are the command line's engines, or else the file's, with the [each] table's
// settings.
func (r *Run) engineConfigs(resolve Resolver) ([]driver.EngineConfig, error) {
	switch {
	case r.engines != nil:
		return r.engines, nil
	case len(r.f.Engines) == 0 && r.name == "":
		return nil, &Error{Msg: "no engines: give -config FILE or one -engine cmd=... per engine (see arbiter match -h)"}
	case len(r.f.Engines) == 0:
		return nil, &Error{File: r.name, Msg: "no engines: add an [[engine]] table for each engine"}
	}
	var engines []driver.EngineConfig
	for i, e := range r.f.Engines {
		key := fmt.Sprintf("engine[%d]", i+1)
		ec, err := e.withDefaults(r.f.Each).engineConfig(resolve)
		if err != nil {
			var fe fieldError
			if errors.As(err, &fe) {
				return nil, r.fileError(key+"."+fe.key, fe.msg)
			}
			return nil, &Error{File: r.name, Key: key, Msg: err.Error()}
		}
		engines = append(engines, ec)
	}
	return engines, nil
}

// normalizeErrors names the file in each of Normalize's problems, when the run has one.
func (r *Run) normalizeErrors(err error) error {
	if r.name == "" {
		return err
	}
	errs := []error{err}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	}
	var problems []error
	for _, err := range errs {
		msg := err.Error()
		var ce *driver.ConfigError
		if errors.As(err, &ce) {
			msg = ce.Msg
		}
		problems = append(problems, &Error{File: r.name, Msg: msg})
	}
	return errors.Join(problems...)
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
