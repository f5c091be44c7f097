//go:build unix && !linux

package proc

import "syscall"

// sysProcAttr puts the program in a process group of its own, so that it and any children it
// starts die together. Only Linux can also tie the program's life to the arbiter's.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
