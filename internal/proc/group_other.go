//go:build !unix

package proc

import (
	"errors"
	"os"
	"syscall"
)

// Without process groups only the program itself can be killed.
func sysProcAttr() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process) error {
	err := p.Kill()
	if errors.Is(err, os.ErrProcessDone) {
		return nil
	}
	return err
}

func terminateGroup(p *os.Process) error { return nil }
