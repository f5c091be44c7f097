package uhpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"hivearbiter/internal/lines"
	"hivearbiter/internal/proc"
)

// Config says how to start an engine.
type Config struct {
	Command []string // program and arguments, never run through a shell
	Dir     string   // working directory; empty means the arbiter's
	Env     []string // KEY=VALUE entries added to the arbiter's environment
	Name    string   // names the engine in errors and transcripts; default the program's base name
	// StartTimeout bounds reading the startup info block (default 10 s), as does Start's
	// context.
	StartTimeout time.Duration
	// GraceTimeout is how long an interrupted search has to answer, an engine has to exit
	// after "exit", and a process outside the engine's group has to let go of its output,
	// before the next step is taken by force. Default 1 s.
	GraceTimeout time.Duration
	// Transcript, if set, receives every line sent (">"), received ("<") and written to
	// stderr ("!"), and the notes of the client and its caller ("*": a SIGINT, the start of a
	// game), each with the time, as in "15:04:05.000 > play wS1".
	Transcript io.Writer
	// MaxLineBytes bounds one line of output (default DefaultMaxLineBytes, which holds the
	// GameString of a game of 100,000 plies); a longer line is a ProtocolError. A reply is
	// bounded to 64 such lines, or 4 MiB if less.
	MaxLineBytes int
	// AcceptBannerOnInfo takes the banner of an engine that prints none at start-up but
	// prints one when asked "info" (BannerOnInfo reports it), where Start otherwise fails
	// with a ProtocolError of the fault BannerOnInfo. AskInfo asks "info" at once, for an
	// engine already known to print its banner only then. A compliance check sets them, to
	// go on past the fault; a match does not.
	AcceptBannerOnInfo, AskInfo bool
}

// Engine is a running UHP engine. It takes one command at a time: a second caller waits for
// the first, as long as its context allows. After a TimeoutError, ExitError or ProtocolError
// the engine is dead, and every later command returns that error at once. Its process and
// goroutines live until Close or Kill, which every Engine needs.
type Engine struct {
	cfg  Config
	info Info

	// child is the engine's process, which owns its pipes and the goroutines that read them.
	child *proc.Child
	// conn is the conversation over its pipes: stdout is read in the goroutine of the
	// command waiting for it.
	conn    *lines.Conn
	line    []byte   // the command being written, with its newline; reused
	replies []string // the lines of the last reply, for the next one (readReply)

	// turn admits one command at a time; unlike a mutex, waiting for it honours a context.
	turn   chan struct{}
	broken error // why the engine is unusable, once it is; guarded by turn
	// started is the command StartPlay sent, held with the turn until WaitPlay reads its
	// reply.
	started started

	transcript *lines.Transcript // nil without Config.Transcript

	// searching is set while a bestmove that was sent waits for its answer, for Interrupt.
	// searchMu makes its end and a SIGINT exclusive, so that none is sent for a search whose
	// "ok" was read.
	searching atomic.Bool
	searchMu  sync.Mutex
	// searchSent is when that bestmove was sent (Unix nanoseconds), and interruptedAt how long
	// after it Interrupt sent SIGINT (0: not yet), so that an engine that dies of the signal
	// is told when it got it.
	searchSent    atomic.Int64
	interruptedAt atomic.Int64
	// replied is set once the engine has ended a reply to a command after its banner: what a
	// silence later cannot be blamed on (output never flushed). Guarded by turn.
	replied bool

	// bannerOnInfo is set when the banner came only in answer to "info".
	bannerOnInfo bool
	// before are the lines printed before the answer of the last command that answers a move
	// or a GameString, for LinesBeforeReply.
	before []string
}

