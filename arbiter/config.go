package arbiter

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/openings"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// Shard is one of Count shares of a schedule: the game pairs whose index is Index-1 modulo
// Count. The zero Shard is the whole schedule. Every shard of a run has the run's fingerprint,
// and whole pairs stay in one shard, so the shards' records merge into the run's.
type Shard struct {
	Index, Count int // 1 <= Index <= Count
}

// ParseShard reads "K/N", the K-th of N shards.
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(k))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	sh := Shard{Index: index, Count: count}
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, &driver.ConfigError{Msg: fmt.Sprintf("shard %q: want K/N, the K-th of N shares of the schedule, such as 2/4", s)}
	}
	return sh, sh.validate()
}

func (s Shard) validate() error {
	if s == (Shard{}) {
		return nil
	}
	if s.Count < 1 || s.Index < 1 || s.Index > s.Count {
		return &driver.ConfigError{Msg: fmt.Sprintf("shard %d/%d: want K/N with 1 <= K <= N", s.Index, s.Count)}
	}
	return nil
}

// Has reports whether the shard plays the game pair with this index.
func (s Shard) Has(pair int) bool {
	return s.Count <= 1 || pair%s.Count == s.Index-1
}

// String returns the Shard as it is written in text.
func (s Shard) String() string {
	if s.Count == 0 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// SPRTConfig asks for a sequential probability ratio test of the first engine against the
// second: the run stops when the test accepts a hypothesis. At the run's last game pair (its
// cap) the test decides by a final threshold on the LLR (elo.SPRT Conclude), unless
// InconclusiveAtCap asks it to end there without a decision.
type SPRTConfig struct {
	Elo0, Elo1        float64
	Alpha, Beta       float64
	Model             string // "normalized" (default) or "logistic"
	InconclusiveAtCap bool
}

// Config is a whole tournament.
type Config struct {
	Format  Format
	Engines []driver.EngineConfig
	Seeds   int // gauntlet: the number of engines at the front that play all the others
	Rounds  int
	// GamesPerPairing is 2 for game pairs (one opening, colours swapped) or 1.
	GamesPerPairing int
	GameType        string // GameTypeString, e.g. "Base+MLP"
	Openings        openings.Config
	Concurrency     int
	Seed            int64
	Adjudication    Adjudication
	SPRT            *SPRTConfig
	// Shard, if set, plays one share of the schedule's game pairs, so that one run can be
	// spread over several machines or jobs; their records merge (arbiter stats).
	Shard Shard
	// Out is the JSON Lines file of game records; running again with the same file resumes.
	Out string
	// PGNOut, if set, receives every game as PGN.
	PGNOut string
	// JSONOut, if set, receives a JSON summary of the results when the run ends.
	JSONOut string
	// TranscriptDir, if set, receives a transcript of every engine process's conversation.
	TranscriptDir string
	// RatingInterval prints the result block every this many finished game pairs (0: only at the end).
	RatingInterval int
	Event          string
	// Strict stops the run at the first engine misbehaviour and fails it.
	Strict bool
	// SkipBadRecords resumes past lines of the records file that are not records (they stay
	// in the file; their games are played again) instead of refusing the file.
	SkipBadRecords bool
	// StartTimeout bounds an engine's start-up (its info banner and option setting).
	StartTimeout time.Duration
	// CommandTimeout bounds every command but bestmove.
	CommandTimeout time.Duration
	// DepthTimeout bounds a depth-limited search.
	DepthTimeout time.Duration
	// OnEngineFailure says what a broken engine does to the run: abort it (the default, as
	// fastchess does) or forfeit its remaining games while the others play on.
	OnEngineFailure FailurePolicy
	// Affinity pins each worker's engines to cores of their own (Linux only).
	Affinity bool
	// FailureStreak stops the run when an engine fails this many games in a row the same way
	// (a crash, a time loss, an illegal move, a desync...): a run that cannot inform. 0 is
	// DefaultFailureStreak; a negative number never stops.
	FailureStreak int
	// SharedRecords marks Out as a file that many runs append to (a rating list's records):
	// games of other runs in it are passed over instead of refused.
	SharedRecords bool
	// Labels are written into every record's Settings beside the run's settings (a rating
	// list's name and batch), so that a shared records file says which games are whose.
	Labels map[string]string
}

// Defaults for a tournament's settings.
const (
	DefaultMargin         = 200 * time.Millisecond
	DefaultStartTimeout   = 10 * time.Second
	DefaultCommandTimeout = 10 * time.Second
	DefaultDepthTimeout   = 5 * time.Minute
	DefaultRounds         = 1
	// DefaultSPRTGames caps an SPRT run whose rounds were not given.
	DefaultSPRTGames = 20000
)

// Normalize fills in defaults and checks the configuration. It returns every problem it
// finds, each a *ConfigError (joined with errors.Join when there are several).
func (c *Config) Normalize() error {
	// Every problem is reported, not the first only: a user fixes them in one go.
	var problems []error
	bad := func(format string, args ...any) {
		problems = append(problems, &driver.ConfigError{Msg: fmt.Sprintf(format, args...)})
	}
	c.setDefaults()
	if _, err := ParseFormat(string(c.Format)); err != nil {
		problems = append(problems, err)
	}
	if _, err := rules.ParseGameType(c.GameType); err != nil {
		bad("game type %q: want one of %s", c.GameType, rules.GameTypeList(", "))
	}
	if c.Adjudication.Repetitions < 0 || c.Adjudication.MaxPlies < 0 {
		bad("adjudication thresholds cannot be negative")
	}
	problems = append(problems, c.normalizeEngines()...)
	if _, err := ParseFailurePolicy(string(c.OnEngineFailure)); err != nil {
		problems = append(problems, err)
	}
	if err := c.Shard.validate(); err != nil {
		problems = append(problems, err)
	}
	if c.SPRT != nil {
		if c.Shard.Count > 1 {
			bad("an SPRT stops its run at a bound, which one shard cannot decide for all: play the shards with -rounds and test their merged records with arbiter stats -sprt")
		}
		if len(c.Engines) != 2 {
			bad("an SPRT compares exactly 2 engines, not %d", len(c.Engines))
		}
		if err := c.SPRT.Normalize(); err != nil {
			problems = append(problems, err)
		}
		if c.GamesPerPairing != 2 {
			bad("an SPRT counts game pairs: games per pairing must be 2")
		}
	}
	if len(problems) > 0 {
		return errors.Join(problems...)
	}
	_, err := NewSchedule(c.Format, len(c.Engines), c.Seeds, c.Rounds, c.GamesPerPairing, &openings.Book{})
	return err
}

// setDefaults fills in what the configuration leaves to its defaults.
func (c *Config) setDefaults() {
	if c.Format == "" {
		c.Format = Match
		if len(c.Engines) > 2 {
			c.Format = RoundRobin
		}
	}
	if c.Format == Gauntlet && c.Seeds == 0 {
		c.Seeds = 1
	}
	if c.GameType == "" {
		c.GameType = rules.BaseMLP.String()
	}
	if c.GamesPerPairing == 0 {
		c.GamesPerPairing = 2
	}
	if c.Rounds == 0 {
		c.Rounds = DefaultRounds
		if c.SPRT != nil {
			c.Rounds = DefaultSPRTGames / 2
		}
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 1
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = DefaultStartTimeout
	}
	if c.CommandTimeout <= 0 {
		c.CommandTimeout = DefaultCommandTimeout
	}
	if c.DepthTimeout <= 0 {
		c.DepthTimeout = DefaultDepthTimeout
	}
	if c.FailureStreak == 0 {
		c.FailureStreak = DefaultFailureStreak
	}
}

// normalizeEngines names the engines that have no name (DefaultNames) and checks each one's
// settings with its protocol.
func (c *Config) normalizeEngines() []error {
	var problems []error
	bad := func(format string, args ...any) {
		problems = append(problems, &driver.ConfigError{Msg: fmt.Sprintf(format, args...)})
	}
	unreachable := func(e driver.EngineConfig) bool { return (len(e.Command) == 0 || e.Command[0] == "") && e.Addr == "" }
	for i, e := range c.Engines {
		if unreachable(e) {
			bad("engine %d (%q) has no command: give cmd=PROGRAM, or addr=HOST:PORT for a player reached over TCP", i+1, e.Name)
		}
	}
	driver.DefaultNames(c.Engines)
	names := map[string]bool{}
	for i := range c.Engines {
		e := &c.Engines[i]
		if unreachable(*e) {
			continue
		}
		if names[e.Name] {
			bad("two engines are named %q; give each a distinct name", e.Name)
		}
		names[e.Name] = true
		if e.Time.IsZero() {
			bad("engine %q has no time control: give st=SECONDS, depth=N, nodes=N or tc=BASE+INC", e.Name)
			continue
		}
		if err := driver.Validate(*e); err != nil {
			bad("engine %q: %s", e.Name, driver.Message(err))
		}
		if e.Margin == 0 {
			e.Margin = DefaultMargin
		}
		if e.Margin < 0 {
			bad("engine %q: the time margin cannot be negative", e.Name)
		}
	}
	return problems
}

// Files are the files the run reads and writes, each with the flag that names it, for
// results.CheckFiles.
func (c *Config) Files() []results.NamedFile {
	return []results.NamedFile{
		{Flag: "-out", Path: c.Out, Write: true},
		{Flag: "-pgnout", Path: c.PGNOut, Write: true},
		{Flag: "-json", Path: c.JSONOut, Write: true},
		{Flag: "-openings file=", Path: c.Openings.File},
	}
}

// Fingerprint identifies the games a configuration schedules: engines (by name, protocol,
// arguments, time control, options and protocol settings), format, openings (by content),
// adjudication and seed. How an engine is reached (its program, directory, environment or
// address, and the local paths among its arguments: see RunArgs) differs from machine to
// machine running the same run and is left out, as are concurrency, output files and the SPRT
// bounds, which do not change which games are played: a run can be resumed with more workers,
// re-tested with other bounds, or spread over machines.
//
// Random openings are drawn so that no two pairs repeat a position up to symmetry, which
// changed the openings of earlier arbiters' runs: the fingerprint says so. An engine without
// arguments adds nothing for them, so a run with neither random openings nor arguments keeps
// the id it had before both were part of the fingerprint.
func (c *Config) Fingerprint() (string, error) { return c.fingerprint(true) }

// fingerprint is the Fingerprint, or if not current the run id that arbiters gave before the
// engines' arguments and the draw of random openings were part of it.
func (c *Config) fingerprint(current bool) (string, error) {
	var openingData []byte
	if c.Openings.File != "" || c.Openings.Book != "" {
		data, err := c.Openings.Content()
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(data)
		openingData = sum[:]
	}
	type engine struct {
		Name, Protocol string
		Args           []string `json:",omitempty"`
		Time           string
		Options        []driver.EngineOption
		Settings       map[string]string
		Margin         time.Duration
	}
	// Rounds is left out too: Game(i) does not depend on it, so a finished run can be extended.
	key := struct {
		Format               Format
		Engines              []engine
		Seeds, Rounds, Games int
		GameType             string
		Order                string
		Start, Plies         int
		Openings             []byte
		Seed                 int64
		Adjudication         Adjudication
		Draw                 string `json:",omitempty"`
	}{Format: c.Format, Seeds: c.Seeds, Games: c.GamesPerPairing, GameType: c.GameType,
		Order: c.Openings.Order, Start: c.Openings.Start, Plies: c.Openings.RandomPlies, Openings: openingData,
		Seed: c.Seed, Adjudication: c.Adjudication}
	if current && c.Openings.File == "" && c.Openings.Book == "" && c.Openings.RandomPlies > 0 {
		key.Draw = "distinct up to symmetry"
	}
	for _, e := range c.Engines {
		var args []string
		if current {
			args = e.RunArgs()
		}
		key.Engines = append(key.Engines, engine{e.Name, e.ProtocolName(), args, e.Time.String(), e.Options, e.Settings, e.Margin})
	}
	b, err := json.Marshal(key)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6]), nil
}

