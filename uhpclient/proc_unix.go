//go:build unix && !linux

package uhpclient

import (
	"errors"
	"os"
	"syscall"
)

// sysProcAttr puts the engine in a process group of its own, so that it and any children it
// starts die together. Only Linux can also tie the engine's life to the arbiter's.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the engine's whole process group. A group that has already gone is not
// an error.
func killGroup(p *os.Process) error {
	err := syscall.Kill(-p.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
