package uhpserver

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// Handler is the game side of an engine; the Server does the protocol around it. The Server
// calls one method at a time, so a Handler need not be safe for concurrent use.
//
// A reply is the text printed before "ok": usually one line, but it may hold several lines
// separated by "\n" (intermediate bestmove lines, or the three lines of a remote-play move).
// Return an *InvalidMoveError to print "invalidmove <message>", an *Error (possibly wrapped)
// to print "err <message>", and any other error to print "err <its text>".
type Handler interface {
	// Info names the engine and the expansions it plays.
	Info() Info
	// NewGame starts a game from arg, which is "" (a Base game), a GameTypeString, a
	// GameString or anything else the handler understands (such as "remote"), and returns
	// the new GameString.
	NewGame(ctx context.Context, arg string) (string, error)
	// Play plays a MoveString, or "pass" for the pass command, and returns the GameString.
	Play(ctx context.Context, move string) (string, error)
	// ValidMoves returns the valid moves separated by ";".
	ValidMoves(ctx context.Context) (string, error)
	// BestMove searches within limit and returns a MoveString. An interrupt cancels ctx: the
	// handler should then answer at once with the best move found so far.
	BestMove(ctx context.Context, limit BestMoveArgs) (string, error)
	// Undo takes back plies plies, as the client typed them (possibly zero or negative), and
	// returns the GameString.
	Undo(ctx context.Context, plies int) (string, error)
	// Options lists every option, in the order "options" prints them.
	Options() []Option
	// GetOption returns one option.
	GetOption(name string) (Option, error)
	// SetOption changes one option and returns it as it now is.
	SetOption(name, value string) (Option, error)
}

// Perfter is a Handler that also answers "perft [depth]" by counting the move tree.
type Perfter interface {
	// Perft counts the tree of the current position for each depth from 0 to depth and
	// passes one line per depth to line, from its own goroutine and before it returns. A
	// depth of -1 means the command gave none: count deeper until ctx ends. The Server
	// answers a negative depth itself, with Mzinga's error.
	Perft(ctx context.Context, depth int, line func(string)) error
}

// Commander is a Handler with commands of its own, such as "licenses". Built-in commands
// take precedence over them.
type Commander interface {
	// Commands lists the extra commands, for dispatch and for "help".
	Commands() []Command
	// Command runs one of them; name is in lower case.
	Command(ctx context.Context, name string, args []string) (string, error)
}

// Command describes an extra command of a Commander.
type Command struct {
	// Name is the command word, in lower case.
	Name string
	// Help is what "help <name>" prints: a usage line, then indented lines of explanation.
	Help string
}

// Info is what the engine says about itself.
type Info struct {
	// ID names the engine and its version, such as "hivebot v0.1.0".
	ID string
	// Capabilities are the expansions the engine plays, such as Mosquito, Ladybug, Pillbug.
	Capabilities []string
}

// BestMoveArgs bounds a search. The zero BestMoveArgs searches until interrupted.
type BestMoveArgs struct {
	// Time is the longest the search may take; zero for no limit.
	Time time.Duration
	// Depth is the deepest the search may go, in plies; zero for no limit.
	Depth int
}

// Option is one engine option.
type Option struct {
	Name, Type, Value, Default string
	// Extra is Min and Max for int and double options, the allowed values for enum options,
	// and empty for bool options.
	Extra []string
}

// String formats o as UHP does: Name;Type;Value;Default[;Extra...].
func (o Option) String() string {
	return strings.Join(append([]string{o.Name, o.Type, o.Value, o.Default}, o.Extra...), ";")
}

// InvalidMoveError is a move the engine refuses; the Server prints "invalidmove <Message>".
type InvalidMoveError struct{ Message string }

// Error is the reply the Server prints for it: "invalidmove <Message>".
func (e *InvalidMoveError) Error() string { return "invalidmove " + e.Message }

// Error is a command the engine refuses; the Server prints "err <Message>", even when the
// Error is wrapped.
type Error struct{ Message string }

// Error is the Message alone; the Server prints it after "err ".
func (e *Error) Error() string { return e.Message }

// Mzinga's texts for the most common errors, for use as Error.Message.
const (
	ErrInvalidCommand = "Invalid command. Try 'help' to see a list of valid commands."
	ErrNoGame         = "No game in progress. Try 'newgame' to start a new game."
	ErrGameOver       = "The game is over. Try 'newgame' to start a new game."
)

// ParseTime reads a UHP time, hh:mm:ss with an optional fraction of a second
// (00:00:00.5). Hours may exceed 23; minutes and seconds may not exceed 59.
func ParseTime(s string) (time.Duration, bool) {
	hms := strings.Split(s, ":")
	if len(hms) != 3 {
		return 0, false
	}
	sec, frac, hasFrac := strings.Cut(hms[2], ".")
	if hasFrac && frac == "" {
		return 0, false
	}
	h, okH := digits(hms[0], 6) // a million hours is already beyond any game
	m, okM := digits(hms[1], 2)
	secs, okS := digits(sec, 2)
	if !okH || !okM || !okS || m > 59 || secs > 59 {
		return 0, false
	}
	d := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(secs)*time.Second
	for i, scale := 0, time.Second/10; i < len(frac); i, scale = i+1, scale/10 {
		c := frac[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		d += time.Duration(c-'0') * scale // digits past nanoseconds add nothing
	}
	return d, true
}

// digits reads 1 to max decimal digits, with no sign.
func digits(s string, max int) (int, bool) {
	if s == "" || len(s) > max || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
