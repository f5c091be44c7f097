package cli

import (
	"io"
	"os"
)

// IsTerminal reports whether w is a terminal, where a live progress line can be redrawn in
// place with "\r" and ANSI erase codes. Pipes, files and CI logs get the per-game lines only.
// On Windows a terminal is a console that takes ANSI codes, which a console does once virtual
// terminal processing is on: IsTerminal turns it on (Windows Terminal has it on already; the
// old console host of Windows 10 turns it on when asked), and a console that refuses, or a
// character device that is no console (NUL), gets the plain lines.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return liveLine(err == nil && fi.Mode()&os.ModeCharDevice != 0, func() error { return enableANSI(f) })
}

// liveLine decides whether a live line is drawn: only on a character device, and only once
// enable has made it take ANSI codes.
func liveLine(charDevice bool, enable func() error) bool {
	return charDevice && enable() == nil
}
