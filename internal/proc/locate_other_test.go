//go:build !windows

package proc

import "testing"

func locateDir(t *testing.T) string { return t.TempDir() }
