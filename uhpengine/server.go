package uhpengine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Info is what the engine says about itself: an id such as "hivebot v0.1.0" and the expansions
// it plays, such as Mosquito, Ladybug and Pillbug.
type Info struct {
	ID           string
	Capabilities []string
}

// Limit bounds a search: a fixed depth, or a time. Both zero means until interrupted.
type Limit struct {
	Time  time.Duration
	Depth int
}

// Option is one engine option: Name;Type;Value;Default[;Extra...], Extra being Min;Max for
// numbers and the allowed values of an enum.
type Option struct {
	Name, Type, Value, Default string
	Extra                      []string
}

func (o Option) String() string {
	return strings.Join(append([]string{o.Name, o.Type, o.Value, o.Default}, o.Extra...), ";")
}

// Handler is the game side of an engine. Replies may span lines ("\n"-separated); the Server
// adds the final "ok". Return an *InvalidMoveError to print "invalidmove ...", any other error
// to print "err ...".
type Handler interface {
	Info() Info
	// NewGame starts a game from "" (Base), a GameTypeString or a GameString (or anything
	// else the handler understands, such as "remote ..."), and returns the GameString.
	NewGame(ctx context.Context, arg string) (string, error)
	// Play plays a MoveString, or "pass", and returns the GameString.
	Play(ctx context.Context, move string) (string, error)
	ValidMoves(ctx context.Context) (string, error)
	// BestMove searches until the limit or until ctx ends (an interrupt), and answers.
	BestMove(ctx context.Context, limit Limit) (string, error)
	Undo(ctx context.Context, plies int) (string, error)
	Options() []Option
	GetOption(name string) (Option, error)
	SetOption(name, value string) (Option, error)
}

// Perfter is a Handler that can count the move tree ("perft [depth]").
type Perfter interface {
	Perft(ctx context.Context, depth int, line func(string)) error
}

// InvalidMoveError is printed as "invalidmove <Message>".
type InvalidMoveError struct{ Message string }

func (e *InvalidMoveError) Error() string { return "invalidmove " + e.Message }

// Error is printed as "err <Message>".
type Error struct{ Message string }

func (e *Error) Error() string { return e.Message }

// Mzinga's error texts.
const (
	ErrInvalidCommand = "Invalid command. Try 'help' to see a list of valid commands."
	ErrNoGame         = "No game in progress. Try 'newgame' to start a new game."
	ErrGameOver       = "The game is over. Try 'newgame' to start a new game."
)

// MaxLineBytes bounds one input line; longer lines are answered with err and skipped.
const MaxLineBytes = 1 << 20

// Server runs the protocol for a Handler.
type Server struct {
	handler Handler

	mu     sync.Mutex
	cancel context.CancelFunc // of the running command
}

// NewServer returns a Server for h.
func NewServer(h Handler) *Server { return &Server{handler: h} }

// Interrupt cancels the running command, as Ctrl-C does for Mzinga: a running bestmove
// answers with the best move found so far. Wire it to os.Interrupt.
func (s *Server) Interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

var errLineTooLong = errors.New("line too long")

// Serve prints the banner, then answers commands from in until "exit" or the end of input. It
// returns nil then, or the error that stopped it (ctx ending or output failing).
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	w := bufio.NewWriter(out)
	r := bufio.NewReaderSize(in, 64<<10)
	if err := s.reply(ctx, w, "info", nil); err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := readLine(r)
		if errors.Is(err, errLineTooLong) {
			if err := s.write(w, "err Line too long."); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return nil // end of input ends the engine
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		name := strings.ToLower(fields[0])
		if name == "exit" {
			return nil
		}
		if err := s.reply(ctx, w, name, fields[1:]); err != nil {
			return err
		}
	}
}

// readLine reads one line, without its end, of at most MaxLineBytes.
func readLine(r *bufio.Reader) (string, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLineBytes {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			return "", errLineTooLong
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && len(buf) == 0 {
			return "", err
		}
		return strings.TrimRight(string(buf), "\r\n"), nil
	}
}

func (s *Server) write(w *bufio.Writer, text string) error {
	if text != "" {
		w.WriteString(text)
		w.WriteByte('\n')
	}
	w.WriteString("ok\n")
	return w.Flush()
}

// reply runs one command and prints its answer and "ok".
func (s *Server) reply(ctx context.Context, w *bufio.Writer, name string, args []string) error {
	cmdCtx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel()
	}()
	text, err := s.run(cmdCtx, name, args)
	var invalid *InvalidMoveError
	switch {
	case err == nil:
	case errors.As(err, &invalid):
		text = "invalidmove " + invalid.Message
	default:
		text = "err " + strings.TrimSpace(err.Error())
	}
	return s.write(w, text)
}

