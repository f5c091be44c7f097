package configs

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/elo"
	"hivearbiter/openings"
	"hivearbiter/results"
)

// Flags are a run's settings as "arbiter match" takes them on its command line (the command
// binds its flags to them): Run lays those given over the -config file's settings, into the
// Run a file alone would give.
type Flags struct {
	ConfigFile string // -config: the TOML configuration file ("" for none)
	// Values are the values of the flags that set a key of the file, by its fields.
	Values     file
	Tournament string // -tournament: another name of -format
	PGNOut     string // -pgnout: the PGN file, or fastchess's file=NAME
	Shard      string // -shard K/N
	Repeat     bool   // -repeat: fastchess's name of -games 2
	SkipBad    bool   // -skip-bad: resume past lines that are not records
	// Given names the flags given (without the '-'): only those override the file's keys.
	Given map[string]bool
	// Args are the command line's positional arguments: match takes none.
	Args []string
}

// Respell rewrites flags spelled as in the TOML file (-max_plies, -json_out) or as fastchess
// spells them to the names of match's flags, before they are parsed. defined says whether a
// flag of that name is defined: one that is stays as it is.
func Respell(args []string, defined func(name string) bool) []string {
	out := slices.Clone(args)
	for i, a := range out {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") || len(a) < 2 {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if defined(name) {
			continue
		}
		key := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
		if alias := spelledFlag(key); alias != "" && defined(alias) {
			out[i] = "-" + alias
			if hasValue {
				out[i] += "=" + value
			}
		}
	}
	return out
}

// Run reads the -config file, if one was given, and lays the flags given over its settings.
// groups are the words of the multi-word flags by flag (without the '-'), one list per use.
// Problems of the command line are kept for the Run's Config to report with the others; a
// file that cannot be read is returned at once.
func (fl *Flags) Run(groups map[string][][]string, resolve Resolver) (*Run, error) {
	r := &Run{}
	if fl.ConfigFile != "" {
		var err error
		if r, err = ReadFile(fl.ConfigFile); err != nil {
			return nil, err
		}
	}
	bad := func(format string, args ...any) {
		r.problems = append(r.problems, &Error{Msg: fmt.Sprintf(format, args...)})
	}
	if len(fl.Args) > 0 {
		bad("unexpected argument %q (engine settings follow -engine)", fl.Args[0])
	}
	given := fl.Given
	if given["maxmoves"] || given["maxplies"] {
		// One move limit: the command line's replaces the file's, in either unit.
		delete(r.from, "adjudication.max_plies")
		delete(r.from, "adjudication.max_moves")
		r.f.Adjudication.MaxPlies, r.f.Adjudication.MaxMoves = 0, 0
	}
	for name := range given {
		if key := settingKey(name); key != "" {
			field(reflect.ValueOf(&r.f).Elem(), key).Set(field(reflect.ValueOf(fl.Values), key))
			r.set(key, "-"+name)
		}
	}
	fl.formatAndGames(r, given, bad)
	if fl.PGNOut != "" {
		if name, err := PGNFile(fl.PGNOut); err != nil {
			r.problems = append(r.problems, err)
		} else {
			r.f.PGNOut = name
		}
	}
	r.skipBad = fl.SkipBad
	if fl.Shard != "" {
		if s, err := arbiter.ParseShard(fl.Shard); err != nil {
			bad("-shard %s: want K/N, the K-th of N shares, such as 2/4", fl.Shard)
		} else {
			r.shard = s
		}
	}
	engines, err := Engines(groups["each"], groups["engine"], nil, resolve)
	if err != nil {
		r.problems = append(r.problems, err)
		r.engines = []driver.EngineConfig{} // no "no engines" besides
	} else if engines != nil {
		r.engines = engines
	}
	for _, words := range groups["openings"] {
		if err := r.openings(words); err != nil {
			r.problems = append(r.problems, err)
		}
	}
	for _, words := range groups["sprt"] {
		s, err := ParseSPRT(words)
		if err != nil {
			r.problems = append(r.problems, err)
			continue
		}
		r.f.SPRT = &sprt{Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta, Model: s.Model, AtCap: AtCapWord(s.InconclusiveAtCap)}
		r.set("sprt", "-sprt")
	}
	return r, nil
}

