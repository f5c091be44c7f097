//go:build !unix

package nodeipc

import (
	"errors"
	"fmt"
	"net"
	"os"
)

// Pair makes the channel Node's fork gives a child where Unix sockets exist; here it returns
// an error wrapping errors.ErrUnsupported.
func Pair() (net.Conn, *os.File, error) {
	return nil, nil, fmt.Errorf("nodeipc: Node's channel needs Unix sockets: %w", errors.ErrUnsupported)
}
