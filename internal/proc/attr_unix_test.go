//go:build unix

package proc

import "syscall"

// outsideTheGroup starts a program in a session, and so a group, of its own.
func outsideTheGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
