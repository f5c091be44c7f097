//go:build unix

package hiveapi

import (
	"errors"
	"net"
	"os"
	"syscall"
)

// sysProcAttr puts a module in a process group of its own, so that it and any children it
// starts (node, say) die together.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills a module's whole process group; a group that has gone already is no error.
func killGroup(p *os.Process) error {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// terminateGroup asks a module's process group to end (SIGTERM): a TCP server does not end
// when its connection closes.
func terminateGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGTERM)
}

// ipcPair makes the channel Node's fork gives a child: a connected pair of Unix stream
// sockets. The arbiter keeps the connection; the child inherits the file.
func ipcPair() (net.Conn, *os.File, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, os.NewSyscallError("socketpair", err)
	}
	ours := os.NewFile(uintptr(fds[0]), "ipc")
	defer ours.Close() // FileConn holds a duplicate
	conn, err := net.FileConn(ours)
	if err != nil {
		syscall.Close(fds[1])
		return nil, nil, err
	}
	return conn, os.NewFile(uintptr(fds[1]), "ipc-child"), nil
}
