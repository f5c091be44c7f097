//go:build !unix && !windows

package proc

import "syscall"

func outsideTheGroup() *syscall.SysProcAttr { return nil }

// The tests that need these skip where there are no process groups.
func gone(pid int) bool { return true }
func kill(pid int)      {}

const killedExitCode, killedSignal = 1, ""

const treeKill = false
