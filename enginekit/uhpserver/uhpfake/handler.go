package uhpfake

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/rules"
)

// Handler is the game side of a fake engine: a uhpserver.Handler backed by the referee, which
// plays the moves Config.Play chooses and applies Config.Faults. It starts with a Base game in
// progress, so that a bestmove before any newgame is answered too.
//
// Faults that print, wait or end the process need the streams that Run gives the Handler:
// one made by NewHandler writes what faults print nowhere, and a fault that exits or kills
// ends the process it runs in.
type Handler struct {
	cfg     Config
	game    *rules.Game
	rng     *rand.Rand
	options []uhpserver.Option
	stdout  *stream
	stderr  *stream

	searches int     // Think searches so far, for Overshoots
	gaps     []int64 // LatencyLog's gaps, in nanoseconds
	awaitGap bool    // a bestmove was answered: the next command ends a gap
	leaked   [][]byte
}

var (
	_ uhpserver.Handler   = (*Handler)(nil)
	_ uhpserver.Commander = (*Handler)(nil)
)

// NewHandler returns a Handler for cfg whose faults print nothing.
func NewHandler(cfg Config) *Handler {
	return newHandler(cfg, newStream(io.Discard, false, false), newStream(io.Discard, false, false))
}

func newHandler(cfg Config, stdout, stderr *stream) *Handler {
	return &Handler{
		cfg:     cfg,
		game:    rules.NewGame(rules.Base),
		rng:     rand.New(rand.NewPCG(cfg.Seed, uint64(os.Getpid()))),
		options: slices.Clone(cfg.Options),
		stdout:  stdout,
		stderr:  stderr,
	}
}

// Info names the engine: Config.ID and Config.Capabilities.
func (h *Handler) Info() uhpserver.Info {
	info := uhpserver.Info{ID: h.cfg.ID, Capabilities: h.cfg.Capabilities}
	if info.ID == "" {
		info.ID = "uhpfake v1"
	}
	if info.Capabilities == nil {
		info.Capabilities = []string{"Mosquito", "Ladybug", "Pillbug"}
	}
	return info
}

// NewGame loads a GameTypeString or a GameString; "" is a Base game.
func (h *Handler) NewGame(ctx context.Context, arg string) (string, error) {
	if h.before("newgame", arg) {
		return "", nil
	}
	if arg == "" {
		arg = "Base"
	}
	g, err := rules.ParseGameString(arg)
	if err != nil {
		return "", &uhpserver.Error{Message: err.Error()}
	}
	if f := h.find("newgame", arg, true); f != nil {
		switch f.Mangle {
		case "ignore-gamestring":
			g = rules.NewGame(g.GameType())
		case "ignore-gametype":
			g = rules.NewGame(rules.Base)
		}
	}
	h.game = g
	return h.gameString("newgame", arg), nil
}

// Play plays a move, or passes for "pass", as the referee allows.
func (h *Handler) Play(ctx context.Context, move string) (string, error) {
	command := "play"
	if move == "pass" {
		command = "pass"
	}
	if h.before(command, move) {
		return "", nil
	}
	if err := h.game.Play(move); err != nil {
		if f := h.find(command, move, true); f != nil && f.Mangle == "accept-illegal" {
			return h.game.GameString(), nil
		}
		if invalid, ok := errors.AsType[*rules.InvalidMoveError](err); ok {
			return "", &uhpserver.InvalidMoveError{Message: invalid.Reason}
		}
		return "", &uhpserver.InvalidMoveError{Message: err.Error()}
	}
	return h.gameString(command, move), nil
}

// ValidMoves lists the referee's valid moves.
func (h *Handler) ValidMoves(ctx context.Context) (string, error) {
	if h.before("validmoves", "") {
		return "", nil
	}
	moves := h.game.ValidMoveStrings()
	if f := h.find("validmoves", "", true); f != nil {
		switch {
		case f.Mangle == "drop-last-move":
			moves = moves[:len(moves)-1]
		case f.Mangle == "drop-first-move" && len(moves) > 1:
			moves = moves[1:]
		}
	}
	return strings.Join(moves, ";"), nil
}

