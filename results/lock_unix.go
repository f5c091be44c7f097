//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package results

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f without waiting: errLocked if another open
// file holds it. The lock goes with the file's descriptor, so it ends when the file is closed
// or the process dies, killed or not.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
