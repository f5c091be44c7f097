package ugiserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"hivearbiter/rules"
)

// Searcher is the engine's search; the Server does the protocol and keeps the game.
type Searcher interface {
	// ID names the engine and its author, for the id lines.
	ID() (name, author string)
	// Options lists the options, in the order the handshake prints them.
	Options() []Option
	// SetOption sets an option; an error is answered with "info error".
	SetOption(name, value string) error
	// NewGame forgets what earlier games taught the search (its hash table).
	NewGame()
	// Search finds a move in g within limit, and leaves g as it was. ctx ends when the search
	// must stop at once ("stop", "quit"): it then returns its best move so far. g is not
	// over and has a move other than a pass.
	Search(ctx context.Context, g *rules.Game, limit GoArgs) Result
}

// Option is an engine option, printed in the handshake as "option name N type T default D
// [min A max B] [var V]...".
type Option struct {
	Name, Type, Default string
	Min, Max            string   // for type spin
	Vars                []string // for type combo
}

// String is the option as its "option" line declares it to the arbiter.
func (o Option) String() string {
	s := fmt.Sprintf("option name %s type %s default %s", o.Name, o.Type, o.Default)
	if o.Min != "" || o.Max != "" {
		s += fmt.Sprintf(" min %s max %s", o.Min, o.Max)
	}
	for _, v := range o.Vars {
		s += " var " + v
	}
	return s
}

// GoArgs bounds one search; the zero GoArgs searches until stopped ("go infinite").
type GoArgs struct {
	Time  time.Duration // the budget: movetime, or a share of the side's clock
	Depth int
	Nodes int64
}

// Result is what a search found.
type Result struct {
	Move  rules.Move
	Depth int
	// Score is from the side to move's point of view; MateIn, when not zero, says the game
	// is decided in that many plies (negative: lost).
	Score  int
	MateIn int
	Nodes  int64
	PV     []rules.Move
}

// maxMillis caps the numbers of go (a century of milliseconds), so that durations cannot
// overflow.
const maxMillis = 100 * 365 * 24 * 3600 * 1000

// movesToGo is how many more moves a clock search assumes when the side to move has played
// this many, as the arbiter's own clock does (driver.Clock.Budget, where the figures behind
// it are): with an increment, 20 at the start, half a move fewer for every move played, never
// fewer than 10; without one, 25.
func movesToGo(increment time.Duration, played int) time.Duration {
	if increment <= 0 {
		return 25
	}
	return time.Duration(max(10, 20-played/2))
}

// Server speaks UGI for a Searcher, one conversation at a time.
type Server struct {
	searcher Searcher
	game     *rules.Game
}

// NewServer returns a Server whose game is the empty Base board.
func NewServer(s Searcher) *Server {
	return &Server{searcher: s, game: rules.NewGame(rules.Base)}
}

// search is a running go.
type search struct {
	cancel  context.CancelFunc
	done    chan Result
	started time.Time
	game    *rules.Game
	// infinite searches answer on stop only; held keeps a result that came before it.
	infinite bool
	held     *Result
}

