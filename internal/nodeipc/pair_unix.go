//go:build unix

package nodeipc

import (
	"net"
	"os"
	"syscall"
)

// Available returns nil where Pair can make Node's channel, as here; an error wrapping
// errors.ErrUnsupported elsewhere (Windows).
func Available() error { return nil }

// Pair makes the channel Node's fork gives a child: a connected pair of Unix stream
// sockets. The arbiter keeps the connection; the child inherits the file.
func Pair() (net.Conn, *os.File, error) {
	// Not SOCK_CLOEXEC, which macOS lacks: the fork lock keeps a program started meanwhile
	// from inheriting the pair before both ends are marked close-on-exec, as package net does.
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
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