// BestMove answers the move Config.Play chooses, after Config.Delay, and with Config.Think
// after the time limit or an interrupt.
func (h *Handler) BestMove(ctx context.Context, limit uhpserver.BestMoveArgs) (string, error) {
	if h.before("bestmove", limitArgs(limit)) {
		return "", nil
	}
	if h.cfg.WholeSeconds && limit.Time%time.Second != 0 {
		return "", &uhpserver.Error{Message: "String was not recognized as a valid TimeSpan."}
	}
	time.Sleep(h.cfg.Delay)
	if h.cfg.Think && limit.Time > 0 {
		over := h.cfg.Overshoot
		if n := len(h.cfg.Overshoots); n > 0 {
			over += h.cfg.Overshoots[h.searches%n]
		}
		h.searches++
		timer := time.NewTimer(limit.Time + over)
		select {
		case <-timer.C:
			h.runOverByMove(ctx)
		case <-ctx.Done():
			timer.Stop()
		}
	}
	moves := h.game.ValidMoves()
	if len(moves) == 0 {
		return "", &uhpserver.Error{Message: uhpserver.ErrGameOver}
	}
	rng := h.rng
	if h.cfg.Salt != "" {
		var blunder bool
		if rng, blunder = h.salted(); blunder {
			return h.answered("wQ wQ"), nil
		}
	}
	m := moves[0]
	switch {
	case h.cfg.Salt != "" || h.cfg.Play == "random":
		m = moves[rng.IntN(len(moves))]
	case h.cfg.Play == "last":
		m = moves[len(moves)-1]
	}
	if m.IsPass() {
		return h.answered("pass"), nil
	}
	return h.answered(h.mangleMove(limit, h.game.MoveString(m))), nil
}

// mangleMove changes bestmove's answer as a Mangle says: "lower-case" writes it in lower
// case, "other-side" gives its pieces the colour of the side not to move.
func (h *Handler) mangleMove(limit uhpserver.BestMoveArgs, move string) string {
	f := h.find("bestmove", limitArgs(limit), true)
	if f == nil {
		return move
	}
	switch f.Mangle {
	case "lower-case":
		return strings.ToLower(move)
	case "other-side":
		return strings.Map(func(r rune) rune {
			switch r {
			case 'w':
				return 'b'
			case 'b':
				return 'w'
			}
			return r
		}, move)
	}
	return move
}

// salted is the generator of Config.Salt's moves in this position, and whether to blunder.
func (h *Handler) salted() (*rand.Rand, bool) {
	hash := fnv.New64a()
	hash.Write([]byte(h.cfg.Salt + "|" + h.game.GameString()))
	x := hash.Sum64()
	every := h.cfg.BlunderEvery
	return rand.New(rand.NewPCG(x, 0)), every > 0 && (x>>32)%every == 0
}

// answered notes the end of a bestmove, for LatencyLog.
func (h *Handler) answered(move string) string {
	h.awaitGap = h.cfg.LatencyLog != ""
	return move
}

// Undo takes back plies.
func (h *Handler) Undo(ctx context.Context, plies int) (string, error) {
	if h.before("undo", strconv.Itoa(plies)) {
		return "", nil
	}
	if err := h.game.Undo(plies); err != nil {
		return "", &uhpserver.Error{Message: fmt.Sprintf("Unable to undo %d moves.", plies)}
	}
	return h.gameString("undo", strconv.Itoa(plies)), nil
}

// Options lists Config.Options, as set.
func (h *Handler) Options() []uhpserver.Option { return h.options }

// GetOption returns one option.
func (h *Handler) GetOption(name string) (uhpserver.Option, error) {
	if h.before("options", "get "+name) {
		return uhpserver.Option{}, nil
	}
	return h.option(name)
}

// SetOption sets an option's value, unchecked.
func (h *Handler) SetOption(name, value string) (uhpserver.Option, error) {
	if h.before("options", "set "+name+" "+value) {
		return uhpserver.Option{}, nil
	}
	for i := range h.options {
		if h.options[i].Name == name {
			h.options[i].Value = value
		}
	}
	return h.option(name)
}

func (h *Handler) option(name string) (uhpserver.Option, error) {
	for _, o := range h.options {
		if o.Name == name {
			return o, nil
		}
	}
	return uhpserver.Option{}, &uhpserver.Error{Message: fmt.Sprintf("The option \"%s\" is not valid.", name)}
}

// Commands lists Config.Commands.
func (h *Handler) Commands() []uhpserver.Command {
	var list []uhpserver.Command
	for _, name := range slices.Sorted(maps.Keys(h.cfg.Commands)) {
		list = append(list, uhpserver.Command{Name: name, Help: name + "\n  A command of the fake's own."})
	}
	return list
}

// Command answers one of Config.Commands.
func (h *Handler) Command(ctx context.Context, name string, args []string) (string, error) {
	if h.before(name, strings.Join(args, " ")) {
		return "", nil
	}
	if len(args) > 0 {
		return "", &uhpserver.Error{Message: uhpserver.ErrInvalidCommand}
	}
	return h.cfg.Commands[name], nil
}

