//go:build unix && !linux

package linepeer

import "syscall"

// sysProcAttr puts the program in a process group of its own, so that it and any children it
// starts die together.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
