//go:build windows

package results

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockRange is the byte range the lock covers: one byte far past any records file's end.
// Windows byte-range locks are mandatory, so a lock on the file's data would stop every other
// reader (arbiter stats on a live run, say) from reading it; a range past the end stops only
// the other lockers, which is what flock does on Unix.
func lockRange() *windows.Overlapped { return &windows.Overlapped{OffsetHigh: 1 << 30} }

// lockFile takes an exclusive lock on f without waiting: errLocked if another handle holds
// it. The lock goes with the file's handle, so it ends when the file is closed or the process
// dies, killed or not.
func lockFile(f *os.File) error {
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, lockRange())
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return errLocked
	}
	return err
}

// lockedByWriter reports whether another handle holds f's exclusive lock: a run is writing
// the file now. It takes a shared lock to find out, and gives it back at once.
func lockedByWriter(f *os.File) bool {
	h := windows.Handle(f.Fd())
	if err := windows.LockFileEx(h, windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, lockRange()); err != nil {
		return errors.Is(err, windows.ERROR_LOCK_VIOLATION)
	}
	windows.UnlockFileEx(h, 0, 1, 0, lockRange())
	return false
}
