//go:build !unix

package proc

import "syscall"

func outsideTheGroup() *syscall.SysProcAttr { return nil }