// Start runs the engine and reads its startup info block (its id and capabilities, up to
// "ok") within Config.StartTimeout and ctx. On error nothing of the engine is left running.
func Start(ctx context.Context, cfg Config) (*Engine, error) {
	if len(cfg.Command) == 0 || cfg.Command[0] == "" {
		return nil, errors.New("uhpclient: no engine command")
	}
	if cfg.Name == "" {
		cfg.Name = filepath.Base(cfg.Command[0])
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 10 * time.Second
	}
	if cfg.GraceTimeout <= 0 {
		cfg.GraceTimeout = time.Second
	}
	if cfg.MaxLineBytes <= 0 {
		cfg.MaxLineBytes = DefaultMaxLineBytes
	}
	if err := CheckProgram(cfg.Command[0], cfg.Dir); err != nil {
		err.(*ProgramError).Engine = cfg.Name
		return nil, err
	}
	began := time.Now()

	e := &Engine{cfg: cfg, turn: make(chan struct{}, 1), transcript: lines.NewTranscript(cfg.Transcript)}
	supervised := make(chan struct{}) // e.child and e.conn are set
	child, err := proc.Supervise(proc.Config{
		Spec:  proc.Spec{Command: cfg.Command, Dir: cfg.Dir, Env: cfg.Env},
		Grace: cfg.GraceTimeout,
		// The commands read stdout themselves; this goroutine only hands it over and reads
		// what the engine leaves when it exits between commands.
		Stdout: func(r io.Reader, killed <-chan struct{}) {
			<-supervised
			e.conn.Serve(r, killed, e.child.Exited())
		},
		Stderr: func(line string) { e.log("!", line) },
	})
	if err != nil {
		if _, ok := errors.AsType[*proc.StartError](err); !ok {
			return nil, fmt.Errorf("uhpclient: %s: %w", cfg.Name, err)
		}
		// CheckProgram found nothing wrong, but the system refuses the program (a binary
		// for another system, say): say which program, and the system's reason.
		reason := errors.Unwrap(err)
		if pe, ok := errors.AsType[*os.PathError](err); ok {
			reason = pe.Err
		}
		return nil, &ProgramError{Engine: cfg.Name, Program: cfg.Command[0],
			Problem: fmt.Sprintf("the program %q cannot be run: %v", cfg.Command[0], reason), Err: reason}
	}
	e.child = child
	e.conn = lines.NewConn(child.Stdin(), cfg.MaxLineBytes, func(line string) { e.log("<", line) })
	close(supervised)

	startCtx, cancel := context.WithTimeout(ctx, cfg.StartTimeout)
	defer cancel()
	const command = startCommand
	e.conn.Begin(startCtx)
	if cfg.AskInfo {
		err = e.write("info")
	}
	var banner []string
	if err == nil {
		banner, err = e.readReply(startCtx, command, began)
		banner = slices.Clone(banner) // kept in Info
	}
	e.conn.End()
	e.bannerOnInfo = cfg.AskInfo
	if te, ok := errors.AsType[*TimeoutError](err); ok && len(banner) == 0 && te.Partial == "" && !errors.Is(ctx.Err(), context.Canceled) && !cfg.AskInfo {
		// Nothing at all: an engine that answers commands but prints its banner only when
		// asked is told so, rather than that it printed nothing.
		if asked, ok := e.probeInfo(ctx); ok {
			banner, err = asked, nil
			e.bannerOnInfo = true
			if !cfg.AcceptBannerOnInfo {
				err = &ProtocolError{Engine: cfg.Name, Command: command, Fault: BannerOnInfo,
					Msg: fmt.Sprintf(`it printed no banner within %s of its start, but printed one when asked "info" (%s): %s`, seconds(te.After), quoteLines(asked), bannerRule)}
			}
		}
	}
	if err == nil {
		err = replyError(cfg.Name, command, banner)
	}
	if err == nil {
		var ok bool
		if e.info, ok = parseInfo(banner); !ok {
			err = &ProtocolError{Engine: cfg.Name, Command: command,
				Msg: fmt.Sprintf(`it printed %s, then "ok", with no "id" line: %s`, quoteLines(banner), bannerRule)}
			if len(banner) == 0 {
				err = &ProtocolError{Engine: cfg.Name, Command: command, Msg: `it printed "ok" alone: ` + bannerRule}
			}
		}
	}
	if err != nil {
		e.Kill()
		return nil, err
	}
	return e, nil
}

