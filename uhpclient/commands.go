package uhpclient

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"hivearbiter/internal/lines"
	"hivearbiter/rules"
)

// Info is what the engine says about itself: an "id" line and a capabilities line.
type Info struct {
	ID           string   // the id line without "id ", e.g. "Mzinga v0.9.19309"
	Capabilities []string // the expansions it plays, e.g. Mosquito, Ladybug, Pillbug
	Lines        []string // the whole info block, for engines that say more
}

// parseInfo reads an info block: the capabilities are the line after the id line.
func parseInfo(lines []string) (Info, bool) {
	info := Info{Lines: lines}
	for i, l := range lines {
		id, ok := strings.CutPrefix(l, "id ")
		if !ok {
			continue
		}
		info.ID = strings.TrimSpace(id)
		if i+1 < len(lines) {
			for _, c := range strings.Split(lines[i+1], ";") {
				if c = strings.TrimSpace(c); c != "" {
					info.Capabilities = append(info.Capabilities, c)
				}
			}
		}
		return info, true
	}
	return info, false
}

// Supports reports whether the engine can play a GameTypeString: "Base" always, "Base+ML"
// only if it advertises Mosquito and Ladybug (in any letter case).
func (i Info) Supports(gameType string) bool {
	if gameType == "Base" {
		return true
	}
	letters, ok := strings.CutPrefix(gameType, "Base+")
	if !ok || letters == "" {
		return false
	}
	want := rules.Base
	for _, letter := range letters {
		t, err := rules.ParseGameType("Base+" + string(letter))
		if err != nil {
			return false
		}
		want |= t
	}
	return len(want.Missing(i.Expansions())) == 0
}

// Expansions is the widest game type the engine's capabilities make up.
func (i Info) Expansions() rules.GameType { return rules.ParseExpansions(i.Capabilities) }

// NewGame starts a game and returns the engine's GameString. arg is empty (a Base game), a
// GameTypeString, or a whole GameString to load.
func (e *Engine) NewGame(ctx context.Context, arg string) (string, error) {
	return e.gameString(ctx, strings.TrimSpace("newgame "+strings.TrimSpace(arg)))
}

// Play plays a MoveString and returns the engine's GameString.
func (e *Engine) Play(ctx context.Context, move string) (string, error) {
	return e.gameString(ctx, "play "+strings.TrimSpace(move))
}

// Pass passes and returns the engine's GameString.
func (e *Engine) Pass(ctx context.Context) (string, error) {
	return e.gameString(ctx, "pass")
}

// StartPlay sends a MoveString to play, within ctx, and returns once it is written, without
// waiting for the reply, which WaitPlay reads, as exec.Cmd's Wait follows its Start. Until
// WaitPlay the engine is busy with the command, as during Play: every StartPlay that returns
// nil needs its WaitPlay, by the same caller. Sending a move to both engines of a game before
// reading either reply has them play it side by side.
func (e *Engine) StartPlay(ctx context.Context, move string) error {
	return e.start(ctx, "play "+strings.TrimSpace(move))
}

// StartPass is StartPlay for a pass.
func (e *Engine) StartPass(ctx context.Context) error { return e.start(ctx, "pass") }

// WaitPlay waits for the reply to the play or pass that StartPlay or StartPass sent, as long
// as ctx allows, and returns what Play or Pass would have: the engine's GameString, or the
// error. When the reply does not come in time, the engine is killed, as in Play.
func (e *Engine) WaitPlay(ctx context.Context) (string, error) {
	c := e.started
	if c.command == "" {
		return "", fmt.Errorf("uhpclient: %s: WaitPlay without a play started", e.cfg.Name)
	}
	e.started = started{}
	defer e.endExchange()
	// The reply is read under ctx, which may not be the one the command was sent under:
	// that one may have ended while the reply waited to be read.
	e.conn.Begin(ctx)
	var gs string
	_, err := e.receive(ctx, c.command, c.sent, func(lines []string) *ProtocolError {
		gs = lastLine(lines)
		if !looksLikeGameString(gs) {
			return &ProtocolError{Msg: "the reply is not a GameString", Line: gs}
		}
		e.noteBefore(lines)
		return nil
	})
	if err != nil {
		return "", err
	}
	return gs, nil
}

// started is a command that start sent, whose reply is still to be read.
type started struct {
	command string
	sent    time.Time
}

