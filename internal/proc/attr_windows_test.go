//go:build windows

package proc

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// outsideTheGroup asks for a process outside the job object, which the job does not allow:
// the tests that need it skip on Windows.
func outsideTheGroup() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_BREAKAWAY_FROM_JOB}
}

// gone reports whether no process has the id pid, or the one that has it has exited.
func gone(pid int) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return true
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, 0)
	return err == nil && ev == windows.WAIT_OBJECT_0
}

// kill kills a process the test left behind.
func kill(pid int) {
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return
	}
	windows.TerminateProcess(h, 1)
	windows.CloseHandle(h)
}

// killedExitCode is the exit code of a program killed with its job object (TerminateJobObject's
// code) or alone (os.Process.Kill's); ProcessState names no signal.
const killedExitCode, killedSignal = 1, ""

// treeKill: killing a program kills its children (a process group, a job object).
const treeKill = true
