package proc

import "syscall"

// sysProcAttr puts the program in a process group of its own, so that it and any children it
// starts die together, and has the kernel kill it when the arbiter dies, even by SIGKILL.
// Pdeathsig follows the thread that started the program, not the arbiter's process: see
// Start.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