// start sends a command that answers a GameString, for WaitPlay to read its reply.
func (e *Engine) start(ctx context.Context, command string) error {
	sent, err := e.send(ctx, command)
	if err == nil {
		e.started = started{command: command, sent: sent}
	}
	return err
}

// Undo takes back n plies (n >= 1) and returns the engine's GameString.
func (e *Engine) Undo(ctx context.Context, n int) (string, error) {
	if n < 1 {
		return "", fmt.Errorf("uhpclient: %s: undo %d: need at least one ply", e.cfg.Name, n)
	}
	return e.gameString(ctx, "undo "+strconv.Itoa(n))
}

func (e *Engine) gameString(ctx context.Context, command string) (string, error) {
	if err := e.start(ctx, command); err != nil {
		return "", err
	}
	return e.WaitPlay(ctx)
}

// ValidMoves returns the engine's valid moves: MoveStrings, or the single "pass". An engine
// may answer an empty list once the game is over (nokamute does).
func (e *Engine) ValidMoves(ctx context.Context) ([]string, error) {
	var moves []string
	_, err := e.roundTrip(ctx, "validmoves", func(lines []string) *ProtocolError {
		if len(lines) == 0 {
			return &ProtocolError{Msg: "no move list in the reply"}
		}
		list := lastLine(lines)
		for _, m := range strings.Split(list, ";") {
			if m = strings.TrimSpace(m); m == "" {
				continue
			}
			if !looksLikeMove(m) {
				return &ProtocolError{Msg: fmt.Sprintf("%s is not a MoveString", quoteText(m)), Line: list}
			}
			moves = append(moves, m)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return moves, nil
}

// BestMoveArgs bounds a search: a fixed Depth, or else a Time. UHP writes time as hh:mm:ss, which
// many engines read as whole seconds only (nokamute, Python engines). With
// FractionalSeconds, milliseconds are sent as hh:mm:ss.fff. Without it the engine is sent
// Time rounded down to whole seconds, never less than one (Sent): an engine honours its own
// budget, so it answers within Time and needs no interrupting. Only a Time under one second
// is sent longer than it is; then Overrun is true, and an Interruptible engine's search is
// stopped with SIGINT when Time is up. An engine that dies of SIGINT (nokamute, Mzinga on
// mono, Python engines) is never Interruptible: it is left to answer its one second.
type BestMoveArgs struct {
	Time              time.Duration
	Depth             int
	FractionalSeconds bool
	Interruptible     bool
}

// Sent is the search time the engine is sent: Time, or for an engine of whole seconds Time
// rounded down to whole seconds, at least one. It is 0 for a depth search.
func (l BestMoveArgs) Sent() time.Duration {
	switch {
	case l.Depth > 0 || l.Time <= 0:
		return 0
	case l.FractionalSeconds:
		return l.Time
	}
	return max(l.Time.Truncate(time.Second), time.Second)
}

// Overrun reports whether the engine is sent more time than Time: a budget under one second
// for an engine of whole seconds.
func (l BestMoveArgs) Overrun() bool { return l.Depth == 0 && l.Time > 0 && l.Sent() > l.Time }

// stopsAt is when the search is stopped with SIGINT (0: never, but for its context's end): at
// Time, for an Interruptible engine sent more than Time.
func (l BestMoveArgs) stopsAt() time.Duration {
	if l.Overrun() && l.Interruptible {
		return l.Time
	}
	return 0
}

func (l BestMoveArgs) command() (string, error) {
	var buf [48]byte
	switch {
	case l.Depth > 0:
		return string(strconv.AppendInt(append(buf[:0], "bestmove depth "...), int64(l.Depth), 10)), nil
	case l.Depth < 0 || l.Time < 0:
		return "", fmt.Errorf("negative bestmove limit %+v", l)
	case l.Time > 0:
		return string(appendTime(append(buf[:0], "bestmove time "...), l.Sent(), l.FractionalSeconds)), nil
	}
	// A bare bestmove searches without end in Mzinga; the caller meant something else.
	return "", errors.New("bestmove needs a depth or a time")
}

// formatTime writes a search time as hh:mm:ss, or hh:mm:ss.fff when fractional; a whole-second
// time drops its fraction.
func formatTime(d time.Duration, fractional bool) string {
	var buf [32]byte
	return string(appendTime(buf[:0], d, fractional))
}

// appendTime is formatTime, appended to b: a timed search's command is one allocation.
func appendTime(b []byte, d time.Duration, fractional bool) []byte {
	b = appendPadded(b, int64(d/time.Hour), 2)
	b = appendPadded(append(b, ':'), int64(d/time.Minute)%60, 2)
	b = appendPadded(append(b, ':'), int64(d/time.Second)%60, 2)
	if fractional {
		b = appendPadded(append(b, '.'), int64(d/time.Millisecond)%1000, 3)
	}
	return b
}

// appendPadded appends n in decimal, with leading zeros to width digits.
func appendPadded(b []byte, n int64, width int) []byte {
	for w, p := width, int64(10); w > 1; w, p = w-1, p*10 {
		if n < p {
			b = append(b, '0')
		}
	}
	return strconv.AppendInt(b, n, 10)
}

// BestMove asks for a move within l and returns its MoveString. The engine may print
// intermediate lines: the last line before "ok" is the answer, and of a Mzinga-style
// "move;depth;score;pv" line its first field. An Interruptible engine sent more than l.Time
// (BestMoveArgs.Overrun) is interrupted when l.Time is up; its answer to that is its move. When ctx
// ends first, the search is interrupted with SIGINT, given the grace period to answer, and
// the engine is killed: the error is a TimeoutError.
func (e *Engine) BestMove(ctx context.Context, l BestMoveArgs) (string, error) {
	command, err := l.command()
	if err != nil {
		return "", fmt.Errorf("uhpclient: %s: %w", e.cfg.Name, err)
	}
	var stop *searchStop
	if at := l.stopsAt(); at > 0 {
		stop = &searchStop{after: at,
			why: fmt.Sprintf("the budget of %s is up (sent as %s to an engine that reads whole seconds)", seconds(l.Time), formatTime(l.Sent(), false))}
	}
	var move string
	_, err = e.search(ctx, command, stop, func(lines []string) *ProtocolError {
		var ok bool
		if move, ok = bestMoveAnswer(lines); !ok {
			return &ProtocolError{Msg: NotAMove(lastLine(lines)), Fault: NotAMoveString}
		}
		e.noteBefore(lines)
		return nil
	})
	if err != nil {
		return "", err
	}
	return move, nil
}

// NotAMove says that an engine's answer to bestmove is not a move, in the one wording that a
// match, a viewer's session and a check all use.
func NotAMove(answer string) string {
	if answer == "" {
		return "it answered no move (an empty line, or only ok)"
	}
	return fmt.Sprintf("it answered %s, which is not a MoveString", lines.QuoteText(truncate(answer, 200)))
}

// whole reports whether the lines of a reply answer its command in full, so that only the
// "ok" that ends it is missing: a banner, a move, a GameString, a move list.
func whole(command string, reply []string) bool {
	if len(reply) == 0 {
		return false
	}
	verb, _, _ := strings.Cut(command, " ")
	switch verb {
	case startCommand, "info":
		return hasIDLine(reply)
	case "bestmove":
		_, ok := bestMoveAnswer(reply)
		return ok
	case "newgame", "play", "pass", "undo":
		return looksLikeGameString(lastLine(reply))
	case "validmoves":
		for _, m := range strings.Split(lastLine(reply), ";") {
			if !looksLikeMove(strings.TrimSpace(m)) {
				return false
			}
		}
		return true
	}
	return false
}

func bestMoveAnswer(lines []string) (string, bool) {
	move, _, _ := strings.Cut(lastLine(lines), ";")
	move = strings.TrimSpace(move)
	return move, looksLikeMove(move)
}

// Option is one engine option as "options" lists it: Name;Type;Value;Default[;Extra...],
// where Extra is Min;Max for a number and the allowed values for an enum.
type Option struct {
	Name, Type, Value, Default string
	Extra                      []string
}

// String writes the option back as an "options" line.
func (o Option) String() string {
	return strings.Join(append([]string{o.Name, o.Type, o.Value, o.Default}, o.Extra...), ";")
}

// ParseOption reads one line of an "options" reply.
func ParseOption(line string) (Option, error) {
	f := strings.Split(line, ";")
	if len(f) < 4 || f[0] == "" || f[1] == "" {
		return Option{}, fmt.Errorf("uhpclient: %q is not an option (want Name;Type;Value;Default[;...])", line)
	}
	o := Option{Name: f[0], Type: f[1], Value: f[2], Default: f[3]}
	if len(f) > 4 {
		o.Extra = f[4:]
	}
	return o, nil
}

// Options lists the engine's options.
func (e *Engine) Options(ctx context.Context) ([]Option, error) {
	var opts []Option
	_, err := e.roundTrip(ctx, "options", func(lines []string) *ProtocolError {
		for _, l := range lines {
			o, err := ParseOption(l)
			if err != nil {
				return &ProtocolError{Msg: "not an option line", Line: l}
			}
			opts = append(opts, o)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return opts, nil
}

// GetOption reads one option.
func (e *Engine) GetOption(ctx context.Context, name string) (Option, error) {
	return e.option(ctx, "options get "+name, name)
}

// SetOption sets one option and returns it as the engine then reports it.
func (e *Engine) SetOption(ctx context.Context, name, value string) (Option, error) {
	return e.option(ctx, "options set "+name+" "+value, name)
}

func (e *Engine) option(ctx context.Context, command, name string) (Option, error) {
	var opt Option
	_, err := e.roundTrip(ctx, command, func(lines []string) *ProtocolError {
		for _, l := range lines {
			if o, err := ParseOption(l); err == nil && strings.EqualFold(o.Name, name) {
				opt = o
				return nil
			}
		}
		// MzingaCpp answers a bare "ok" for an option it does not have.
		return &ProtocolError{Msg: fmt.Sprintf("no line for option %q in the reply", name), Line: lastLine(lines)}
	})
	if err != nil {
		return Option{}, err
	}
	return opt, nil
}

// replyError turns an err or invalidmove reply into its error. The lines after the first
// such line, up to "ok", belong to its message: Mzinga on mono splits one message over
// several lines.
func replyError(engine, command string, lines []string) error {
	for i, l := range lines {
		kind, first, ok := errorLine(l)
		if !ok {
			continue
		}
		parts := []string{first}
		for _, more := range lines[i+1:] {
			if _, text, ok := errorLine(more); ok {
				more = text
			}
			parts = append(parts, strings.TrimSpace(more))
		}
		message := strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), " ")
		if kind == "err" {
			return &EngineError{Engine: engine, Command: command, Message: message}
		}
		return &InvalidMoveError{Engine: engine, Command: command, Move: moveOf(command), Message: message}
	}
	return nil
}

func errorLine(l string) (kind, message string, ok bool) {
	for _, kind := range []string{"err", "invalidmove"} {
		if rest, found := strings.CutPrefix(l, kind); found && (rest == "" || rest[0] == ' ') {
			return kind, strings.TrimSpace(rest), true
		}
	}
	return "", "", false
}

// moveOf names the move a command tried, for an InvalidMoveError.
func moveOf(command string) string {
	if move, ok := strings.CutPrefix(command, "play "); ok {
		return strings.TrimSpace(move)
	}
	return command
}

func lastLine(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

// looksLikeGameString checks the shape, not the content, of a GameString: the referee
// judges the content, and engines differ in what they echo.
func looksLikeGameString(s string) bool {
	// Three fields at least, cut one by one: the moves after them may be many.
	typ, rest, _ := strings.Cut(s, ";")
	state, rest, ok := strings.Cut(rest, ";")
	turn, _, _ := strings.Cut(rest, ";")
	if !ok || !strings.HasPrefix(typ, "Base") {
		return false
	}
	switch state {
	case "NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins":
	default:
		return false
	}
	return (strings.HasPrefix(turn, "White[") || strings.HasPrefix(turn, "Black[")) && strings.HasSuffix(turn, "]")
}

// looksLikeMove checks the shape of a MoveString as engines write it: "pass", or a piece
// such as wS1 or bQ, then whatever the engine's notation adds. Case is the referee's to
// judge: it reads ws1 as Mzinga does, and the record warns of it.
func looksLikeMove(s string) bool {
	if strings.EqualFold(s, "pass") {
		return true
	}
	if len(s) < 2 {
		return false
	}
	switch s[0] {
	case 'w', 'b':
		return strings.IndexByte("QSBGAMLPqsbgamlp", s[1]) >= 0
	case 'W', 'B': // all in upper case; "Base" of a GameString is no move
		return strings.IndexByte("QSBGAMLP", s[1]) >= 0
	}
	return false
}
