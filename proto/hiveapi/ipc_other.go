//go:build !unix

package hiveapi

import (
	"errors"
	"net"
	"os"
)

func ipcPair() (net.Conn, *os.File, error) {
	return nil, nil, errors.New("hiveapi: transport=ipc needs Unix sockets")
}