// startCommand names the start-up in errors: the banner is the reply to it.
const startCommand = "start"

// probeInfo asks an engine that printed nothing at start-up for its banner with "info",
// within the grace period (an engine that answers commands answers it at once), and returns
// the banner if it printed one.
func (e *Engine) probeInfo(ctx context.Context) ([]string, bool) {
	probe, cancel := context.WithTimeout(context.WithoutCancel(ctx), e.cfg.GraceTimeout)
	defer cancel()
	e.conn.Begin(probe)
	defer e.conn.End()
	if e.write("info") != nil {
		return nil, false
	}
	printed, err := e.readReply(probe, startCommand, time.Now())
	if err != nil || !hasIDLine(printed) {
		return nil, false
	}
	return slices.Clone(printed), true
}

// BannerOnInfo reports whether the engine printed its banner only when asked "info"
// (Config.AcceptBannerOnInfo).
func (e *Engine) BannerOnInfo() bool { return e.bannerOnInfo }

// LinesBeforeReply returns the lines the engine printed before its answer to the last
// bestmove, or the last command answered by a GameString (the answer is the last line before
// "ok"), and forgets them: debug output that the arbiter reads past, and other hosts break on.
func (e *Engine) LinesBeforeReply() []string {
	before := e.before
	e.before = nil
	return before
}

// noteBefore keeps the lines of a reply before its answer, for LinesBeforeReply, or none. It
// runs while the command holds the turn: the fields of a reply are the turn's.
func (e *Engine) noteBefore(reply []string) {
	e.before = nil
	if len(reply) > 1 {
		e.before = slices.Clone(reply[:len(reply)-1])
	}
}

// Note writes a line of the caller's into the transcript, marked "*": where a game begins, why
// a search was interrupted. Without a transcript it does nothing.
func (e *Engine) Note(text string) { e.transcript.Note(text) }

func (e *Engine) log(direction, line string) { e.transcript.Line(direction, line) }

// Info returns what the engine said about itself at start.
func (e *Engine) Info() Info { return e.info }

// Stderr returns the last lines the engine wrote to its standard error, oldest first.
func (e *Engine) Stderr() []string { return e.child.Stderr() }

// Send sends a command as it is and returns the reply's lines without the final "ok". An
// err or invalidmove reply also returns an EngineError or InvalidMoveError. A bestmove sent
// this way is interrupted on the context's end like BestMove.
func (e *Engine) Send(ctx context.Context, command string) ([]string, error) {
	lines, err := e.roundTrip(ctx, command, nil)
	return slices.Clone(lines), err
}

// roundTrip sends one command and reads its reply. check, if not nil, judges whether the
// reply answers the command; a reply that does not is a ProtocolError, as fatal as any.
func (e *Engine) roundTrip(ctx context.Context, command string, check func([]string) *ProtocolError) ([]string, error) {
	return e.search(ctx, command, nil, check)
}

// searchStop stops a search with SIGINT a time after its command was sent.
type searchStop struct {
	after time.Duration
	why   string // for the transcript
}

// search is roundTrip for a command that may be a bestmove, stopped as stop says if not nil.
func (e *Engine) search(ctx context.Context, command string, stop *searchStop, check func([]string) *ProtocolError) ([]string, error) {
	sent, err := e.send(ctx, command)
	if err != nil {
		return nil, err
	}
	defer e.endExchange()
	if verb, _, _ := strings.Cut(command, " "); verb == "bestmove" {
		e.searchSent.Store(sent.UnixNano())
		e.interruptedAt.Store(0)
		e.searching.Store(true) // from now on Interrupt reaches this search
		defer e.endSearch()
		if stop != nil {
			// Counted from the command, not from the call: the call may have waited its turn.
			timer := time.AfterFunc(stop.after-time.Since(sent), func() { e.stopSearch(stop.why) })
			defer timer.Stop()
		}
	}
	return e.receive(ctx, command, sent, check)
}

