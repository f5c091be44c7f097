package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"hivearbiter/internal/lines"
)

// Config says which program to start and how to look after it.
type Config struct {
	Spec
	// Grace is how long the program's output may outlive it (a process that left its group
	// still holds a copy) before the pipes are closed under their readers, and how long Stop
	// gives it to exit once asked. Default 1 s.
	Grace time.Duration
	// Stdout, if set, reads the program's standard output in a goroutine the Child owns and
	// waits for. It must return once a read fails (the pipe is closed under it a grace period
	// after the program's exit at the latest) or once killed is closed, by Kill. Without it
	// the output goes into the tail, with standard error's.
	Stdout func(r io.Reader, killed <-chan struct{})
	// Stderr, if set, is given each line of standard error as it comes (cut to TailLineBytes),
	// for a transcript.
	Stderr func(line string)
}

// Child is a program under supervision: started in a process group of its own, its output
// read by goroutines that are all waited for, the last lines of its standard error kept, and
// killed with its whole group. Every Child needs Kill or Stop, which return once the program
// is reaped, its readers have ended and its pipes are closed.
type Child struct {
	grace    time.Duration
	proc     *Process
	tail     tail
	killed   chan struct{} // closed by Kill: the readers stop delivering
	exited   chan struct{} // closed once the program is reaped and Cmd.ProcessState is set
	done     chan struct{} // closed once, besides, every reader has ended and the pipes are closed
	killOnce sync.Once
	killErr  error
}

// Supervise starts the program (see Start, whose errors it returns) and its readers.
func Supervise(cfg Config) (*Child, error) {
	if cfg.Grace <= 0 {
		cfg.Grace = time.Second
	}
	p, err := Start(cfg.Spec)
	if err != nil {
		return nil, err
	}
	c := &Child{grace: cfg.Grace, proc: p, killed: make(chan struct{}),
		exited: make(chan struct{}), done: make(chan struct{})}
	var readers sync.WaitGroup
	readers.Go(func() { c.readTail(p.Stderr, cfg.Stderr) })
	if cfg.Stdout != nil {
		readers.Go(func() { cfg.Stdout(p.Stdout, c.killed) })
	} else {
		readers.Go(func() { c.readTail(p.Stdout, nil) })
	}
	go c.wait(&readers)
	return c, nil
}

// readTail keeps the last lines of r. It reads without pause, so that a program that floods
// its output never blocks on it, and keeps only the start of a long line.
func (c *Child) readTail(r io.Reader, each func(string)) {
	lr := lines.NewReader(r, TailLineBytes)
	for {
		line, err := lr.ReadLine()
		if err != nil && !errors.Is(err, lines.ErrTooLong) {
			return
		}
		if each != nil {
			each(line)
		}
		c.tail.add(line)
	}
}

// wait reaps the program, kills what it left in its group, and gives the readers the grace
// period to reach the end of the output before the pipes are closed under them.
//
// This is os/exec's WaitDelay, which cannot be used as it is: exec.Cmd waits for its copies
// of the output before Wait returns, and so before the group could be killed, and a child
// left in the group would hold the output open for the whole delay.
func (c *Child) wait(readers *sync.WaitGroup) {
	c.proc.Cmd.Wait() // the outcome is in Cmd.ProcessState
	c.proc.KillGroup()
	c.proc.Release()
	close(c.exited)
	ended := make(chan struct{})
	go func() {
		readers.Wait()
		close(ended)
	}()
	grace := time.NewTimer(c.grace)
	defer grace.Stop()
	select {
	case <-ended:
	case <-grace.C:
		// A process outside the group still holds the output: stop reading it.
		c.proc.Stdout.Close()
		c.proc.Stderr.Close()
		<-ended
	}
	c.proc.Stdin.Close()
	c.proc.Stdout.Close()
	c.proc.Stderr.Close()
	close(c.done)
}

