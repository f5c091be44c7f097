//go:build unix

package linepeer

import (
	"errors"
	"os"
	"syscall"
)

// killGroup kills a program's whole process group. A group that has already gone is not an
// error.
func killGroup(p *os.Process) error {
	err := syscall.Kill(-p.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