// formatAndGames reads the flags that are other names of a setting: -tournament for -format,
// fastchess's -repeat for -games 2.
func (fl *Flags) formatAndGames(r *Run, given map[string]bool, bad func(string, ...any)) {
	switch {
	case given["tournament"] && given["format"] && fl.Tournament != fl.Values.Format:
		bad("-format %s and -tournament %s disagree (they are one setting)", fl.Values.Format, fl.Tournament)
	case given["tournament"] && !given["format"]:
		r.f.Format = fl.Tournament
		r.set("format", "-tournament")
	}
	if fl.Repeat {
		if given["games"] && fl.Values.Games != 2 {
			bad("-repeat means -games 2, but -games %d was given", fl.Values.Games)
		}
		r.f.Games = 2
		r.set("games", "-repeat")
	}
}

// openings applies the words of an -openings flag.
func (r *Run) openings(words []string) error {
	r.set("openings", "-openings")
	f := r.f.Openings
	o := openings.Config{File: f.File, Book: f.Book, Order: f.Order, Start: f.Start, RandomPlies: f.Plies}
	keys, err := ApplyOpenings(&o, words)
	if err != nil {
		return err
	}
	r.f.Openings = openingsTable{File: o.File, Book: o.Book, Order: o.Order, Start: o.Start, Plies: o.RandomPlies}
	for _, k := range keys {
		r.set("openings."+k, "-openings")
	}
	return nil
}

