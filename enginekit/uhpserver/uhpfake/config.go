package uhpfake

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"hivearbiter/enginekit/uhpserver"
)

// EnvVar is the environment variable that carries a Config, as JSON, to the test binary that
// runs as the fake engine.
const EnvVar = "UHPFAKE"

// IgnoredSIGINT is what an engine with OnSIGINT "report" writes on standard error for each
// SIGINT it receives.
const IgnoredSIGINT = "SIGINT received and ignored"

// Config says how a fake engine plays and how it misbehaves. The zero Config is a well-behaved
// engine that answers every bestmove at once with the first valid move.
type Config struct {
	// ID is the engine's id line, without "id "; "uhpfake v1" if empty.
	ID string `json:",omitempty"`
	// Capabilities are the expansions the banner names; Mosquito, Ladybug and Pillbug if nil.
	Capabilities []string
	// Options are the engine's options, which "options set" changes.
	Options []uhpserver.Option `json:",omitempty"`
	// Commands are commands of the engine's own, such as "bench", by name in lower case, with
	// the answer each prints before its "ok"; they take no arguments.
	Commands map[string]string `json:",omitempty"`

	// Play chooses the move bestmove answers: "first" (the default) or "last" of the valid
	// moves, or "random".
	Play string `json:",omitempty"`
	// Seed seeds Play "random", mixed with the process id, so that two engines of one
	// Config play different games.
	Seed uint64 `json:",omitempty"`
	// Salt, if set, makes the move a function of the salt and the position alone, whichever
	// process plays it: a game is the same on any machine.
	Salt string `json:",omitempty"`
	// BlunderEvery, with Salt, makes bestmove answer the illegal "wQ wQ" in about one
	// position in BlunderEvery.
	BlunderEvery uint64 `json:",omitempty"`

	// Think makes "bestmove time" search for the whole time given, until an interrupt ends it
	// (see OnSIGINT); otherwise bestmove answers at once.
	Think bool `json:",omitempty"`
	// WholeSeconds refuses a time with a fraction of a second, as nokamute and Python engines
	// do (reference UHP-NOTES.md 7.7).
	WholeSeconds bool `json:",omitempty"`
	// Overshoot makes a Think search last this much longer than the time given, as real
	// engines' searches do on a loaded machine (1.20 s for a second at load 2 per core).
	Overshoot time.Duration `json:",omitempty"`
	// Overshoots, if set, are added to Overshoot in turn, one per Think search, from the
	// first again after the last: an engine whose overshoot varies from search to search,
	// as a real engine's does with the load of its machine.
	Overshoots []time.Duration `json:",omitempty"`
	// OvershootPerMove makes a Think search run over by this much more for each move of the
	// engine's side (1 for its first, 20 for its twentieth), as a Python engine whose
	// overshoot grows through its game (issue 47: 29 ms early, 156 ms by move 20); twice as
	// much when the engine finds itself short of CPU as it runs over, as on a loaded machine
	// (Loaded). Added to Overshoot and Overshoots.
	OvershootPerMove time.Duration `json:",omitempty"`
	// ClaimRepetitions, if above 0, reports a Draw in the GameString once the position has
	// occurred this many times, as nokamute claims threefold repetition (UHP-NOTES.md 7.1);
	// the rules have no such draw.
	ClaimRepetitions int `json:",omitempty"`
	// Delay is waited before each bestmove answer, not cut short by an interrupt.
	Delay time.Duration `json:",omitempty"`
	// OnSIGINT is what SIGINT does: "" the system's default (the engine dies), "ignore",
	// "report" (IgnoredSIGINT on standard error, otherwise ignored) or "interrupt" (the
	// running command answers at once, as Mzinga does on Ctrl-C).
	OnSIGINT string `json:",omitempty"`

	// BannerOnInfo prints no banner at start-up, only in answer to "info", as an engine
	// written from a reading of UHP that missed the banner does.
	BannerOnInfo bool `json:",omitempty"`
	// Unflushed keeps everything the engine prints to standard output in a buffer that is
	// written only when it exits normally, as a Python engine's print does to a pipe without
	// flush=True: while it runs, the arbiter receives nothing.
	Unflushed bool `json:",omitempty"`

	// BOM starts standard output and standard error with a byte-order mark, and CRLF ends
	// their lines with "\r\n", as Mzinga on mono does.
	BOM  bool `json:",omitempty"`
	CRLF bool `json:",omitempty"`

	// PidFile, if set, receives the engine's process id when it starts, so that a test can
	// check the process is gone even when the client never got to know it.
	PidFile string `json:",omitempty"`
	// LatencyLog, if set, collects the gaps between the "ok" of each bestmove answer and the
	// next command read, in nanoseconds, one per line, in the file LatencyLog.PID.
	LatencyLog string `json:",omitempty"`
	// Child, if "group" or "escaped", starts a child process holding the engine's standard
	// output and error before the banner, in the engine's process group or in a session of
	// its own, and prints "child PID" before the banner. The child sleeps a minute.
	Child string `json:",omitempty"`

	// Faults are the ways the engine misbehaves, tried in order: the first that matches a
	// moment applies.
	Faults []Fault `json:",omitempty"`
	// FaultLog, if set, is a file to which every fault that applies appends a line: its Name
	// (or its index in Faults) and the moment, so that a long run can count what it injected.
	FaultLog string `json:",omitempty"`
}