// Stdin is the write end of the program's standard input. It is closed once the program is
// gone; closing it sooner is the caller's to decide.
func (c *Child) Stdin() *os.File { return c.proc.Stdin }

// Pid is the program's process id, which on Unix is also its process group's.
func (c *Child) Pid() int { return c.proc.Cmd.Process.Pid }

// Stderr returns the last lines of the program's standard error (and of its standard output,
// when Config.Stdout is nil), oldest first.
func (c *Child) Stderr() []string { return c.tail.lines() }

// Exited is closed once the program has been reaped. Its output may still be read.
func (c *Child) Exited() <-chan struct{} { return c.exited }

// Done is closed once the program has been reaped, every reader has ended and the pipes are
// closed.
func (c *Child) Done() <-chan struct{} { return c.done }

// Interrupt asks the program to stop what it is doing: SIGINT on Unix, a Ctrl-C event on
// Windows (see Process.Interrupt).
func (c *Child) Interrupt() error { return c.proc.Interrupt() }

// Terminate asks the program's whole group to end (see Process.TerminateGroup).
func (c *Child) Terminate() error { return c.proc.TerminateGroup() }

// Kill kills the program's whole process group at once, and returns once the program is
// reaped and every reader has ended. It is safe to call more than once and from any
// goroutine; every call returns the first one's error.
func (c *Child) Kill() error {
	c.killOnce.Do(func() {
		close(c.killed)
		c.killErr = c.proc.KillGroup()
	})
	<-c.done
	return c.killErr
}

// StopError is a program that did not exit when asked to, and was killed.
type StopError struct {
	Grace time.Duration
	Cause error // the context's error if it ended first; nil when the grace period ran out
}

// Error says why the program was killed: the context's end, or the grace period run out.
func (e *StopError) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%v; killed", e.Cause)
	}
	return fmt.Sprintf("still running after %v; killed", e.Grace)
}

// Unwrap returns the context's error, if it ended first: nil when the grace period ran out.
func (e *StopError) Unwrap() error { return e.Cause }

// Stop is the polite stop, then the forced one: ask (say goodbye, close the program's input,
// Terminate) and wait the grace period, or until ctx ends, for the program to exit; then kill
// what is left of its group, as Kill. It returns a *StopError if the program had to be
// killed, or Kill's error.
func (c *Child) Stop(ctx context.Context, ask func()) error {
	if ask != nil {
		ask()
	}
	err := AwaitExit(ctx, c.exited, c.grace)
	if kerr := c.Kill(); err == nil {
		err = kerr
	}
	return err
}

// AwaitExit waits for gone to be closed, for the grace period or until ctx ends, and returns
// nil, or a *StopError saying which ran out first: the wait between a polite stop and a
// forced one, for a Child or a connection.
func AwaitExit(ctx context.Context, gone <-chan struct{}, grace time.Duration) error {
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-gone:
		return nil
	case <-timer.C:
		return &StopError{Grace: grace}
	case <-ctx.Done():
		return &StopError{Grace: grace, Cause: ctx.Err()}
	}
}

// ExitError says how a program whose output has ended ended: its exit code or signal, and
// the tail of its standard error. The program is exiting, or lives on with its output
// closed, which earns it a kill after the grace period. The caller fills in the rest: who
// reports it, the player's name and what was awaited.
func (c *Child) ExitError() *ExitError {
	grace := time.NewTimer(c.grace)
	select {
	case <-c.done:
	case <-grace.C:
		c.Kill()
	}
	grace.Stop()
	ee := &ExitError{ExitCode: -1, Stderr: c.tail.lines()}
	if state := c.proc.Cmd.ProcessState; state != nil {
		ee.ExitCode = state.ExitCode()
		// ProcessState says "signal: killed" on every system that has signals.
		if sig, ok := strings.CutPrefix(state.String(), "signal: "); ok && ee.ExitCode == -1 {
			ee.Signal = sig
		}
	}
	return ee
}
