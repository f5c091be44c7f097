//go:build !unix

package uhpfake

import (
	"os"
	"syscall"
)

// kill ends the engine at once.
func kill() {
	p, _ := os.FindProcess(os.Getpid())
	p.Kill()
	select {}
}

// newSession leaves a child where it is: only Unix has sessions.
func newSession() *syscall.SysProcAttr { return nil }