// run dispatches a command; a panic in the handler becomes an error.
func (s *Server) run(ctx context.Context, name string, args []string) (text string, err error) {
	defer func() {
		if r := recover(); r != nil {
			text, err = "", fmt.Errorf("%v", r)
		}
	}()
	h := s.handler
	invalid := &Error{Message: ErrInvalidCommand}
	rest := strings.Join(args, " ")
	switch name {
	case "info":
		if len(args) != 0 {
			return "", invalid
		}
		info := h.Info()
		return "id " + info.ID + "\n" + strings.Join(info.Capabilities, ";"), nil
	case "newgame":
		return h.NewGame(ctx, rest)
	case "play":
		if len(args) == 0 {
			return "", invalid
		}
		return h.Play(ctx, rest)
	case "pass":
		if len(args) != 0 {
			return "", invalid
		}
		return h.Play(ctx, "pass")
	case "validmoves":
		if len(args) != 0 {
			return "", invalid
		}
		return h.ValidMoves(ctx)
	case "bestmove":
		limit, ok := parseLimit(args)
		if !ok {
			return "", invalid
		}
		return h.BestMove(ctx, limit)
	case "undo":
		n := 1
		if len(args) > 1 {
			return "", invalid
		}
		if len(args) == 1 {
			var err error
			if n, err = strconv.Atoi(args[0]); err != nil {
				return "", invalid
			}
		}
		return h.Undo(ctx, n)
	case "options":
		return s.options(args)
	case "perft":
		p, ok := h.(Perfter)
		if !ok || len(args) > 1 {
			return "", invalid
		}
		depth := -1 // until interrupted
		if len(args) == 1 {
			var err error
			if depth, err = strconv.Atoi(args[0]); err != nil {
				return "", invalid
			}
		}
		var lines []string
		err := p.Perft(ctx, depth, func(l string) { lines = append(lines, l) })
		return strings.Join(lines, "\n"), err
	case "help", "?":
		return help(args)
	}
	return "", invalid
}

// parseLimit reads "", "depth N" or "time hh:mm:ss[.fff]".
func parseLimit(args []string) (Limit, bool) {
	switch {
	case len(args) == 0:
		return Limit{}, true
	case len(args) != 2:
		return Limit{}, false
	case strings.EqualFold(args[0], "depth"):
		n, err := strconv.Atoi(args[1])
		return Limit{Depth: n}, err == nil && n > 0
	case strings.EqualFold(args[0], "time"):
		d, ok := ParseTime(args[1])
		return Limit{Time: d}, ok && d > 0
	}
	return Limit{}, false
}

// ParseTime reads UHP's hh:mm:ss, with an optional fraction of a second (hh:mm:ss.fff).
func ParseTime(s string) (time.Duration, bool) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return 0, false
	}
	h, err1 := strconv.Atoi(parts[0])
	m, err2 := strconv.Atoi(parts[1])
	sec, err3 := strconv.ParseFloat(parts[2], 64)
	if err1 != nil || err2 != nil || err3 != nil || h < 0 || m < 0 || m > 59 || sec < 0 || sec >= 60 || h > 10000 {
		return 0, false
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec*float64(time.Second)), true
}

func (s *Server) options(args []string) (string, error) {
	h := s.handler
	invalid := &Error{Message: ErrInvalidCommand}
	switch {
	case len(args) == 0:
		var lines []string
		for _, o := range h.Options() {
			lines = append(lines, o.String())
		}
		return strings.Join(lines, "\n"), nil
	case strings.EqualFold(args[0], "get") && len(args) == 2:
		o, err := h.GetOption(args[1])
		return o.String(), err
	case strings.EqualFold(args[0], "set") && len(args) == 3:
		o, err := h.SetOption(args[1], args[2])
		return o.String(), err
	}
	return "", invalid
}

var helpTexts = map[string]string{
	"info":       "info\n  Prints the engine's id and capabilities.",
	"newgame":    "newgame [GameTypeString|GameString]\n  Starts a new game (Base by default), or loads a GameString.",
	"play":       "play MoveString\n  Plays a move and prints the new GameString.",
	"pass":       "pass\n  Passes (legal only when there is no other move).",
	"validmoves": "validmoves\n  Prints every valid move, separated by semicolons.",
	"bestmove":   "bestmove [time hh:mm:ss | depth N]\n  Searches and prints the best move; Ctrl-C stops the search early.",
	"undo":       "undo [N]\n  Takes back N plies (1 by default).",
	"options":    "options [get NAME | set NAME VALUE]\n  Lists, reads or sets engine options.",
	"perft":      "perft [N]\n  Counts the move tree to depth N.",
	"help":       "help [command]\n  Prints help.",
	"exit":       "exit\n  Ends the engine.",
}

func help(args []string) (string, error) {
	if len(args) == 1 {
		if t, ok := helpTexts[strings.ToLower(args[0])]; ok {
			return t, nil
		}
		return "", &Error{Message: fmt.Sprintf("Unknown command '%s'.", args[0])}
	}
	if len(args) > 1 {
		return "", &Error{Message: ErrInvalidCommand}
	}
	return "Available commands:\ninfo\nnewgame\nplay\npass\nvalidmoves\nbestmove\nundo\noptions\nperft\nhelp\nexit\nTry 'help <command>' to see help for a particular command.", nil
}
