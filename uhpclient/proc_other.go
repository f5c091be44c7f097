//go:build !unix

package uhpclient

import (
	"errors"
	"os"
	"syscall"
)

// Without process groups only the engine itself can be killed.
func sysProcAttr() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process) error {
	err := p.Kill()
	if errors.Is(err, os.ErrProcessDone) {
		return nil
	}
	return err
}
