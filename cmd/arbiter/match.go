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
	"time"

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
	// One -engine or -each gives one limit: with two, the last would win unseen.
	for flagName, lists := range map[string][][]string{"-each": groups["each"], "-engine": groups["engine"]} {
		for _, words := range lists {
			var limits []string
			for _, w := range words {
				switch k, _, _ := strings.Cut(w, "="); k {
				case "tc", "st", "depth", "nodes":
					limits = append(limits, w)
				}
			}
			if len(limits) > 1 {
				return nil, fmt.Errorf("%s %s: give one limit of tc=, st= and depth=, not %s", flagName, strings.Join(words, " "), strings.Join(limits, " and "))
			}
		}
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
	if err := locateEngines(cfg.Engines); err != nil {
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

// Defaults of match that arbiter.Config leaves to its callers, since its zero values mean
// "none": a move limit, so that two engines shuffling pieces cannot play forever, and varied
// openings, so that deterministic engines do not replay one game pair again and again.
const (
	// defaultMaxMoves is the move limit: a draw after this many moves of each side.
	defaultMaxMoves = 200
	// defaultOpeningPlies starts every game pair from this many random legal plies (seeded):
	// 4 give a thousand game pairs 999 different openings, 2 only 286.
	defaultOpeningPlies = 4
)

// flagAliases maps other spellings of match's flags, normalized (lower case, no '-' or '_'),
// to the flag: the TOML keys (json_out, max_plies, ...) and fastchess's names.
var flagAliases = map[string]string{
	"jsonout": "json", "pgnout": "pgnout", "gametype": "gametype", "maxplies": "maxplies",
	"maxmoves": "maxmoves", "ratinginterval": "ratinginterval", "starttimeout": "start-timeout",
	"commandtimeout": "command-timeout", "depthtimeout": "depth-timeout", "transcripts": "transcripts",
	"config": "config", "srand": "seed",
}

// normalizeFlagNames rewrites flags spelled as in the TOML file (-max_plies, -json_out) or as
// fastchess spells them to the names match defines.
func normalizeFlagNames(fs *flag.FlagSet, args []string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") || len(a) < 2 {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if fs.Lookup(name) != nil {
			continue
		}
		key := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
		if alias, ok := flagAliases[key]; ok && fs.Lookup(alias) != nil {
			out[i] = "-" + alias
			if hasValue {
				out[i] += "=" + value
			}
		}
	}
	return out
}