// send takes the turn, begins an exchange bounded by ctx and writes command. When it
// returns no error the caller holds the turn and the exchange, and ends them with
// endExchange once the reply is read; when it fails it holds neither.
func (e *Engine) send(ctx context.Context, command string) (sent time.Time, err error) {
	if strings.ContainsAny(command, "\r\n") {
		return sent, fmt.Errorf("uhpclient: %s: a command cannot span lines: %q", e.cfg.Name, command)
	}
	if !e.takeTurn(ctx) {
		// Another caller's command is running; this one was never sent.
		return sent, e.timeout(command, 0, ctx.Err(), nil)
	}
	sent = time.Now()
	switch {
	case e.broken != nil:
		err = e.broken
	case ctx.Err() != nil:
		err = e.fail(e.timeout(command, 0, ctx.Err(), nil))
	default:
		e.conn.Begin(ctx)
		if err = e.write(command); err == nil {
			return sent, nil
		}
		if errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil {
			err = e.fail(e.timeout(command, time.Since(sent), ctx.Err(), nil))
		} else {
			err = e.fail(e.exitError(command))
		}
		e.conn.End()
	}
	e.endTurn()
	return sent, err
}

// endExchange ends the exchange and gives up the turn that send took.
func (e *Engine) endExchange() {
	e.conn.End()
	e.endTurn()
}

// receive reads the reply to a command that send wrote, and judges it: an err or
// invalidmove reply is its error, and check, if not nil, says whether the reply answers the
// command; a reply that does not is a ProtocolError, as fatal as any.
func (e *Engine) receive(ctx context.Context, command string, sent time.Time, check func([]string) *ProtocolError) ([]string, error) {
	lines, err := e.readReply(ctx, command, sent)
	if err != nil {
		return lines, err
	}
	if err := replyError(e.cfg.Name, command, lines); err != nil {
		return lines, err
	}
	if check != nil {
		if pe := check(lines); pe != nil {
			pe.Engine, pe.Command = e.cfg.Name, command
			return lines, e.fail(pe)
		}
	}
	return lines, nil
}