// gameString is the answer to a command that reports the game: its GameString, mangled if a
// fault says so.
func (h *Handler) gameString(command, args string) string {
	gs := h.game.GameString()
	if n := h.cfg.ClaimRepetitions; n > 0 && h.game.Repetitions() >= n && !h.game.State().IsOver() {
		gs = strings.Replace(gs, ";InProgress;", ";Draw;", 1)
	}
	f := h.find(command, args, true)
	if f == nil {
		return gs
	}
	switch f.Mangle {
	case "desync":
		ahead := h.game.Clone()
		if moves := ahead.ValidMoves(); len(moves) > 0 {
			ahead.PlayMove(moves[0])
		}
		gs = ahead.GameString()
	case "wrong-state":
		gs = strings.Replace(gs, ";NotStarted;", ";InProgress;", 1)
	case "trailing-semicolon":
		gs += ";"
	}
	return gs
}

// isCommand tells a command's moment from the others.
func isCommand(on string) bool {
	switch on {
	case "start", "ready", "exit", "eof":
		return false
	}
	return true
}

// find returns the first fault for a moment: among the Mangles or among the others.
func (h *Handler) find(on, args string, mangle bool) *Fault {
	for i := range h.cfg.Faults {
		f := &h.cfg.Faults[i]
		switch {
		case (f.Mangle != "") != mangle:
		case f.On != on && !(f.On == "" && isCommand(on)) && !(f.On == "play" && on == "pass"):
		case f.Arg != "" && f.Arg != args && !strings.HasPrefix(args, f.Arg+" "):
		case h.game.Ply() < f.FromPly:
		case f.Chance > 0 && h.draw(i, on, args) >= f.Chance:
		default:
			h.logFault(i, on)
			return f
		}
	}
	return nil
}

// draw is the fault's number in [0, 1) for this moment: a hash of the seed, the fault, the
// command and the game, so that the same run meets the same faults whichever process plays it.
func (h *Handler) draw(fault int, on, args string) float64 {
	hash := fnv.New64a()
	fmt.Fprintf(hash, "%d|%d|%s %s|%s", h.cfg.Seed, fault, on, args, h.game.GameString())
	return float64(hash.Sum64()>>11) / (1 << 53)
}

// logFault appends a line for the fault to Config.FaultLog, in one write, so that the
// engines of a run can share the file.
func (h *Handler) logFault(fault int, on string) {
	if h.cfg.FaultLog == "" {
		return
	}
	name := h.cfg.Faults[fault].Name
	if name == "" {
		name = strconv.Itoa(fault)
	}
	f, err := os.OpenFile(h.cfg.FaultLog, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return // the log is for counting; a fault must not fail on it
	}
	fmt.Fprintf(f, "%s %s %d\n", name, on, h.game.Ply())
	f.Close()
}

// received ends a latency gap, when a line arrives after a bestmove was answered.
func (h *Handler) received() {
	if h.awaitGap {
		h.gaps = append(h.gaps, h.stdout.sinceOK().Nanoseconds())
		h.awaitGap = false
	}
}

// before carries out the fault of a moment, if any. It reports whether the fault silenced
// the answer, which the command then skips.
func (h *Handler) before(on, args string) (silenced bool) {
	f := h.find(on, args, false)
	if f == nil {
		return false
	}
	time.Sleep(f.Delay)
	f.print(h.stdout, h.stderr)
	if f.Leak > 0 {
		b := make([]byte, f.Leak)
		for i := range b {
			b[i] = byte(i) | 1 // written, so that the pages are the process's
		}
		h.leaked = append(h.leaked, b)
	}
	switch f.Then {
	case "silent":
		if isCommand(on) { // the server's answer is to go; at other moments there is none
			h.stdout.silence()
		}
		return true
	case "no-ok":
		if isCommand(on) {
			h.stdout.dropOK()
		}
	case "exit":
		os.Exit(f.Code)
	case "kill":
		kill()
	case "hang":
		for {
			time.Sleep(time.Hour)
		}
	case "spin":
		for {
		}
	case "panic":
		panic("uhpfake: a fault panics in " + on)
	}
	return false
}

// print writes the fault's lines, Repeat times.
func (f *Fault) print(stdout, stderr *stream) {
	eol := "\n"
	if f.NoEOL {
		eol = ""
	}
	text := func(lines Lines) []byte {
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(l + eol)
		}
		return []byte(b.String())
	}
	out, errOut := text(f.Print), text(f.Stderr)
	for i := 0; f.Repeat < 0 || i < max(f.Repeat, 1); i++ {
		if i > 0 {
			time.Sleep(f.Every)
		}
		if stdout.raw(out) != nil || stderr.raw(errOut) != nil {
			return // the client is gone
		}
	}
}

// limitArgs are bestmove's arguments for a limit, as Fault.Arg matches them: "depth N",
// "time SECONDS" (in Go's notation, such as 1.5s) or "".
func limitArgs(l uhpserver.BestMoveArgs) string {
	switch {
	case l.Depth > 0:
		return "depth " + strconv.Itoa(l.Depth)
	case l.Time > 0:
		return "time " + l.Time.String()
	}
	return ""
}
