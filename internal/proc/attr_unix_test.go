//go:build unix

package proc

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// outsideTheGroup starts a program in a session, and so a group, of its own.
func outsideTheGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// gone reports whether no process has the id pid (or one that is a zombie, its exit not yet
// reaped by a parent that is itself gone).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err == nil && strings.Contains(string(stat), ") Z ")
}

// kill kills a process the test left behind.
func kill(pid int) { syscall.Kill(pid, syscall.SIGKILL) }

// killedExitCode and killedSignal are what a program killed with its group ends with.
const killedExitCode, killedSignal = -1, "killed"

// treeKill: killing a program kills its children (a process group, a job object).
const treeKill = true
