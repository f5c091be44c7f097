//go:build unix

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// procSys is what a platform keeps of a started program beyond exec.Cmd: on Unix the process
// group is the program's id, so nothing.
type procSys struct{}

// afterStart is given the started program. On Unix the group was made by Setpgid, at the start.
func (s *procSys) afterStart(*exec.Cmd) error { return nil }

// release frees what afterStart took; on Unix nothing.
func (s *procSys) release() {}

// killGroup kills the program's whole process group. A group that has already gone is not
// an error.
func killGroup(p *Process) error { return signalGroup(p.Cmd.Process, syscall.SIGKILL) }

func terminateGroup(p *Process) error { return signalGroup(p.Cmd.Process, syscall.SIGTERM) }

// signalGroup signals the group the program leads; its id is the program's.
func signalGroup(p *os.Process, sig syscall.Signal) error {
	err := syscall.Kill(-p.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// interrupt sends SIGINT to the program alone, as MzingaViewer does on Linux and macOS.
func interrupt(p *Process) error { return p.Cmd.Process.Signal(os.Interrupt) }
