//go:build unix

package proc

import (
	"errors"
	"os"
	"syscall"
)

// killGroup kills the program's whole process group. A group that has already gone is not
// an error.
func killGroup(p *os.Process) error { return signalGroup(p, syscall.SIGKILL) }

func terminateGroup(p *os.Process) error { return signalGroup(p, syscall.SIGTERM) }

// signalGroup signals the group the program leads; its id is the program's.
func signalGroup(p *os.Process, sig syscall.Signal) error {
	err := syscall.Kill(-p.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
