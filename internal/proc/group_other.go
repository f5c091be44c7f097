//go:build !unix && !windows

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// Without process groups or job objects only the program itself can be killed.
func sysProcAttr() *syscall.SysProcAttr { return nil }

type procSys struct{}

func (s *procSys) afterStart(*exec.Cmd) error { return nil }
func (s *procSys) release()                   {}

func killGroup(p *Process) error {
	err := p.Cmd.Process.Kill()
	if errors.Is(err, os.ErrProcessDone) {
		return nil
	}
	return err
}

func terminateGroup(p *Process) error { return nil }

func interrupt(p *Process) error { return p.Cmd.Process.Signal(os.Interrupt) }