// RunSettings are the settings that decide which games a run plays (those its fingerprint
// covers), as a user names them: written into every record, so that a records file of another
// run can be told apart by what differs.
func (c *Config) RunSettings() map[string]string {
	m := map[string]string{
		"-format":      string(c.Format),
		"-games":       strconv.Itoa(c.GamesPerPairing),
		"-gametype":    c.GameType,
		"-seed":        strconv.FormatInt(c.Seed, 10),
		"-repetitions": strconv.Itoa(c.Adjudication.Repetitions),
		"move limit":   moveLimitText(c.Adjudication.MaxPlies),
		"-openings":    c.Openings.Words(),
	}
	if c.Format == Gauntlet {
		m["-seeds"] = strconv.Itoa(c.Seeds)
	}
	for _, e := range c.Engines {
		parts := []string{e.ProtocolName(), e.Time.String(), "margin=" + strconv.FormatFloat(e.Margin.Seconds(), 'g', -1, 64)}
		for _, a := range e.RunArgs() {
			parts = append(parts, "arg="+a)
		}
		for _, o := range e.Options {
			parts = append(parts, "option."+o.Name+"="+o.Value)
		}
		for _, k := range slices.Sorted(maps.Keys(e.Settings)) {
			parts = append(parts, k+"="+e.Settings[k])
		}
		m["engine "+e.Name] = strings.Join(parts, " ")
	}
	return m
}

