package configs

import (
	"fmt"
	"reflect"
	"strings"

	"hivearbiter/arbiter"
)

// Setting is one of a run's settings as each grammar names it: its flag on arbiter match's
// command line with the flag's -h text, its key in a configuration file, and the other
// spellings of the flag that match takes. RunSettings is their one list: the command binds
// its flags from it, a flag given sets the file's key it names, and an engine's word that is
// a run's setting is pointed to its flag and key.
type Setting struct {
	Flag  string // the flag's name, without the '-'
	Usage string // the flag's -h text
	// Key is the file's key the flag sets ("adjudication.max_plies"), "" for a flag of the
	// command line alone (-config, -shard) or one read otherwise (-pgnout, -openings).
	Key string
	// Spellings are other names of the flag, normalized (lower case, no '-' or '_'): the
	// file's key, fastchess's name (srand for -seed).
	Spellings []string
	// EngineLike settings are those users also try among an engine's words (-engine ...
	// rounds=3): ParseEngine points them to the flag and the key.
	EngineLike bool
	// MultiWord flags take the key=value words that follow them; they are bound for their
	// -h text, their words collected before the flags are parsed.
	MultiWord bool
}

// RunSettings are the settings of a run, as arbiter match takes them.
var RunSettings = []Setting{
	{Flag: "config", Usage: "TOML configuration `file` (see configs/)", Spellings: []string{"config"}},
	{Flag: "format", Key: "format", Usage: "tournament format: match, gauntlet or round-robin (default: match for two engines, round-robin for more)"},
	{Flag: "tournament", Usage: "same as -format"},
	{Flag: "seeds", Key: "seeds", Usage: "gauntlet: number of engines at the front that play all others (default 1)"},
	{Flag: "rounds", Key: "rounds", EngineLike: true, Usage: "rounds: each pairing plays one game pair per round (default 1; 10000 with -sprt, as a cap)"},
	{Flag: "games", Key: "games", EngineLike: true, Usage: "games per pairing and round: 2 (a pair, colours swapped; the default) or 1"},
	{Flag: "repeat", Usage: "same as -games 2 (fastchess's name)"},
	{Flag: "concurrency", Key: "concurrency", EngineLike: true, Usage: "games played at once, each with its own engine processes (default 1)"},
	{Flag: "gametype", Key: "game_type", EngineLike: true, Spellings: []string{"gametype"}, Usage: "GameTypeString such as Base or Base+ML (default Base+MLP)"},
	{Flag: "seed", Key: "seed", Spellings: []string{"srand"}, Usage: "seed of the schedule and the random openings (default 0)"},
	{Flag: "out", Key: "out", Usage: "JSON Lines `file` of game records; the same file resumes the run (default arbiter-RUN.jsonl)"},
	{Flag: "pgnout", Spellings: []string{"pgnout"}, Usage: "write every game to this PGN `file` (MzingaViewer format)"},
	{Flag: "json", Key: "json_out", Spellings: []string{"jsonout"}, Usage: "write a JSON summary of the results to this `file` at the end"},
	{Flag: "transcripts", Key: "transcripts", Spellings: []string{"transcripts"}, Usage: "write each engine's conversation to a file in this `dir`"},
	{Flag: "repetitions", Key: "adjudication.repetitions", EngineLike: true, Usage: fmt.Sprintf("draw when a position occurs this many times, at least 2 (default %d, the threefold repetition nokamute claims; 0: never)", DefaultRepetitions)},
	{Flag: "maxplies", Key: "adjudication.max_plies", EngineLike: true, Spellings: []string{"maxplies"}, Usage: "draw after this many plies, opening included (0: no limit); same as -maxmoves N/2"},
	{Flag: "maxmoves", Key: "adjudication.max_moves", Spellings: []string{"maxmoves"}, Usage: fmt.Sprintf("draw after this many moves of each side, opening included, as in fastchess (default %d; 0: no limit)", DefaultMaxMoves)},
	{Flag: "ratinginterval", Key: "rating_interval", Spellings: []string{"ratinginterval"}, Usage: "print the result block every N game pairs (0, the default: at the end only)"},
	{Flag: "event", Key: "event", Usage: "event name for the PGN"},
	{Flag: "strict", Key: "strict", Usage: "stop at the first engine misbehaviour and exit with code 5"},
	{Flag: "on-engine-failure", Key: "on_engine_failure", Spellings: []string{"onenginefailure"}, Usage: "what a broken engine does to the run: abort (the default) or forfeit (it loses its remaining games, the others play on)"},
	{Flag: "failure-streak", Key: "failure_streak", Spellings: []string{"failurestreak"}, Usage: fmt.Sprintf("stop the run (exit code 5) when an engine fails this many games in a row the same way: crash, time loss, illegal move, desync (default %d; 0: never)", arbiter.DefaultFailureStreak)},
	{Flag: "affinity", Key: "affinity", Spellings: []string{"useaffinity"}, Usage: "pin each game's engines to cores of their own (Linux)"},
	{Flag: "skip-bad", Usage: "resume past lines of the -out file that are not game records (they stay in the file; their games are played again)"},
	{Flag: "shard", Usage: "play only the K-th of N shares of the game pairs (`K/N`), e.g. one per machine; merge the records with arbiter stats"},
	{Flag: "start-timeout", Key: "start_timeout", EngineLike: true, Spellings: []string{"starttimeout"}, Usage: "seconds an engine may take to start (its info banner and options) (default 10)"},
	{Flag: "command-timeout", Key: "command_timeout", EngineLike: true, Spellings: []string{"commandtimeout"}, Usage: "seconds an engine may take to answer any command but bestmove (default 10)"},
	{Flag: "depth-timeout", Key: "depth_timeout", EngineLike: true, Spellings: []string{"depthtimeout"}, Usage: "seconds a depth-limited search may take before it is stopped (default 300)"},
	{Flag: "each", MultiWord: true, Usage: "engine settings applied to every engine (key=value words)"},
	{Flag: "engine", MultiWord: true, Usage: "an engine (key=value words); give one -engine per engine"},
	{Flag: "openings", MultiWord: true, Usage: fmt.Sprintf("openings: file=F|book=NAME order=sequential|random start=N plies=N (default plies=%d)", DefaultOpeningPlies)},
	{Flag: "sprt", MultiWord: true, Usage: "SPRT: elo0=E elo1=E alpha=A beta=B model=normalized|logistic at_cap=decide|inconclusive"},
}

