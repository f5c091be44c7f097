//go:build windows

package cli

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// enableANSI turns on virtual terminal processing in the console f writes to, so that it
// takes the live line's "\r\x1b[K". It fails where f is no console (GetConsoleMode fails:
// NUL, a file, a pipe) or the console cannot (Windows before 10's build 1511).
func enableANSI(f *os.File) error {
	h := windows.Handle(f.Fd())
	var mode uint32
	if err := windows.GetConsoleMode(h, &mode); err != nil {
		return fmt.Errorf("not a console: %w", err)
	}
	if mode&windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING != 0 {
		return nil
	}
	if err := windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING); err != nil {
		return fmt.Errorf("turning on virtual terminal processing: %w", err)
	}
	return nil
}
