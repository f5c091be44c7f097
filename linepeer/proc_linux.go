package linepeer

import "syscall"

// sysProcAttr puts the program in a process group of its own, so that it and any children it
// starts die together, and has the kernel kill it when the arbiter dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