// Serve answers the commands read from in until "quit" or the end of in, and returns nil
// then; it returns ctx's error once ctx ends, and an error if out fails. A search runs on its
// own goroutine while commands are read, so "isready" is answered at once and "stop" and
// "quit" take effect at once; Serve waits for the search before it returns. If Serve returns
// while a read on in is under way, that read is abandoned to a goroutine that ends with it.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	w := bufio.NewWriter(out)
	lines := make(chan string)
	readErr := make(chan error, 1)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				select {
				case lines <- line:
				case <-quit:
					return
				}
			}
			if err != nil {
				readErr <- err
				return
			}
		}
	}()

	var running *search
	stopSearch := func() {
		if running != nil {
			running.cancel()
			res := running.held
			if res == nil {
				r := <-running.done
				res = &r
			}
			s.finish(w, running, *res)
			running = nil
		}
	}
	defer func() {
		stopSearch()
		w.Flush()
	}()
	for {
		var done chan Result
		if running != nil && running.held == nil {
			done = running.done
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-readErr:
			stopSearch()
			w.Flush()
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("ugiserver: reading commands: %w", err)
		case res := <-done:
			if running.infinite {
				// "go infinite" answers only when stopped, however soon the search ends.
				running.held = &res
				continue
			}
			s.finish(w, running, res)
			running = nil
		case line := <-lines:
			fields := strings.Fields(line)
			if len(fields) == 0 {
				continue
			}
			cmd, args := fields[0], fields[1:]
			switch {
			case cmd == "quit":
				if running != nil {
					running.cancel()
					<-running.done
					running = nil
				}
				return w.Flush()
			case cmd == "isready":
				fmt.Fprintln(w, "readyok")
			case cmd == "stop":
				stopSearch()
			case running != nil:
				fmt.Fprintf(w, "info error %s during a search: only isready, stop and quit are allowed\n", cmd)
			case cmd == "go":
				running = s.startGo(ctx, w, args)
			default:
				s.command(w, cmd, args)
			}
		}
		if err := w.Flush(); err != nil {
			if running != nil {
				running.cancel()
				<-running.done
				running = nil
			}
			return fmt.Errorf("ugiserver: writing: %w", err)
		}
	}
}

// command answers a command that does not search.
func (s *Server) command(w io.Writer, cmd string, args []string) {
	switch cmd {
	case "ugi":
		name, author := s.searcher.ID()
		fmt.Fprintf(w, "id name %s\nid author %s\n", name, author)
		for _, o := range s.searcher.Options() {
			fmt.Fprintln(w, o)
		}
		fmt.Fprintln(w, "ugiok")
	case "uginewgame":
		s.game = rules.NewGame(rules.Base)
		s.searcher.NewGame()
	case "setoption":
		name, value, err := ParseSetOption(args)
		if err == nil {
			err = s.searcher.SetOption(name, value)
		}
		if err != nil {
			fmt.Fprintf(w, "info error %s\n", oneLine(err.Error()))
		}
	case "position":
		g, err := ParsePosition(args)
		if err != nil {
			fmt.Fprintf(w, "info error %s\n", oneLine(err.Error()))
			return
		}
		s.game = g
	case "query":
		answer, err := Query(s.game, args)
		if err != nil {
			fmt.Fprintf(w, "info error %s\n", err)
			return
		}
		fmt.Fprintf(w, "response %s\n", answer)
	default:
		fmt.Fprintf(w, "info error unknown command %q\n", cmd)
	}
}

// startGo starts a search, or answers at once when there is nothing to search: a forced pass
// is "bestmove pass"; a finished game is an error, still answered with a bestmove so that
// no client waits forever.
func (s *Server) startGo(ctx context.Context, w io.Writer, args []string) *search {
	g := s.game.Clone()
	limit, err := ParseGo(args, g.ToMove(), g.Ply()/2) // moves the side to move has played
	if err != nil {
		fmt.Fprintf(w, "info error %s\n", oneLine(err.Error()))
		fmt.Fprintln(w, "bestmove 0000")
		return nil
	}
	if g.State().IsOver() {
		fmt.Fprintf(w, "info error the game is over (%s)\n", g.State())
		fmt.Fprintln(w, "bestmove 0000")
		return nil
	}
	run := &search{done: make(chan Result, 1), started: time.Now(), game: g, infinite: limit == GoArgs{}}
	moves := g.ValidMoves()
	if len(moves) == 1 && moves[0] == rules.PassMove {
		run.cancel = func() {}
		run.done <- Result{Move: rules.PassMove, PV: []rules.Move{rules.PassMove}}
		return run
	}
	sctx, cancel := context.WithCancel(ctx)
	if limit.Time > 0 {
		sctx, cancel = context.WithTimeout(ctx, limit.Time)
	}
	run.cancel = cancel
	go func() {
		run.done <- s.searcher.Search(sctx, g, limit)
	}()
	return run
}

