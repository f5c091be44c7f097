package uhpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Config says how to start an engine.
type Config struct {
	Command      []string // program and arguments, never run through a shell
	Dir          string   // working directory
	Env          []string // KEY=VALUE, added to the arbiter's environment
	Name         string   // for errors and transcripts; defaults to the program
	StartTimeout time.Duration
	// GraceTimeout is how long an interrupted search may take to answer, and how long an engine
	// may take to exit after "exit", before it is killed. Default 1 s.
	GraceTimeout time.Duration
	// Transcript, if set, receives every line in ("> ") and out ("< ", stderr "! "), with times.
	Transcript   io.Writer
	MaxLineBytes int // default DefaultMaxLineBytes
}

// Engine is a running UHP engine. Its methods are safe for one caller at a time; a command
// that times out or finds the engine dead leaves it broken, and later calls fail fast.
type Engine struct {
	cfg   Config
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan lineResult
	info  Info

	mu     sync.Mutex // one command at a time
	broken error

	transcriptMu sync.Mutex
	stderr       ring

	exited   chan struct{} // closed once the process has been waited for
	waitErr  error
	killOnce sync.Once
	wg       sync.WaitGroup // the reader goroutines
}

type lineResult struct {
	line string
	err  error
}

// Start runs the engine and reads its startup info block.
func Start(ctx context.Context, cfg Config) (*Engine, error) {
	if len(cfg.Command) == 0 || cfg.Command[0] == "" {
		return nil, errors.New("uhpclient: no engine command")
	}
	if cfg.Name == "" {
		cfg.Name = cfg.Command[0]
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 10 * time.Second
	}
	if cfg.GraceTimeout <= 0 {
		cfg.GraceTimeout = time.Second
	}
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Dir = cfg.Dir
	cmd.Env = append(os.Environ(), cfg.Env...)
	cmd.SysProcAttr = sysProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("uhpclient: %s: %w", cfg.Name, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("uhpclient: %s: %w", cfg.Name, err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("uhpclient: %s: %w", cfg.Name, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("uhpclient: %s: starting %q: %w", cfg.Name, cfg.Command[0], err)
	}
	e := &Engine{cfg: cfg, cmd: cmd, stdin: stdin, lines: make(chan lineResult, 256), exited: make(chan struct{})}
	e.wg.Add(2)
	go e.readStdout(stdout)
	go e.readStderr(stderr)
	go func() {
		e.wg.Wait() // Wait must not run before the pipes are drained
		e.waitErr = cmd.Wait()
		close(e.exited)
	}()

	startCtx, cancel := context.WithTimeout(ctx, cfg.StartTimeout)
	defer cancel()
	lines, err := e.readReply(startCtx, "info (startup banner)", false)
	if err != nil {
		e.Kill()
		return nil, err
	}
	info, ok := parseInfo(lines)
	if !ok {
		e.Kill()
		return nil, &ProtocolError{Engine: cfg.Name, Command: "info (startup banner)", Msg: "the banner has no \"id\" line", Line: strings.Join(lines, " | ")}
	}
	e.info = info
	return e, nil
}

func (e *Engine) readStdout(r io.Reader) {
	defer e.wg.Done()
	defer close(e.lines)
	rd := NewReader(r, e.cfg.MaxLineBytes)
	for {
		line, err := rd.ReadLine()
		if err != nil {
			if errors.Is(err, errLineTooLong) {
				e.lines <- lineResult{err: err}
				// Keep draining so that the engine never blocks on a full pipe.
				io.Copy(io.Discard, r)
			}
			return
		}
		e.log("< ", line)
		e.lines <- lineResult{line: line}
	}
}

func (e *Engine) readStderr(r io.Reader) {
	defer e.wg.Done()
	rd := NewReader(r, e.cfg.MaxLineBytes)
	for {
		line, err := rd.ReadLine()
		if errors.Is(err, errLineTooLong) {
			e.stderr.add("(over-long stderr line dropped)")
			io.Copy(io.Discard, r)
			return
		}
		if err != nil {
			return
		}
		e.log("! ", line)
		e.stderr.add(line)
	}
}

func (e *Engine) log(prefix, line string) {
	if e.cfg.Transcript == nil {
		return
	}
	e.transcriptMu.Lock()
	defer e.transcriptMu.Unlock()
	fmt.Fprintf(e.cfg.Transcript, "%s %s%s\n", time.Now().Format("15:04:05.000"), prefix, line)
}

// Info returns what the engine said about itself at start.
func (e *Engine) Info() Info { return e.info }

// Stderr returns the last lines the engine wrote to its standard error.
func (e *Engine) Stderr() []string { return e.stderr.lines() }

// Send sends one raw command and returns the reply lines without the final "ok". An err or
// invalidmove reply is returned as an error along with the lines.
func (e *Engine) Send(ctx context.Context, command string) ([]string, error) {
	return e.do(ctx, command, false)
}

func (e *Engine) do(ctx context.Context, command string, interruptible bool) ([]string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.broken != nil {
		return nil, e.broken
	}
	if strings.ContainsAny(command, "\r\n") {
		return nil, fmt.Errorf("uhpclient: %s: a command cannot span lines: %q", e.cfg.Name, command)
	}
	e.log("> ", command)
	if _, err := io.WriteString(e.stdin, command+"\n"); err != nil {
		e.broken = e.exitError(command)
		return nil, e.broken
	}
	lines, err := e.readReply(ctx, command, interruptible)
	if err != nil {
		return lines, err
	}
	return lines, replyError(e.cfg.Name, command, lines)
}

// readReply reads lines up to "ok". On a deadline it interrupts (when asked) or kills the
// engine; either way the engine is broken afterwards.
func (e *Engine) readReply(ctx context.Context, command string, interruptible bool) ([]string, error) {
	start := time.Now()
	var lines []string
	for {
		select {
		case r, ok := <-e.lines:
			switch {
			case !ok:
				e.broken = e.exitError(command)
				return lines, e.broken
			case r.err != nil:
				e.broken = &ProtocolError{Engine: e.cfg.Name, Command: command, Msg: fmt.Sprintf("a line longer than %d bytes", e.maxLine())}
				e.Kill()
				return lines, e.broken
			case strings.TrimSpace(r.line) == "ok":
				return lines, nil
			}
			lines = append(lines, r.line)
		case <-ctx.Done():
			if interruptible {
				lines = e.interrupt(lines)
			}
			e.broken = &TimeoutError{Engine: e.cfg.Name, Command: command, After: time.Since(start), Cause: ctx.Err()}
			e.Kill()
			return lines, e.broken
		}
	}
}

// interrupt asks a search to stop with SIGINT and waits a grace period for its "ok", so that the
// engine's last word reaches the transcript.
func (e *Engine) interrupt(lines []string) []string {
	if p := e.cmd.Process; p != nil {
		p.Signal(os.Interrupt)
	}
	grace := time.NewTimer(e.cfg.GraceTimeout)
	defer grace.Stop()
	for {
		select {
		case r, ok := <-e.lines:
			if !ok || r.err != nil || strings.TrimSpace(r.line) == "ok" {
				return lines
			}
			lines = append(lines, r.line)
		case <-grace.C:
			return lines
		}
	}
}

func (e *Engine) maxLine() int {
	if e.cfg.MaxLineBytes > 0 {
		return e.cfg.MaxLineBytes
	}
	return DefaultMaxLineBytes
}

// exitError describes an engine whose output ended: it waits briefly for the exit status.
func (e *Engine) exitError(command string) error {
	select {
	case <-e.exited:
	case <-time.After(e.cfg.GraceTimeout):
		e.Kill()
		<-e.exited
	}
	ee := &ExitError{Engine: e.cfg.Name, Command: command, ExitCode: -1, Stderr: e.stderr.lines()}
	if state := e.cmd.ProcessState; state != nil {
		ee.ExitCode = state.ExitCode()
		if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			ee.Signal = ws.Signal().String()
		}
	}
	return ee
}

// Kill ends the engine and its process group at once. It is safe to call more than once.
func (e *Engine) Kill() error {
	e.killOnce.Do(func() {
		killGroup(e.cmd.Process)
		e.stdin.Close()
	})
	return nil
}

// Close asks the engine to exit, waits a grace period, then kills it and its process group,
// and waits until every goroutine reading from it has ended.
func (e *Engine) Close(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.broken == nil {
		e.log("> ", "exit")
		io.WriteString(e.stdin, "exit\n")
		e.stdin.Close()
		e.broken = fmt.Errorf("uhpclient: %s: the engine was closed", e.cfg.Name)
		grace := time.NewTimer(e.cfg.GraceTimeout)
		defer grace.Stop()
		select {
		case <-e.exited:
		case <-grace.C:
		case <-ctx.Done():
		}
	}
	e.Kill()
	// An engine that forked a child holding its pipes is covered by the group kill; drain what
	// is left so the reader goroutines end.
	go func() {
		for range e.lines {
		}
	}()
	select {
	case <-e.exited:
	case <-time.After(5 * e.cfg.GraceTimeout):
		// A process outside the group still holds the pipes; the engine itself is dead.
	}
	return nil
}

// NewGame starts a game: arg is empty, a GameTypeString or a GameString. It returns the
// engine's GameString.
func (e *Engine) NewGame(ctx context.Context, arg string) (string, error) {
	return e.gameString(ctx, strings.TrimSpace("newgame "+arg))
}

// Play plays a move and returns the engine's GameString.
func (e *Engine) Play(ctx context.Context, move string) (string, error) {
	return e.gameString(ctx, "play "+move)
}

// Pass passes and returns the engine's GameString.
func (e *Engine) Pass(ctx context.Context) (string, error) { return e.gameString(ctx, "pass") }

// Undo takes back n plies and returns the engine's GameString.
func (e *Engine) Undo(ctx context.Context, n int) (string, error) {
	return e.gameString(ctx, "undo "+strconv.Itoa(n))
}

func (e *Engine) gameString(ctx context.Context, command string) (string, error) {
	lines, err := e.do(ctx, command, false)
	if err != nil {
		return "", err
	}
	if len(lines) == 0 || !strings.Contains(lines[0], ";") {
		line := ""
		if len(lines) > 0 {
			line = lines[0]
		}
		return "", &ProtocolError{Engine: e.cfg.Name, Command: command, Msg: "the reply is not a GameString", Line: line}
	}
	return strings.TrimSpace(lines[0]), nil
}

// ValidMoves returns the engine's list of valid moves.
func (e *Engine) ValidMoves(ctx context.Context) ([]string, error) {
	lines, err := e.do(ctx, "validmoves", false)
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, &ProtocolError{Engine: e.cfg.Name, Command: "validmoves", Msg: "no move list"}
	}
	var moves []string
	for _, m := range strings.Split(lines[0], ";") {
		if m = strings.TrimSpace(m); m != "" {
			moves = append(moves, m)
		}
	}
	return moves, nil
}

