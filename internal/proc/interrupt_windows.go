//go:build windows

package proc

import (
	"bufio"
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

	"golang.org/x/sys/windows"
)

// How a search is stopped on Windows
//
// Windows has no SIGINT for another process. MzingaViewer stops a search there with a Ctrl-C
// event (CTRL_C_EVENT), which .NET's Console.CancelKeyPress, the C runtime's SIGINT, Python's
// KeyboardInterrupt and Go's os.Interrupt all take for Ctrl-C: it attaches to the engine's
// console, ignores Ctrl-C itself, and sends the event to the whole console. The arbiter does
// the same, with two differences. Each program runs in a console of its own (see sysProcAttr),
// so that the event reaches it and its children and not the arbiter or the other engines.
// And the event is sent by a helper, a copy of this program started once, which becomes the
// sender when its main calls Main: a process has one console, and the arbiter must not leave
// its own, even for a moment, to attach to an engine's. Attaching and sending take the helper
// microseconds; starting it takes long enough (tens of milliseconds on Windows, more under
// wine) that it is started with the first program and kept, not started for each interrupt.

// hasCtrlCSender is true: a copy of the program started with ctrlCEnv set is the sender, once
// it calls Main, which runs serveCtrlCSender instead of the program.
const hasCtrlCSender = true

func serveCtrlCSender() int { return serveCtrlC(os.Stdin, os.Stdout) }

// interruptTimeout bounds one interrupt: the sender's start and its answer.
const interruptTimeout = 10 * time.Second

// interrupt sends CTRL_C_EVENT to the program's console, which its children share.
func interrupt(p *Process) error {
	if p.sys.exited() {
		return os.ErrProcessDone
	}
	if err := ctrlC.send(p.Cmd.Process.Pid); err != nil {
		if p.sys.exited() {
			return os.ErrProcessDone
		}
		return fmt.Errorf("proc: sending Ctrl-C to process %d: %w", p.Cmd.Process.Pid, err)
	}
	return nil
}

// ctrlC is the arbiter's one sender, shared by every program.
var ctrlC sender

// sender is the helper process that sends Ctrl-C events: one process id a line on its input,
// "ok" or what went wrong a line on its output.
type sender struct {
	mu      sync.Mutex
	cmd     *exec.Cmd
	in      io.WriteCloser
	answers chan string // the sender's lines; closed when its output ends
	err     error       // why the last start failed
}

// warm starts the sender if it is not running, so that the first interrupt need not wait for
// it. Errors wait for the interrupt that needs it.
func (s *sender) warm() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.startLocked()
}

func (s *sender) startLocked() error {
	if s.cmd != nil {
		return nil
	}
	if !mainCalled.Load() {
		// The copy would not serve as the sender but run the program again.
		return errors.New("this program cannot start its Ctrl-C sender, a copy of itself: its main does not call proc.Main first")
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), ctrlCEnv+"=1")
	// Without a console of its own, the sender need not leave one before it attaches.
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS}
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the Ctrl-C sender: %w", err)
	}
	answers := make(chan string)
	go func() {
		defer close(answers)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			answers <- sc.Text()
		}
	}()
	// The sender ends when its input does: when the arbiter closes it, or exits.
	s.cmd, s.in, s.answers = cmd, in, answers
	return nil
}

// stopLocked kills a sender that failed, for the next interrupt to start a fresh one.
func (s *sender) stopLocked() {
	s.in.Close()
	s.cmd.Process.Kill()
	for range s.answers {
	}
	s.cmd.Wait()
	s.cmd = nil
}

func (s *sender) send(pid int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.startLocked(); err != nil {
		return err
	}
	timeout := time.NewTimer(interruptTimeout)
	defer timeout.Stop()
	if _, err := fmt.Fprintln(s.in, pid); err != nil {
		s.stopLocked()
		return fmt.Errorf("the Ctrl-C sender: %w", err)
	}
	select {
	case answer, ok := <-s.answers:
		switch {
		case !ok:
			s.stopLocked()
			return errors.New("the Ctrl-C sender exited")
		case answer != "ok":
			return errors.New(answer)
		}
		return nil
	case <-timeout.C:
		s.stopLocked()
		return fmt.Errorf("the Ctrl-C sender did not answer in %v", interruptTimeout)
	}
}

var (
	kernel32              = windows.NewLazySystemDLL("kernel32.dll")
	freeConsole           = kernel32.NewProc("FreeConsole")
	attachConsole         = kernel32.NewProc("AttachConsole")
	setConsoleCtrlHandler = kernel32.NewProc("SetConsoleCtrlHandler")
)

// serveCtrlC is the sender: for each process id read from in, it attaches to that process's
// console, sends CTRL_C_EVENT to every process attached to it, and leaves the console again,
// answering "ok" or what failed. It ignores Ctrl-C itself. It returns the exit code once in
// ends.
func serveCtrlC(in io.Reader, out io.Writer) int {
	if ok, _, err := setConsoleCtrlHandler.Call(0, 1); ok == 0 {
		fmt.Fprintf(out, "ignoring Ctrl-C: %v\n", err)
		return 1
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		fmt.Fprintln(out, sendCtrlC(strings.TrimSpace(sc.Text())))
	}
	return 0
}

// sendCtrlC sends CTRL_C_EVENT to the console of the process pid, and says "ok" or what
// failed.
func sendCtrlC(pid string) string {
	id, err := strconv.ParseUint(pid, 10, 32)
	if err != nil {
		return fmt.Sprintf("%q is not a process id", pid)
	}
	freeConsole.Call()
	defer freeConsole.Call()
	if ok, _, err := attachConsole.Call(uintptr(id)); ok == 0 {
		return fmt.Sprintf("attaching to the console of process %d: %v", id, err)
	}
	if err := windows.GenerateConsoleCtrlEvent(windows.CTRL_C_EVENT, 0); err != nil {
		return fmt.Sprintf("sending Ctrl-C to the console of process %d: %v", id, err)
	}
	return "ok"
}