// Fault is one way to misbehave, at one moment of the conversation: the engine waits Delay,
// prints Print and Stderr, then does Then. A Mangle changes the engine's answer instead.
type Fault struct {
	// On is the moment: "start" (before the banner), "ready" (after the banner, before
	// reading a command), "exit" (the exit command), "eof" (the end of the input), or the
	// first word of a command ("newgame", "play", "pass", "bestmove", "validmoves", "undo",
	// "options"); "" is every command.
	On string `json:",omitempty"`
	// Arg, if set, limits a command fault to the command with these arguments, or with
	// arguments that begin with Arg and a space ("depth" is any "bestmove depth N").
	Arg string `json:",omitempty"`
	// FromPly limits a command fault to games of at least this many plies: before the
	// command, or for a Mangle, after it.
	FromPly int `json:",omitempty"`
	// Chance, between 0 and 1, makes the fault apply at a matching moment only with this
	// probability (0 is always). The draw is a function of Config.Seed, the fault's place in
	// Faults, the command and the game so far, and not of the process: a run played again
	// meets the same faults in the same positions.
	Chance float64 `json:",omitempty"`
	// Name names the fault in Config.FaultLog.
	Name string `json:",omitempty"`

	// Delay is waited first.
	Delay time.Duration `json:",omitempty"`
	// Print are lines written to standard output as they are, and Stderr to standard error.
	Print  Lines `json:",omitempty"`
	Stderr Lines `json:",omitempty"`
	// Repeat writes Print and Stderr this many times (once if 0); -1 writes them forever.
	Repeat int `json:",omitempty"`
	// Every is waited between two repeats.
	Every time.Duration `json:",omitempty"`
	// NoEOL writes Print and Stderr without line ends: one long line.
	NoEOL bool `json:",omitempty"`
	// Leak is a number of bytes the engine allocates, writes and keeps each time the fault
	// applies: its memory grows as a leaking engine's does.
	Leak int `json:",omitempty"`

	// Then is what follows: "" answers the command as usual; "silent" gives no answer (so
	// Print is the answer, or nothing is); "exit" exits with Code; "kill" sends the engine
	// SIGKILL; "hang" waits forever, deaf to interrupts; "spin" burns a CPU forever; "panic"
	// panics in the handler, which the server answers with err; "no-ok" answers the command
	// as usual but leaves out the "ok" that ends the reply.
	Then string `json:",omitempty"`
	// Code is the exit code of Then "exit".
	Code int `json:",omitempty"`

	// Mangle changes the answer: "desync" (the GameString a move ahead of the game),
	// "wrong-state" (NotStarted said as InProgress), "trailing-semicolon" (a ";" after the
	// GameString), "accept-illegal" (an illegal move answered with the unchanged
	// GameString), "drop-first-move" or "drop-last-move" (one valid move fewer),
	// "ignore-gamestring" (newgame with a GameString starts a game of its type, without its
	// moves), "ignore-gametype" (newgame starts an empty Base game whatever it names), and for bestmove "lower-case" (the move in lower case: ws1) or "other-side" (its
	// pieces of the colour not to move).
	Mangle string `json:",omitempty"`
}

// Lines are lines of output, which may hold any bytes: a line that is not UTF-8 travels in
// the environment as {"go": "<Go string literal>"}.
type Lines []string

// MarshalJSON writes a line that is not valid UTF-8 as a Go string literal, which JSON would
// otherwise change.
func (l Lines) MarshalJSON() ([]byte, error) {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
		if !utf8.ValidString(s) {
			out[i] = map[string]string{"go": strconv.Quote(s)}
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (l *Lines) UnmarshalJSON(data []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*l = make(Lines, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &(*l)[i]); err == nil {
			continue
		}
		var quoted struct{ Go string }
		if err := json.Unmarshal(r, &quoted); err != nil {
			return fmt.Errorf("uhpfake: line %d: %w", i, err)
		}
		s, err := strconv.Unquote(quoted.Go)
		if err != nil {
			return fmt.Errorf("uhpfake: line %d: %w", i, err)
		}
		(*l)[i] = s
	}
	return nil
}

// Env returns the environment entry that makes the test binary run as the fake engine cfg
// describes: EnvVar=JSON. It holds no blanks (a space in a text is written \u0020, and so on), so that
// it stays one word in an engine specification that is split on spaces.
func Env(cfg Config) string {
	data, err := json.Marshal(cfg)
	if err != nil {
		panic(fmt.Sprintf("uhpfake: %v", err)) // every field of Config marshals
	}
	// json.Marshal writes no blanks between tokens: every space is in a string.
	var b strings.Builder
	for _, r := range string(data) {
		if unicode.IsSpace(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return EnvVar + "=" + b.String()
}

// Command returns the command line and the environment entries that start the test binary
// as the fake engine cfg describes. The environment also keeps the race detector from
// sleeping a second before the engine exits.
func Command(cfg Config) (argv, env []string) {
	return []string{os.Args[0]}, []string{Env(cfg), NoExitSleep()}
}

// NoExitSleep is a GORACE entry that keeps the race detector's runtime from sleeping a
// second before every exit, for a process started in a test.
func NoExitSleep() string {
	return "GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")
}

// parse reads a Config from the value of EnvVar.
func parse(value string) (Config, error) {
	var cfg Config
	if err := json.Unmarshal([]byte(value), &cfg); err != nil {
		return Config{}, fmt.Errorf("uhpfake: %s: %w", EnvVar, err)
	}
	return cfg, nil
}
