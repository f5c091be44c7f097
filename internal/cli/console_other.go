//go:build !windows

package cli

import "os"

// enableANSI: a Unix terminal takes ANSI codes as it is.
func enableANSI(*os.File) error { return nil }
