//go:build !unix

package nodeipc

import (
	"errors"
	"fmt"
	"net"
	"os"
)

// errNoUnixSockets is why there is no channel here. On Windows Node's fork gives a child a
// named pipe, passed in the C runtime's handle table of the process's start-up information,
// which this package does not build.
var errNoUnixSockets = fmt.Errorf("nodeipc: Node's channel needs Unix sockets: %w", errors.ErrUnsupported)

// Available returns nil where Pair can make Node's channel; here an error wrapping
// errors.ErrUnsupported.
func Available() error { return errNoUnixSockets }

// Pair makes the channel Node's fork gives a child where Unix sockets exist; here it returns
// an error wrapping errors.ErrUnsupported.
func Pair() (net.Conn, *os.File, error) { return nil, nil, errNoUnixSockets }
