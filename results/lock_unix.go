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

// lockedByWriter reports whether another open file holds f's exclusive lock: a run is writing
// the file now. It takes a shared lock to find out, and gives it back at once.
func lockedByWriter(f *os.File) bool {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}
