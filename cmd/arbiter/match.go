package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/configs"
)

const matchUsage = `match [-config FILE] -engine cmd=PROG [name=N] [tc=B+I|st=S|depth=N] [option.NAME=V]... -engine ... [flags]

Plays a match, gauntlet or round-robin between UHP engines and reports the results.
Command-line settings override those of -config. Engine settings (after -engine or -each):
  cmd=PROG name=NAME dir=DIR arg=ARG env=KEY=VALUE builtin=hivebot
  tc=BASE+INC (a game clock, seconds) | st=SECONDS (per move) | depth=N
  margin=SECONDS fractional=true|false option.NAME=VALUE
Multi-word flags:
  -openings file=FILE order=sequential|random start=N plies=N
  -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized|logistic`

// multiWordFlags take the key=value words that follow them, as fastchess and cutechess-cli do.
var multiWordFlags = map[string]bool{"engine": true, "each": true, "openings": true, "sprt": true}

// splitMultiWord separates the multi-word flags from the ordinary ones.
func splitMultiWord(args []string) (rest []string, groups map[string][][]string) {
	groups = make(map[string][][]string)
	for i := 0; i < len(args); i++ {
		name := strings.TrimLeft(args[i], "-")
		if !strings.HasPrefix(args[i], "-") || !multiWordFlags[name] {
			rest = append(rest, args[i])
			continue
		}
		var words []string
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && strings.Contains(args[i+1], "=") {
			i++
			words = append(words, args[i])
		}
		groups[name] = append(groups[name], words)
	}
	return rest, groups
}

// overrideString sets *dst to a flag's value when the flag was given (not empty), so that
// the command line overrides a -config file.
func overrideString(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

// enginesFromFlags builds the engines of the -engine flags, each one's words merged over those
// of every -each flag, which are merged over defaults. Without -engine it returns nil (the
// engines come from -config); -each alone is an error.
func enginesFromFlags(groups map[string][][]string, defaults ...string) ([]arbiter.EngineConfig, error) {
	each := slices.Clone(defaults)
	for _, words := range groups["each"] {
		each = append(each, words...)
	}
	if len(groups["engine"]) == 0 {
		if len(groups["each"]) > 0 {
			return nil, errors.New("-each needs engines given with -engine")
		}
		return nil, nil
	}
	var engines []arbiter.EngineConfig
	for _, words := range groups["engine"] {
		e, err := configs.ParseEngine(configs.MergeEngine(each, words), builtinResolver)
		if err != nil {
			return nil, err
		}
		engines = append(engines, e)
	}
	return engines, nil
}

// builtinResolver runs bundled engines from the arbiter's own binary, so no second build step
// is needed: "hivebot" becomes "<this binary> hivebot".
func builtinResolver(name string) ([]string, error) {
	if name != "hivebot" {
		return nil, fmt.Errorf("unknown built-in engine %q (the bundled engine is hivebot)", name)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the arbiter's own binary to run hivebot: %w", err)
	}
	return []string{exe, "hivebot"}, nil
}

func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var coord coordinatorFlags
	var pages pageFlags
	cfg, err := matchConfigFlags(args, stderr, &coord, &pages)
	if err != nil {
		return err
	}
	hint := "arbiter match " + quoteArgs(args)
	observer, stopPages, err := pages.start(ctx, cfg, stdout)
	if err != nil {
		return err
	}
	var observers []arbiter.Observer
	if observer != nil {
		observers = append(observers, observer)
	}
	if coord.serving() {
		err = runCoordinator(ctx, cfg, &coord, hint, stdout, observers)
	} else {
		err = playTournamentWith(ctx, cfg, hint, stdout, observers, localPlay)
	}
	if perr := stopPages(); err == nil {
		err = perr
	}
	return err
}

// matchConfig builds the tournament configuration from a -config file and the flags.
func matchConfig(args []string, stderr io.Writer) (arbiter.Config, error) {
	return matchConfigFlags(args, stderr, new(coordinatorFlags), new(pageFlags))
}