// takeTurn takes the turn to send a command, waiting for a running one as long as ctx
// allows, and reports whether it got it. Only the wait is bounded by ctx: a free turn is
// taken even when ctx has already ended, and the caller decides what that means.
func (e *Engine) takeTurn(ctx context.Context) bool {
	select {
	case e.turn <- struct{}{}:
		return true
	default:
	}
	select {
	case e.turn <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// endTurn gives up the turn that takeTurn took.
func (e *Engine) endTurn() { <-e.turn }

// write sends one line. A write blocks once an engine stops reading and the pipe fills, so
// the exchange's context cuts it short as it does every other wait.
func (e *Engine) write(command string) error {
	e.log(">", command)
	e.line = append(append(e.line[:0], command...), '\n')
	_, err := e.conn.Write(e.line)
	return err
}

// readReply reads lines up to "ok". When ctx ends first, a bestmove is interrupted and
// given the grace period to answer; either way the engine is then killed. The lines of a
// reply read to its "ok" are in a slice that the next reply reuses: a caller that keeps
// them past its exchange copies them (Send does). Every command but the first reads a
// reply of a line or two, and a slice of its own each time was an allocation per command.
func (e *Engine) readReply(ctx context.Context, command string, sent time.Time) ([]string, error) {
	rep := reply{max: replyBound(e.cfg.MaxLineBytes), lines: e.replies[:0]}
	for {
		r, err := e.conn.ReadLine()
		switch {
		case err == io.EOF:
			ee := e.exitError(command)
			ee.Lines = slices.Clone(rep.lines)
			if e.searching.Load() {
				ee.Interrupted = time.Duration(e.interruptedAt.Load())
			}
			return ee.Lines, e.fail(ee)
		case err != nil:
			partial := e.conn.Partial()
			if errors.Is(ctx.Err(), context.DeadlineExceeded) && partial == "" && whole(command, rep.lines) {
				// It answered, then kept the arbiter waiting: no "ok" is coming.
				pe := &ProtocolError{Engine: e.cfg.Name, Command: command, Fault: MissingOK,
					Msg: fmt.Sprintf(`it printed its reply, %s, but no "ok" after it within %s`, quoteLines(rep.lines), seconds(time.Since(sent)))}
				if command == startCommand {
					return slices.Clone(rep.lines), pe
				}
				return slices.Clone(rep.lines), e.fail(pe)
			}
			te := e.timeout(command, time.Since(sent), ctx.Err(), slices.Clone(rep.lines))
			te.Partial = partial
			if verb, _, _ := strings.Cut(command, " "); verb == "bestmove" {
				te.Interrupt = e.interrupt(ctx, command, sent)
			}
			if command == startCommand {
				// Start kills the engine itself, once it has asked what it can.
				return te.Lines, te
			}
			return te.Lines, e.fail(te)
		case r.Err != nil:
			return slices.Clone(rep.lines), e.fail(&ProtocolError{Engine: e.cfg.Name, Command: command,
				Msg: fmt.Sprintf("a line longer than %d bytes", e.cfg.MaxLineBytes), Line: r.Text})
		}
		done, err := rep.add(r.Text)
		if err != nil {
			return slices.Clone(rep.lines), e.fail(&ProtocolError{Engine: e.cfg.Name, Command: command,
				Msg: fmt.Sprintf("more than %d bytes of reply without ok", rep.max), Line: r.Text})
		}
		if done {
			e.endSearch()
			if command != startCommand {
				e.replied = true
			}
			if cap(rep.lines) <= reusedReplyLines {
				e.replies = rep.lines
			}
			return rep.lines, nil
		}
	}
}

// reusedReplyLines bounds the slice of lines kept for the next reply: a long reply's (a
// perft table, a flood of info lines) is left to the garbage collector.
const reusedReplyLines = 16

// interrupt asks a search whose time is up to stop with SIGINT, as Mzinga's own viewer does,
// and waits the grace period for its "ok", so that the engine's last word reaches the
// transcript and the error can say what became of it.
func (e *Engine) interrupt(ctx context.Context, command string, sent time.Time) *InterruptOutcome {
	out := &InterruptOutcome{At: time.Since(sent)}
	e.Note(fmt.Sprintf("SIGINT after %s: no answer in the time allowed", seconds(out.At)))
	if err := e.child.Interrupt(); err != nil {
		out.Exited = e.exitError(command)
		return out
	}
	// ctx has ended: the grace period is a wait of its own.
	grace, cancel := context.WithTimeout(context.WithoutCancel(ctx), e.cfg.GraceTimeout)
	defer cancel()
	e.conn.Begin(grace)
	defer e.conn.End()
	for {
		r, err := e.conn.ReadLine()
		switch {
		case err == io.EOF:
			out.Exited = e.exitError(command)
			return out
		case err != nil, r.Err != nil:
			return out
		case r.Text == "ok":
			out.Answer = true
			return out
		}
		out.Lines = append(out.Lines, r.Text)
	}
}

// Interrupt asks a running bestmove to stop now, as a viewer's Ctrl-C does: the engine gets
// SIGINT, and BestMove returns the move it then answers (its best so far), leaving the engine
// usable. Between searches Interrupt does nothing. It is safe to call from any goroutine,
// while BestMove runs. An engine that ignores SIGINT answers when its search ends, or is
// stopped by BestMove's context as usual.
func (e *Engine) Interrupt() error { return e.stopSearch("the caller stops the search") }

// endSearch marks the end of a search, once its reply was read or given up on.
func (e *Engine) endSearch() {
	e.searchMu.Lock()
	e.searching.Store(false)
	e.searchMu.Unlock()
}

// stopSearch is Interrupt, with the reason written to the transcript.
func (e *Engine) stopSearch(why string) error {
	e.searchMu.Lock()
	defer e.searchMu.Unlock()
	if !e.searching.Load() {
		return nil
	}
	at := time.Since(time.Unix(0, e.searchSent.Load()))
	e.interruptedAt.CompareAndSwap(0, int64(at))
	e.Note(fmt.Sprintf("SIGINT after %s: %s", seconds(at), why))
	if err := e.child.Interrupt(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("uhpclient: %s: interrupting the search: %w", e.cfg.Name, err)
	}
	return nil
}

// fail marks the engine unusable for err's reason and kills it.
func (e *Engine) fail(err error) error {
	e.broken = err
	e.Kill()
	return err
}

// exitError describes an engine whose output has ended. The process is exiting, or lives on
// with its stdout closed, which earns it a kill after the grace period.
func (e *Engine) exitError(command string) *ExitError {
	ee := e.child.ExitError()
	ee.Source, ee.Engine, ee.Command = "uhpclient", e.cfg.Name, command
	return ee
}

// timeout is a TimeoutError of this engine's: the reply it gave up on ends with "ok", and at
// start-up, a reply without an "id" line is no info banner.
func (e *Engine) timeout(command string, after time.Duration, cause error, printed []string) *TimeoutError {
	te := timeoutError(e.cfg.Name, command, after, cause, printed)
	te.Replied = e.replied
	return te
}

// Kill kills the engine and its process group at once, and returns once the process is
// reaped and every goroutine reading from it has ended. It is safe to call more than once
// and from any goroutine; a running command then returns an ExitError.
func (e *Engine) Kill() error {
	if err := e.child.Kill(); err != nil {
		return fmt.Errorf("uhpclient: %s: kill: %w", e.cfg.Name, err)
	}
	return nil
}

// Close asks the engine to "exit", gives it the grace period, then kills what is left of
// its process group, and returns once every goroutine reading from it has ended. It returns
// an error when the engine had to be killed because it did not exit. A command running in
// another goroutine is waited for, as long as ctx allows, and then killed. Close is safe to
// call more than once; commands after it return an error wrapping ErrClosed.
func (e *Engine) Close(ctx context.Context) error {
	if !e.takeTurn(ctx) {
		// A running command ends once the engine is dead, and gives up its turn.
		e.Kill()
		e.turn <- struct{}{}
	}
	defer e.endTurn()
	var err error
	if e.broken == nil {
		e.broken = fmt.Errorf("uhpclient: %s: %w", e.cfg.Name, ErrClosed)
		err = e.exit(ctx)
	}
	if kerr := e.Kill(); err == nil {
		err = kerr
	}
	return err
}

// exit sends "exit" and waits for the process to end, then kills what is left of its group.
// It closes stdin as well, for engines that stop at its end; others spin there (Mzinga,
// MzingaCpp), so the kill that follows is not optional.
func (e *Engine) exit(ctx context.Context) error {
	err := e.child.Stop(ctx, func() {
		e.log(">", "exit")
		e.child.Stdin().SetWriteDeadline(time.Now().Add(e.cfg.GraceTimeout))
		io.WriteString(e.child.Stdin(), "exit\n")
		e.child.Stdin().Close()
	})
	if se, ok := errors.AsType[*proc.StopError](err); ok {
		return fmt.Errorf("uhpclient: %s: exit: %w", e.cfg.Name, se)
	}
	if err != nil {
		return fmt.Errorf("uhpclient: %s: kill: %w", e.cfg.Name, err)
	}
	return nil
}
