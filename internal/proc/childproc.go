package proc

import (
	"errors"
	"os"
	"os/exec"
)

// Spec says which program to start, and how.
type Spec struct {
	Command []string // program and arguments, never run through a shell
	Dir     string   // working directory; empty means the arbiter's
	Env     []string // KEY=VALUE entries added to the arbiter's environment
	// ExtraFiles are given to the program from file descriptor 3 on, as in exec.Cmd. They
	// stay the caller's: it closes its copies once Start has returned.
	ExtraFiles []*os.File
}

// Process is a started program and the parent's ends of its standard streams, which the
// caller reads, writes and closes. The caller also waits for Cmd, once.
type Process struct {
	Cmd    *exec.Cmd
	Stdin  *os.File // the write end of the program's standard input
	Stdout *os.File // the read end of its standard output
	Stderr *os.File // the read end of its standard error
	sys    procSys  // what the platform keeps besides: on Windows, the job object
}

// StartError is a program the system would not start: missing, not executable, or built for
// another system. Err is os/exec's error, and Error is its text alone, so that each caller
// says it under its own name.
type StartError struct {
	Err error
}

// Error is the system's error, as exec gives it: the caller adds whose program it was.
func (e *StartError) Error() string { return e.Err.Error() }

// Unwrap returns the system's error, for errors.Is(err, fs.ErrNotExist) and the like.
func (e *StartError) Unwrap() error { return e.Err }

// Start starts the program in a process group of its own, its standard streams on fresh
// pipes. A program that cannot be started is a *StartError; failing to make the pipes is
// os.Pipe's error. On error nothing is left open or running.
//
// On Linux the program is killed when the thread that started it ends (see Pdeathsig in
// syscall.SysProcAttr); Go ends a thread only when a goroutine locked to it exits, so Start
// should not be called from such a goroutine.
func Start(spec Spec) (*Process, error) {
	if len(spec.Command) == 0 || spec.Command[0] == "" {
		return nil, &StartError{Err: errors.New("no program to start")}
	}
	var pipes [3][2]*os.File // read end, write end
	for i := range pipes {
		r, w, err := os.Pipe()
		if err != nil {
			for _, p := range pipes[:i] {
				p[0].Close()
				p[1].Close()
			}
			return nil, err
		}
		pipes[i] = [2]*os.File{r, w}
	}
	cmd := exec.Command(spec.Command[0], spec.Command[1:]...)
	cmd.Dir = spec.Dir
	cmd.Env = append(os.Environ(), spec.Env...)
	cmd.SysProcAttr = sysProcAttr()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes[0][0], pipes[1][1], pipes[2][1]
	cmd.ExtraFiles = spec.ExtraFiles
	err := cmd.Start()
	// The program has its own copies of its ends; ours would hide its EOF.
	pipes[0][0].Close()
	pipes[1][1].Close()
	pipes[2][1].Close()
	p := &Process{Cmd: cmd, Stdin: pipes[0][1], Stdout: pipes[1][0], Stderr: pipes[2][0]}
	if err == nil {
		if err = p.sys.afterStart(cmd); err != nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}
	if err != nil {
		p.Stdin.Close()
		p.Stdout.Close()
		p.Stderr.Close()
		return nil, &StartError{Err: err}
	}
	return p, nil
}

// KillGroup kills the program's whole process group at once, or, where the group cannot be
// signalled, the program alone. A group or program that has already gone is not an error, so
// KillGroup may be called any number of times, before or after Cmd.Wait.
func (p *Process) KillGroup() error {
	err := killGroup(p)
	if err != nil {
		if kerr := p.Cmd.Process.Kill(); kerr == nil || errors.Is(kerr, os.ErrProcessDone) {
			err = nil
		}
	}
	return err
}

// TerminateGroup asks the program's whole process group to end, with SIGTERM: for a server,
// which does not end when its input does. Without process groups it does nothing.
func (p *Process) TerminateGroup() error { return terminateGroup(p) }

// Interrupt asks the program to stop what it is doing, as MzingaViewer stops a search: on
// Unix with SIGINT to the program alone, not its group, as a viewer's Ctrl-C would reach an
// engine that stands for its children; on Windows with a CTRL_C_EVENT to the program's own
// console, which its children share. A program that has exited returns os.ErrProcessDone.
func (p *Process) Interrupt() error { return interrupt(p) }

// Release frees what the system keeps for the program once it is reaped and killed: on
// Windows it closes the job object, which kills anything still in it. Supervise's Child
// releases its program; a caller of Start releases after Cmd.Wait.
func (p *Process) Release() { p.sys.release() }
