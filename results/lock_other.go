//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows)

package results

import "os"

// lockFile does nothing where neither flock nor LockFileEx is available: two runs on one
// records file are not detected there.
func lockFile(*os.File) error { return nil }

// lockedByWriter cannot tell where no lock is available.
func lockedByWriter(*os.File) bool { return false }