// matchConfigFlags is matchConfig that also reads the flags that serve the run to workers and
// show it as pages.
func matchConfigFlags(args []string, stderr io.Writer, coord *coordinatorFlags, pages *pageFlags) (arbiter.Config, error) {
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("match", matchUsage, stderr)
	coord.register(fs)
	pages.register(fs)
	var (
		configFile  = fs.String("config", "", "TOML configuration `file` (see configs/)")
		format      = fs.String("format", "", "tournament format: match, gauntlet or round-robin (default: match for two engines, round-robin for more)")
		tournament  = fs.String("tournament", "", "same as -format")
		seeds       = fs.Int("seeds", 0, "gauntlet: number of engines at the front that play all others (default 1)")
		rounds      = fs.Int("rounds", 0, "rounds: each pairing plays one game pair per round (default 1; 10000 with -sprt, as a cap)")
		games       = fs.Int("games", 0, "games per pairing and round: 2 (a pair, colours swapped; the default) or 1")
		concurrency = fs.Int("concurrency", 0, "games played at once, each with its own engine processes (default 1)")
		gameType    = fs.String("gametype", "", "GameTypeString such as Base or Base+ML (default Base+MLP)")
		seed        = fs.Int64("seed", 0, "seed of the schedule and the random openings (default 0)")
		out         = fs.String("out", "", "JSON Lines `file` of game records; the same file resumes the run (default arbiter-RUN.jsonl)")
		pgnOut      = fs.String("pgnout", "", "write every game to this PGN `file` (MzingaViewer format)")
		jsonOut     = fs.String("json", "", "write a JSON summary of the results to this `file` at the end")
		transcripts = fs.String("transcripts", "", "write each engine's conversation to a file in this `dir`")
		repetitions = fs.Int("repetitions", 0, "draw when a position occurs this many times (0, the default: never)")
		maxPlies    = fs.Int("maxplies", 0, "draw after this many plies, opening included (0, the default: no limit)")
		interval    = fs.Int("ratinginterval", 0, "print the result block every N game pairs (0, the default: at the end only)")
		event       = fs.String("event", "", "event name for the PGN")
		strict      = fs.Bool("strict", false, "exit with code 5 when any engine misbehaves")
		shard       = fs.String("shard", "", "play only the K-th of N shares of the game pairs (`K/N`), e.g. one per machine; merge the records with arbiter stats")
	)
	fs.Func("each", "engine settings applied to every engine (key=value words)", func(string) error { return nil })
	fs.Func("engine", "an engine (key=value words); give one -engine per engine", func(string) error { return nil })
	fs.Func("openings", "openings: file=F order=sequential|random start=N plies=N", func(string) error { return nil })
	fs.Func("sprt", "SPRT: elo0=E elo1=E alpha=A beta=B model=normalized|logistic", func(string) error { return nil })
	if err := parseFlags(fs, rest); err != nil {
		return arbiter.Config{}, err
	}
	if fs.NArg() > 0 {
		return arbiter.Config{}, usageError{fmt.Errorf("unexpected argument %q (engine settings follow -engine)", fs.Arg(0))}
	}
	var cfg arbiter.Config
	if *configFile != "" {
		var err error
		if cfg, err = configs.LoadFile(*configFile, builtinResolver); err != nil {
			return cfg, usageError{err}
		}
	}
	engines, err := enginesFromFlags(groups)
	if err != nil {
		return cfg, usageError{err}
	}
	if engines != nil {
		cfg.Engines = engines
	}
	if len(cfg.Engines) == 0 {
		return cfg, usageError{errors.New("no engines: give -config FILE or one -engine cmd=... per engine (see arbiter match -h)")}
	}
	for _, words := range groups["openings"] {
		if err := applyOpenings(&cfg.Openings, words); err != nil {
			return cfg, usageError{err}
		}
	}
	for _, words := range groups["sprt"] {
		s, err := parseSPRT(words)
		if err != nil {
			return cfg, usageError{err}
		}
		cfg.SPRT = s
	}
	if *tournament != "" && *format == "" {
		*format = *tournament
	}
	if *format != "" {
		f, err := arbiter.ParseFormat(*format)
		if err != nil {
			return cfg, usageError{err}
		}
		cfg.Format = f
	}
	setInt := func(dst *int, v int) {
		if v > 0 {
			*dst = v
		}
	}
	setInt(&cfg.Seeds, *seeds)
	setInt(&cfg.Rounds, *rounds)
	setInt(&cfg.GamesPerPairing, *games)
	setInt(&cfg.Concurrency, *concurrency)
	coord.concurrency = *concurrency
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if given["repetitions"] {
		cfg.Adjudication.Repetitions = *repetitions
	}
	if given["maxplies"] {
		cfg.Adjudication.MaxPlies = *maxPlies
	}
	if given["ratinginterval"] {
		cfg.RatingInterval = *interval
	}
	overrideString(&cfg.GameType, *gameType)
	overrideString(&cfg.Out, *out)
	overrideString(&cfg.PGNOut, *pgnOut)
	overrideString(&cfg.JSONOut, *jsonOut)
	overrideString(&cfg.TranscriptDir, *transcripts)
	overrideString(&cfg.Event, *event)
	if given["seed"] {
		cfg.Seed = *seed
	}
	cfg.Strict = cfg.Strict || *strict
	if *shard != "" {
		s, err := arbiter.ParseShard(*shard)
		if err != nil {
			return cfg, usageError{err}
		}
		cfg.Shard = s
	}
	if err := cfg.Normalize(); err != nil {
		return cfg, usageError{err}
	}
	return cfg, nil
}

func applyOpenings(o *arbiter.Openings, words []string) error {
	for _, w := range words {
		k, v, _ := strings.Cut(w, "=")
		switch k {
		case "file":
			o.File = v
		case "order":
			o.Order = v
		case "start", "plies":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return fmt.Errorf("-openings %s: want a whole number", w)
			}
			if k == "start" {
				o.Start = n
			} else {
				o.RandomPlies = n
			}
		case "format":
			// The format follows from the file name (.pgn or a GameString per line).
		default:
			return fmt.Errorf("-openings: unknown setting %q (known: file, order, start, plies)", k)
		}
	}
	return nil
}

func parseSPRT(words []string) (*arbiter.SPRTConfig, error) {
	s := &arbiter.SPRTConfig{}
	for _, w := range words {
		k, v, _ := strings.Cut(w, "=")
		if k == "model" {
			s.Model = v
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("-sprt %s: want a number", w)
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
			return nil, fmt.Errorf("-sprt: unknown setting %q (known: elo0, elo1, alpha, beta, model)", k)
		}
	}
	return s, nil
}

// quoteArgs writes arguments back as a shell command line, for the resume hint.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\"'\\$`*?;&|<>()") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		} else {
			q[i] = a
		}
	}
	return strings.Join(q, " ")
}
