//go:build !unix

package hiveapi

import (
	"errors"
	"net"
	"os"
	"syscall"
)

func sysProcAttr() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process) error { return p.Kill() }

func terminateGroup(p *os.Process) {}

func ipcPair() (net.Conn, *os.File, error) {
	return nil, nil, errors.New("hiveapi: transport=ipc needs Unix sockets")
}