// Limit bounds a search: a fixed depth, or a time (sent as UHP's hh:mm:ss, with fractions of a
// second only when FractionalSeconds is set).
type Limit struct {
	Time              time.Duration
	Depth             int
	FractionalSeconds bool
}

func (l Limit) command() string {
	if l.Depth > 0 {
		return fmt.Sprintf("bestmove depth %d", l.Depth)
	}
	return "bestmove time " + FormatTime(l.Time, l.FractionalSeconds)
}

// FormatTime writes a duration as hh:mm:ss, or hh:mm:ss.fff with fractional set.
func FormatTime(d time.Duration, fractional bool) string {
	if d < 0 {
		d = 0
	}
	h := int(d / time.Hour)
	m := int(d/time.Minute) % 60
	s := int(d/time.Second) % 60
	if fractional {
		ms := int(d/time.Millisecond) % 1000
		return fmt.Sprintf("%02d:%02d:%02d.%03d", h, m, s, ms)
	}
	return fmt.Sprintf("%02d:%02d:%02d", h, m, s)
}

// BestMove asks for a move. Intermediate lines are allowed: the last line before "ok" is the
// answer, and of a Mzinga-style "move;depth;score;pv" line the first field. When ctx ends first
// the search is interrupted with SIGINT, then the engine is killed after the grace period.
func (e *Engine) BestMove(ctx context.Context, l Limit) (string, error) {
	command := l.command()
	lines, err := e.do(ctx, command, true)
	if err != nil {
		return "", err
	}
	if len(lines) == 0 {
		return "", &ProtocolError{Engine: e.cfg.Name, Command: command, Msg: "no move in the reply"}
	}
	last := lines[len(lines)-1]
	move, _, _ := strings.Cut(last, ";")
	if move = strings.TrimSpace(move); move == "" {
		return "", &ProtocolError{Engine: e.cfg.Name, Command: command, Msg: "no move in the reply", Line: last}
	}
	return move, nil
}

