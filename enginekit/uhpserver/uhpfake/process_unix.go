//go:build unix

package uhpfake

import (
	"os"
	"syscall"
)

// kill sends the engine SIGKILL, which no handler can catch.
func kill() {
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // the signal is on its way
}

// newSession puts a child in a session of its own, out of the engine's process group.
func newSession() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
