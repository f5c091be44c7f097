package uhpclient

import (
	"os/exec"
	"syscall"
)

// sysProcAttr puts the engine in its own process group, so that it and any children can be
// killed together, and has the kernel kill it if the arbiter dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}