// finish prints a search's final info line and its bestmove.
func (s *Server) finish(w io.Writer, run *search, res Result) {
	run.cancel()
	elapsed := time.Since(run.started).Milliseconds()
	score := fmt.Sprintf("cp %d", res.Score)
	if res.MateIn != 0 {
		moves := (abs(res.MateIn) + 1) / 2 // in moves of the side to move, as UCI counts
		if res.MateIn < 0 {
			moves = -moves
		}
		score = fmt.Sprintf("mate %d", moves)
	}
	var pv []string
	for _, m := range res.PV {
		pv = append(pv, EncodeMove(run.game.MoveString(m)))
		if run.game.PlayMove(m) != nil {
			break
		}
	}
	fmt.Fprintf(w, "info depth %d score %s nodes %d time %d nps %d", res.Depth, score, res.Nodes, elapsed, res.Nodes*1000/max(elapsed, 1))
	if len(pv) > 0 {
		fmt.Fprintf(w, " pv %s", strings.Join(pv, " "))
	}
	fmt.Fprintln(w)
	best := "pass"
	if res.Move != rules.PassMove {
		g := s.game // the position the search started from: the PV replay moved run.game on
		best = EncodeMove(g.MoveString(res.Move))
	}
	fmt.Fprintf(w, "bestmove %s\n", best)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// EncodeMove writes a MoveString as one token, its space as "_".
func EncodeMove(move string) string { return strings.ReplaceAll(move, " ", "_") }

// DecodeMove reads a move token: its one "_" is the MoveString's space.
func DecodeMove(token string) (string, error) {
	if token == "" || strings.Count(token, "_") > 1 {
		return "", fmt.Errorf("%q is not a move: a move is one token with at most one '_'", token)
	}
	return strings.Replace(token, "_", " ", 1), nil
}

// ParsePosition reads the arguments of "position": "startpos" (Base;NotStarted;White[1]) or
// "fen F", where F is a GameTypeString or a GameString with its moves written as tokens,
// then optionally "moves" and move tokens. Every move is checked by the rules, which accept
// any reference piece next to the destination, the moving piece included.
func ParsePosition(args []string) (*rules.Game, error) {
	if len(args) == 0 {
		return nil, errors.New(`position needs "startpos" or "fen F"`)
	}
	var g *rules.Game
	rest := args[1:]
	switch args[0] {
	case "startpos":
		g = rules.NewGame(rules.Base)
	case "fen":
		if len(rest) == 0 {
			return nil, errors.New("position fen needs a GameTypeString or a GameString")
		}
		fields := strings.Split(rest[0], ";")
		t, err := rules.ParseGameType(fields[0])
		if err != nil {
			return nil, fmt.Errorf("position fen %q: %v", rest[0], err)
		}
		if len(fields) == 2 {
			return nil, fmt.Errorf("position fen %q: want GameTypeString;GameStateString;TurnString;moves...", rest[0])
		}
		g = rules.NewGame(t)
		if len(fields) > 3 {
			if err := play(g, fields[3:]); err != nil {
				return nil, fmt.Errorf("position fen: %v", err)
			}
		}
		rest = rest[1:]
	default:
		return nil, fmt.Errorf("position %q: want startpos or fen", args[0])
	}
	if len(rest) == 0 {
		return g, nil
	}
	if rest[0] != "moves" {
		return nil, fmt.Errorf("position: %q where \"moves\" or the end was expected", rest[0])
	}
	if err := play(g, rest[1:]); err != nil {
		return nil, fmt.Errorf("position: %v", err)
	}
	return g, nil
}

func play(g *rules.Game, tokens []string) error {
	for _, tok := range tokens {
		move, err := DecodeMove(tok)
		if err == nil {
			err = g.Play(move)
		}
		if err != nil {
			return fmt.Errorf("move %d (%s): %v", g.Ply()+1, tok, err)
		}
	}
	return nil
}

// ParseGo reads the arguments of "go": exactly one search form. A clock ("p1time T p2time
// T p1inc I p2inc I", milliseconds, the increments optional) becomes a budget from the time
// of the side to move (side), which has played this many moves: what it has left spread over
// the moves the game is expected to last (movesToGo) plus three quarters of its increment,
// never more than half of what is left.
func ParseGo(args []string, side rules.Color, played int) (GoArgs, error) {
	var l GoArgs
	if len(args) == 1 && args[0] == "infinite" {
		return l, nil
	}
	if len(args) == 0 || len(args)%2 != 0 {
		return l, fmt.Errorf("go %s: want depth N, nodes N, movetime MS, infinite, or p1time T p2time T p1inc I p2inc I", strings.Join(args, " "))
	}
	values := map[string]int64{}
	for i := 0; i < len(args); i += 2 {
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil || n < 0 {
			return l, fmt.Errorf("go %s %s: want a whole number, not negative", args[i], args[i+1])
		}
		if _, dup := values[args[i]]; dup {
			return l, fmt.Errorf("go: %s given twice", args[i])
		}
		values[args[i]] = min(n, maxMillis)
	}
	one := func(key string) (int64, bool) {
		n, ok := values[key]
		return n, ok && len(values) == 1
	}
	if n, ok := one("depth"); ok && n > 0 {
		l.Depth = int(min(n, 1000))
		return l, nil
	}
	if n, ok := one("nodes"); ok && n > 0 {
		l.Nodes = n
		return l, nil
	}
	if n, ok := one("movetime"); ok && n > 0 {
		l.Time = time.Duration(n) * time.Millisecond
		return l, nil
	}
	own, inc := "p1time", "p1inc"
	if side == rules.Black {
		own, inc = "p2time", "p2inc"
	}
	t, ok := values[own]
	for k := range values {
		switch k {
		case "p1time", "p2time", "p1inc", "p2inc":
		default:
			ok = false
		}
	}
	if !ok || t <= 0 {
		return l, fmt.Errorf("go %s: want one search form, with positive numbers (a clock needs %s)", strings.Join(args, " "), own)
	}
	time_ := time.Duration(t) * time.Millisecond
	increment := time.Duration(values[inc]) * time.Millisecond
	l.Time = max(min(time_/movesToGo(increment, played)+increment*3/4, time_/2), time.Millisecond)
	return l, nil
}

// ParseSetOption reads the arguments of "setoption": "name N value V"; the name may hold
// spaces, and the value is the rest of the line.
func ParseSetOption(args []string) (name, value string, err error) {
	line := strings.Join(args, " ")
	rest, ok := strings.CutPrefix(line, "name ")
	if !ok {
		return "", "", fmt.Errorf("setoption %s: want name N value V", line)
	}
	name, value, ok = strings.Cut(rest, " value ")
	if !ok {
		name, ok = strings.CutSuffix(rest, " value")
		if !ok {
			name = rest
		}
	}
	if name = strings.TrimSpace(name); name == "" {
		return "", "", fmt.Errorf("setoption %s: the name is missing", line)
	}
	return name, strings.TrimSpace(value), nil
}

// Query answers "query p1turn", "query gameover" and "query result" for a game: p1 is White.
func Query(g *rules.Game, args []string) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("query %s: want p1turn, gameover or result", strings.Join(args, " "))
	}
	st := g.State()
	switch args[0] {
	case "p1turn":
		return strconv.FormatBool(g.ToMove() == rules.White), nil
	case "gameover":
		return strconv.FormatBool(st.IsOver()), nil
	case "result":
		switch st {
		case rules.WhiteWins:
			return "p1win", nil
		case rules.BlackWins:
			return "p2win", nil
		case rules.Draw:
			return "draw", nil
		}
		return "none", nil
	}
	return "", fmt.Errorf("query %s: want p1turn, gameover or result", args[0])
}