// ApplyOpenings applies the words of an -openings flag (file=F, book=NAME, order=O, start=N,
// plies=N; format= is accepted and ignored, the format following from the file's name) to o,
// and returns the keys it set, in order. Whether the settings agree is checked where they are
// used (a book excludes a file and plies).
func ApplyOpenings(o *openings.Config, words []string) ([]string, error) {
	var keys []string
	for _, w := range words {
		k, v, _ := strings.Cut(w, "=")
		switch k {
		case "file":
			o.File = v
		case "book":
			o.Book = v
		case "order":
			o.Order = v
		case "start", "plies":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return keys, &Error{Msg: fmt.Sprintf("-openings %s: want a whole number", w)}
			}
			if k == "start" {
				o.Start = n
			} else {
				o.RandomPlies = n
			}
		case "format":
			continue
		default:
			return keys, &Error{Msg: fmt.Sprintf("-openings: unknown setting %q (known: file, book, order, start, plies)", k)}
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// ParseSPRT reads the words of an -sprt flag (elo0=E elo1=E alpha=A beta=B model=M
// at_cap=decide|inconclusive). The defaults and the checks are the SPRTConfig's (see
// arbiter.SPRTConfig.Normalize).
func ParseSPRT(words []string) (*arbiter.SPRTConfig, error) {
	s := &arbiter.SPRTConfig{}
	for _, w := range words {
		k, v, _ := strings.Cut(w, "=")
		switch k {
		case "model":
			s.Model = v
			continue
		case "at_cap":
			inconclusive, err := ParseAtCap(v)
			if err != nil {
				return nil, &Error{Msg: "-sprt " + err.Error()}
			}
			s.InconclusiveAtCap = inconclusive
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, &Error{Msg: fmt.Sprintf("-sprt %s: want a number", w)}
		}
		switch k {
		case "elo0":
			s.Elo0 = f
		case "elo1":
			s.Elo1 = f
		case "alpha":
			s.Alpha = f
		case "beta":
			s.Beta = f
		default:
			return nil, &Error{Msg: fmt.Sprintf("-sprt: unknown setting %q (known: elo0, elo1, alpha, beta, model, at_cap)", k)}
		}
	}
	return s, nil
}

// ParseAtCap reads what an SPRT does at its cap (at_cap): "decide" (by the final threshold,
// the default; "" is the default too) or "inconclusive" (end without a decision, exit code 4).
// It reports whether the test ends inconclusive.
func ParseAtCap(v string) (bool, error) {
	switch v {
	case "", "decide":
		return false, nil
	case "inconclusive":
		return true, nil
	}
	return false, fmt.Errorf("at_cap=%s: want decide (by the final threshold) or inconclusive", v)
}

// AtCapWord is the at_cap word of a test that ends inconclusive at its cap, or not.
func AtCapWord(inconclusive bool) string {
	if inconclusive {
		return "inconclusive"
	}
	return "decide"
}

// PGNFile reads a -pgnout value; fastchess's spelling, file=NAME, is accepted.
func PGNFile(v string) (string, error) {
	if name, ok := strings.CutPrefix(v, "file="); ok {
		return name, nil
	}
	if k, _, ok := strings.Cut(v, "="); ok && !strings.ContainsAny(k, `/\.`) {
		return "", &Error{Msg: fmt.Sprintf("-pgnout %s: give the PGN file's name (-pgnout games.pgn); %s= is not a setting here", v, k)}
	}
	return v, nil
}

// Engines builds the engines of the -engine flags, each one's words merged over those of
// every -each flag, which are merged over defaults. Without -engine it returns nil (the
// engines come from a file); -each alone is an error.
func Engines(each, engine [][]string, defaults []string, resolve Resolver) ([]driver.EngineConfig, error) {
	common := slices.Clone(defaults)
	for _, words := range each {
		common = append(common, words...)
	}
	if len(engine) == 0 {
		if len(each) > 0 {
			return nil, &Error{Msg: "-each needs engines given with -engine"}
		}
		return nil, nil
	}
	// One -engine or -each gives one limit: with two, the last would win unseen.
	for _, g := range []struct {
		flag  string
		lists [][]string
	}{{"-each", each}, {"-engine", engine}} {
		for _, words := range g.lists {
			var limits []string
			for _, w := range words {
				switch k, _, _ := strings.Cut(w, "="); k {
				case "tc", "st", "depth", "nodes":
					limits = append(limits, w)
				}
			}
			if len(limits) > 1 {
				return nil, &Error{Msg: fmt.Sprintf("%s %s: give one limit of tc=, st= and depth=, not %s", g.flag, strings.Join(words, " "), strings.Join(limits, " and "))}
			}
		}
	}
	var engines []driver.EngineConfig
	for _, words := range engine {
		e, err := ParseEngine(MergeEngine(common, words), resolve)
		if err != nil {
			return nil, err
		}
		engines = append(engines, e)
	}
	return engines, nil
}

// Concurrency is -concurrency as given (0 when not): a coordinator plays games itself only
// when asked to.
func (fl *Flags) Concurrency() int { return fl.Values.Concurrency }

// SPRTFlags reads the -sprt flags of a command that tests records (arbiter stats and report),
// one list of words each, as SPRTTest reads them: the last one given is the test; nil when
// none is.
func SPRTFlags(lists [][]string) (*elo.SPRT, error) {
	var test *elo.SPRT
	for _, words := range lists {
		t, err := SPRTTest(words)
		if err != nil {
			return nil, err
		}
		test = &t
	}
	return test, nil
}

// SPRTCounts reads the counts arbiter sprt-calc is given, -ptnml (pair counts
// LL,LD,WL+DD,WD,WW) or -wdl (game counts W,D,L), whichever is not "", for a test of model:
// counts the model does not take, or that are all 0, are refused.
func SPRTCounts(ptnmlText, wdlText string, model elo.Model) (*elo.Pentanomial, *elo.WDL, error) {
	if ptnmlText != "" {
		counts, err := results.ParseCounts(ptnmlText, 5)
		if err != nil {
			return nil, nil, fmt.Errorf("-ptnml: %w", err)
		}
		if !model.Pentanomial() {
			return nil, nil, fmt.Errorf("the %s model is trinomial only: give -wdl", model)
		}
		ptnml := elo.Pentanomial{counts[0], counts[1], counts[2], counts[3], counts[4]}
		if ptnml.Pairs() == 0 {
			return nil, nil, errors.New("-ptnml: every count is 0: there is nothing to compute from")
		}
		return &ptnml, nil, nil
	}
	counts, err := results.ParseCounts(wdlText, 3)
	if err != nil {
		return nil, nil, fmt.Errorf("-wdl: %w", err)
	}
	wdl := elo.WDL{Wins: counts[0], Draws: counts[1], Losses: counts[2]}
	if wdl.Games() == 0 {
		return nil, nil, errors.New("-wdl: every count is 0: there is nothing to compute from")
	}
	return nil, &wdl, nil
}

// SPRTTest reads the words of an -sprt flag into the test they describe, with the defaults and
// checks of a run's SPRT: arbiter stats and report test records with it.
func SPRTTest(words []string) (elo.SPRT, error) {
	s, err := ParseSPRT(words)
	if err != nil {
		return elo.SPRT{}, err
	}
	if err := s.Normalize(); err != nil {
		return elo.SPRT{}, err
	}
	return s.Test(), nil
}

// CommandAsWords rewrites the engine of an -engine flag given as one quoted command line,
// -engine "PROG ARGS..." (split on spaces, no shell), as the words -engine cmd=PROG
// arg=ARG..., so that an engine given either way is read as match reads it. An -engine whose
// next word is key=value words is left as it is.
func CommandAsWords(args []string) []string {
	for i := 1; i < len(args); i++ {
		if f := strings.Fields(args[i]); (args[i-1] == "-engine" || args[i-1] == "--engine") && len(f) > 0 && !strings.Contains(f[0], "=") {
			words := []string{"cmd=" + f[0]}
			for _, a := range f[1:] {
				words = append(words, "arg="+a)
			}
			args = slices.Concat(args[:i], words, args[i+1:])
		}
	}
	return args
}