// Options lists the engine's options.
func (e *Engine) Options(ctx context.Context) ([]Option, error) {
	lines, err := e.do(ctx, "options", false)
	if err != nil {
		return nil, err
	}
	var opts []Option
	for _, l := range lines {
		o, err := ParseOption(l)
		if err != nil {
			return opts, &ProtocolError{Engine: e.cfg.Name, Command: "options", Msg: err.Error(), Line: l}
		}
		opts = append(opts, o)
	}
	return opts, nil
}

// GetOption reads one option.
func (e *Engine) GetOption(ctx context.Context, name string) (Option, error) {
	return e.option(ctx, "options get "+name, Option{Name: name})
}

// SetOption sets one option and returns it as the engine reports it (engines that print
// nothing get the requested value back).
func (e *Engine) SetOption(ctx context.Context, name, value string) (Option, error) {
	return e.option(ctx, "options set "+name+" "+value, Option{Name: name, Value: value})
}

func (e *Engine) option(ctx context.Context, command string, fallback Option) (Option, error) {
	lines, err := e.do(ctx, command, false)
	if err != nil {
		return Option{}, err
	}
	if len(lines) == 0 {
		return fallback, nil
	}
	o, err := ParseOption(lines[0])
	if err != nil {
		return Option{}, &ProtocolError{Engine: e.cfg.Name, Command: command, Msg: err.Error(), Line: lines[0]}
	}
	return o, nil
}

// ring keeps the last lines of a stream.
type ring struct {
	mu  sync.Mutex
	buf []string
}

const stderrLines = 20

func (r *ring) add(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.buf) == stderrLines {
		copy(r.buf, r.buf[1:])
		r.buf = r.buf[:stderrLines-1]
	}
	r.buf = append(r.buf, truncate(line, 500))
}

func (r *ring) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.buf...)
}