// matchConfig builds the tournament configuration from a -config file and the flags. It
// reports every problem it finds, not the first only, and checks the files the run will read
// and write.
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
		configFile     = fs.String("config", "", "TOML configuration `file` (see configs/)")
		format         = fs.String("format", "", "tournament format: match, gauntlet or round-robin (default: match for two engines, round-robin for more)")
		tournament     = fs.String("tournament", "", "same as -format")
		seeds          = fs.Int("seeds", 0, "gauntlet: number of engines at the front that play all others (default 1)")
		rounds         = fs.Int("rounds", 0, "rounds: each pairing plays one game pair per round (default 1; 10000 with -sprt, as a cap)")
		games          = fs.Int("games", 0, "games per pairing and round: 2 (a pair, colours swapped; the default) or 1")
		repeat         = fs.Bool("repeat", false, "same as -games 2 (fastchess's name)")
		concurrency    = fs.Int("concurrency", 0, "games played at once, each with its own engine processes (default 1)")
		gameType       = fs.String("gametype", "", "GameTypeString such as Base or Base+ML (default Base+MLP)")
		seed           = fs.Int64("seed", 0, "seed of the schedule and the random openings (default 0)")
		out            = fs.String("out", "", "JSON Lines `file` of game records; the same file resumes the run (default arbiter-RUN.jsonl)")
		pgnOut         = fs.String("pgnout", "", "write every game to this PGN `file` (MzingaViewer format)")
		jsonOut        = fs.String("json", "", "write a JSON summary of the results to this `file` at the end")
		transcripts    = fs.String("transcripts", "", "write each engine's conversation to a file in this `dir`")
		repetitions    = fs.Int("repetitions", 0, "draw when a position occurs this many times, at least 2 (0, the default: never)")
		maxPlies       = fs.Int("maxplies", 0, "draw after this many plies, opening included (0: no limit); same as -maxmoves N/2")
		maxMoves       = fs.Int("maxmoves", 0, fmt.Sprintf("draw after this many moves of each side, opening included, as in fastchess (default %d; 0: no limit)", defaultMaxMoves))
		interval       = fs.Int("ratinginterval", 0, "print the result block every N game pairs (0, the default: at the end only)")
		event          = fs.String("event", "", "event name for the PGN")
		strict         = fs.Bool("strict", false, "stop at the first engine misbehaviour and exit with code 5")
		skipBad        = fs.Bool("skip-bad", false, "resume past lines of the -out file that are not game records (they stay in the file; their games are played again)")
		shard          = fs.String("shard", "", "play only the K-th of N shares of the game pairs (`K/N`), e.g. one per machine; merge the records with arbiter stats")
		startTimeout   = fs.Float64("start-timeout", 0, "seconds an engine may take to start (its info banner and options) (default 10)")
		commandTimeout = fs.Float64("command-timeout", 0, "seconds an engine may take to answer any command but bestmove (default 10)")
		depthTimeout   = fs.Float64("depth-timeout", 0, "seconds a depth-limited search may take before it is stopped (default 300)")
	)
	fs.Func("each", "engine settings applied to every engine (key=value words)", func(string) error { return nil })
	fs.Func("engine", "an engine (key=value words); give one -engine per engine", func(string) error { return nil })
	fs.Func("openings", fmt.Sprintf("openings: file=F order=sequential|random start=N plies=N (default plies=%d)", defaultOpeningPlies), func(string) error { return nil })
	fs.Func("sprt", "SPRT: elo0=E elo1=E alpha=A beta=B model=normalized|logistic", func(string) error { return nil })
	if err := parseFlags(fs, normalizeFlagNames(fs, rest)); err != nil {
		return arbiter.Config{}, err
	}
	var problems []error
	bad := func(format string, args ...any) { problems = append(problems, fmt.Errorf(format, args...)) }
	if fs.NArg() > 0 {
		bad("unexpected argument %q (engine settings follow -engine)", fs.Arg(0))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })

	var cfg arbiter.Config
	var fileSettings configs.Settings
	if *configFile != "" {
		var err error
		if cfg, fileSettings, err = configs.LoadFileSettings(*configFile, builtinResolver); err != nil {
			return cfg, usageError{err}
		}
	}
	engines, err := enginesFromFlags(groups)
	if err != nil {
		bad("%v", err)
	}
	if engines != nil {
		cfg.Engines = engines
	}
	if len(cfg.Engines) == 0 && err == nil {
		bad("no engines: give -config FILE or one -engine cmd=... per engine (see arbiter match -h)")
	}
	openingsGiven := len(groups["openings"]) > 0
	for _, words := range groups["openings"] {
		if err := applyOpenings(&cfg.Openings, words); err != nil {
			bad("%v", err)
		}
	}
	if cfg.Openings.File != "" && cfg.Openings.RandomPlies > 0 {
		bad("-openings: file= and plies= exclude each other: the openings come from the file, or are %d random plies", cfg.Openings.RandomPlies)
	}
	if !openingsGiven && !fileSettings.Openings {
		cfg.Openings.RandomPlies = defaultOpeningPlies
	}
	for _, words := range groups["sprt"] {
		s, err := parseSPRT(words)
		if err != nil {
			bad("%v", err)
			continue
		}
		cfg.SPRT = s
	}
	if *tournament != "" && *format != "" && *tournament != *format {
		bad("-format %s and -tournament %s disagree (they are one setting)", *format, *tournament)
	}
	if *tournament != "" && *format == "" {
		*format = *tournament
	}
	if *format != "" {
		if f, err := arbiter.ParseFormat(*format); err != nil {
			bad("-format %s: want match, gauntlet or round-robin", *format)
		} else {
			cfg.Format = f
		}
	}
	// Flags that were given must have a value that means something: a silently ignored
	// "-rounds 0" plays a run the user did not ask for.
	atLeast := func(name string, v, least int, dst *int) {
		if !given[name] {
			return
		}
		if v < least {
			bad("-%s %d: want %d or more", name, v, least)
			return
		}
		*dst = v
	}
	atLeast("rounds", *rounds, 1, &cfg.Rounds)
	atLeast("concurrency", *concurrency, 1, &cfg.Concurrency)
	coord.concurrency = *concurrency // as given: a coordinator plays games itself only if asked
	atLeast("seeds", *seeds, 1, &cfg.Seeds)
	atLeast("ratinginterval", *interval, 0, &cfg.RatingInterval)
	atLeast("maxplies", *maxPlies, 0, &cfg.Adjudication.MaxPlies)
	if given["games"] {
		if *games != 1 && *games != 2 {
			bad("-games %d: want 2 (a game pair, colours swapped) or 1", *games)
		} else {
			cfg.GamesPerPairing = *games
		}
	}
	if *repeat {
		if given["games"] && *games != 2 {
			bad("-repeat means -games 2, but -games %d was given", *games)
		}
		cfg.GamesPerPairing = 2
	}
	if given["repetitions"] {
		if *repetitions != 0 && *repetitions < 2 {
			bad("-repetitions %d: want 2 or more (the number of times a position occurs), or 0 for never", *repetitions)
		} else {
			cfg.Adjudication.Repetitions = *repetitions
		}
	}
	switch {
	case given["maxmoves"] && given["maxplies"]:
		if *maxPlies != 2**maxMoves {
			bad("-maxmoves %d and -maxplies %d disagree: give one (a move is one ply of each side)", *maxMoves, *maxPlies)
		}
	case given["maxmoves"]:
		if *maxMoves < 0 {
			bad("-maxmoves %d: want 0 (no limit) or more", *maxMoves)
		} else {
			cfg.Adjudication.MaxPlies = 2 * *maxMoves
		}
	case !given["maxplies"] && !fileSettings.MoveLimit:
		cfg.Adjudication.MaxPlies = 2 * defaultMaxMoves
	}
	if given["seeds"] && len(cfg.Engines) > 0 {
		f := cfg.Format
		if f == "" && len(cfg.Engines) > 2 {
			f = arbiter.RoundRobin
		}
		switch {
		case f != arbiter.Gauntlet:
			bad("-seeds %d: seeds are the engines that play all others in a gauntlet; give -format gauntlet, or leave -seeds out", *seeds)
		case *seeds >= len(cfg.Engines):
			bad("-seeds %d: a gauntlet of %d engines has 1 to %d seeds", *seeds, len(cfg.Engines), len(cfg.Engines)-1)
		}
	}
	timeout := func(name string, v float64, dst *time.Duration) {
		if !given[name] {
			return
		}
		if v <= 0 {
			bad("-%s %g: want a number of seconds above 0", name, v)
			return
		}
		*dst = time.Duration(v * float64(time.Second))
	}
	timeout("start-timeout", *startTimeout, &cfg.StartTimeout)
	timeout("command-timeout", *commandTimeout, &cfg.CommandTimeout)
	timeout("depth-timeout", *depthTimeout, &cfg.DepthTimeout)
	overrideString(&cfg.GameType, *gameType)
	overrideString(&cfg.Out, *out)
	if *pgnOut != "" {
		if name, err := pgnFileValue(*pgnOut); err != nil {
			bad("%v", errors.Unwrap(err))
		} else {
			cfg.PGNOut = name
		}
	}
	overrideString(&cfg.JSONOut, *jsonOut)
	overrideString(&cfg.TranscriptDir, *transcripts)
	overrideString(&cfg.Event, *event)
	if given["seed"] {
		cfg.Seed = *seed
	}
	cfg.Strict = cfg.Strict || *strict
	cfg.SkipBadRecords = *skipBad
	if *shard != "" {
		if s, err := arbiter.ParseShard(*shard); err != nil {
			bad("-shard %s: want K/N, the K-th of N shares, such as 2/4", *shard)
		} else {
			cfg.Shard = s
		}
	}
	if len(problems) == 0 {
		if err := cfg.Normalize(); err != nil {
			problems = append(problems, err)
		}
	}
	// The files too, with the rest: the records file's default name (from the run's
	// fingerprint) is checked again when the tournament is laid out.
	files := runFiles(cfg, *configFile)
	if pages.report != "" {
		files = append(files, namedFile{flag: "-report", path: pages.report, write: true})
	}
	problems = append(problems, fileProblems(files, cfg.TranscriptDir)...)
	if len(problems) > 0 {
		return cfg, usageError{errors.Join(problems...)}
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