// RunSetting is the setting of RunSettings whose flag is name; it panics if there is none, a
// programming error.
func RunSetting(name string) Setting {
	for _, s := range RunSettings {
		if s.Flag == name {
			return s
		}
	}
	panic("configs: no run setting -" + name)
}

// Value is where f keeps the value of s's flag (see cli.Bind): a file's key in Values, or a
// field of f's own; for a multi-word flag, whose words are collected apart, a function that
// takes the flag's value and keeps nothing.
func (f *Flags) Value(s Setting) any {
	switch {
	case s.MultiWord:
		return func(string) error { return nil }
	case s.Key != "":
		return field(reflect.ValueOf(&f.Values).Elem(), s.Key).Addr().Interface()
	}
	switch s.Flag {
	case "config":
		return &f.ConfigFile
	case "tournament":
		return &f.Tournament
	case "repeat":
		return &f.Repeat
	case "pgnout":
		return &f.PGNOut
	case "skip-bad":
		return &f.SkipBad
	case "shard":
		return &f.Shard
	}
	return nil
}

// settingKey is the key of the setting whose flag is name, "" when none.
func settingKey(name string) string {
	for _, s := range RunSettings {
		if s.Flag == name {
			return s.Key
		}
	}
	return ""
}

// spelledFlag is the flag that a normalized spelling names, "" when none.
func spelledFlag(spelling string) string {
	for _, s := range RunSettings {
		for _, sp := range s.Spellings {
			if sp == spelling {
				return s.Flag
			}
		}
	}
	return ""
}

// engineLike are the flags of the EngineLike settings, by the key a file gives them ("max_plies
// in [adjudication]" for a nested one).
func engineLike() map[string]string {
	keys := map[string]string{}
	for _, s := range RunSettings {
		if s.EngineLike {
			table, key, nested := strings.Cut(s.Key, ".")
			if nested {
				keys[s.Flag] = key + " in [" + table + "]"
			} else {
				keys[s.Flag] = table
			}
		}
	}
	return keys
}