// moveLimitText says a move limit as -maxmoves (moves of each side) gives it, or in plies.
func moveLimitText(plies int) string {
	switch {
	case plies == 0:
		return "none"
	case plies%2 == 0:
		return fmt.Sprintf("%d moves (-maxmoves)", plies/2)
	}
	return fmt.Sprintf("%d plies (-maxplies)", plies)
}

// differences names what the records' run and this configuration disagree on: every run
// setting when the record holds them, else what a record says (engines, time controls, game
// type, seed). It is what a user told that a records file belongs to another run needs.
func (c *Config) differences(r *results.Record) string {
	if older, err := c.fingerprint(false); err == nil && r.Run == older {
		return "its records were written by an earlier arbiter, whose run id left out the engines' arguments and whose random openings could repeat a position up to symmetry, so its games may not be this run's (other arguments, other openings): finish that run with that arbiter"
	}
	var diffs []string
	if r.Settings != nil {
		mine := c.RunSettings()
		for _, k := range slices.Sorted(maps.Keys(mine)) {
			theirs, ok := r.Settings[k]
			switch {
			case !ok:
				diffs = append(diffs, fmt.Sprintf("%s: not in that run, %s here", k, mine[k]))
			case theirs != mine[k]:
				diffs = append(diffs, fmt.Sprintf("%s: %s there, %s here", k, theirs, mine[k]))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(r.Settings)) {
			if _, ok := mine[k]; !ok {
				diffs = append(diffs, fmt.Sprintf("%s: %s there, not in this run", k, r.Settings[k]))
			}
		}
		if len(diffs) > 0 {
			return "they differ in " + strings.Join(diffs, "; ")
		}
		return "the settings agree, so the openings file's content must differ"
	}
	times := map[string]string{}
	for _, e := range c.Engines {
		times[e.Name] = e.Time.String()
	}
	for _, p := range []results.Player{r.White, r.Black} {
		tc, ok := times[p.Name]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("its engine %q is not among this run's engines", p.Name))
		case p.Time != "" && p.Time != tc:
			diffs = append(diffs, fmt.Sprintf("engine %q plays %s there, %s here", p.Name, p.Time, tc))
		}
	}
	if r.GameType != "" && r.GameType != c.GameType {
		diffs = append(diffs, fmt.Sprintf("game type %s there, %s here", r.GameType, c.GameType))
	}
	if r.Seed != c.Seed {
		diffs = append(diffs, fmt.Sprintf("seed %d there, %d here", r.Seed, c.Seed))
	}
	if len(diffs) == 0 {
		return "the records (of an older arbiter) agree on engines, time controls, game type and seed, so the difference is in settings they do not hold: format, openings, adjudication (-maxmoves, -repetitions), engine options or margins"
	}
	return "they differ in " + strings.Join(diffs, "; ")
}

// program is the Program of the engine with this name, "" when it has none.
func (c *Config) program(name string) string {
	for _, e := range c.Engines {
		if e.Name == name {
			return e.Program
		}
	}
	return ""
}
