package uhpclient

import (
	"errors"
	"os"
	"syscall"
)

// sysProcAttr puts the engine in a process group of its own, so that it and any children it
// starts die together, and has the kernel kill it when the arbiter dies, even by SIGKILL.
// Pdeathsig follows the thread that started the engine; Go ends a thread only when a
// goroutine locked to it exits, so Start should not be called from such a goroutine.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
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
