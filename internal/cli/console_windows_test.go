//go:build windows

package cli

import (
	"os"
	"testing"

	"golang.org/x/sys/windows"
)

// NUL is a character device on Windows, as a console is, but no console: it gets the plain
// lines.
func TestIsTerminalNotOnNUL(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if fi, err := null.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("NUL: %v, %v; want a character device, or the test shows nothing", fi, err)
	}
	if IsTerminal(null) {
		t.Error("NUL is taken for a terminal")
	}
}

// On a console IsTerminal turns virtual terminal processing on, so that the live line's ANSI
// codes are obeyed, not printed. The test needs its standard output on a console: under wine,
// a terminal (.ci/wine-smoke runs it under script(1)); a console wine makes with AllocConsole
// and no display answers no console call.
func TestIsTerminalTurnsOnANSI(t *testing.T) {
	h := windows.Handle(os.Stdout.Fd())
	var mode uint32
	if err := windows.GetConsoleMode(h, &mode); err != nil {
		t.Skipf("standard output is no console (%v): run the test on a terminal", err)
	}
	if err := windows.SetConsoleMode(h, mode&^windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING); err != nil {
		t.Fatal(err)
	}
	defer windows.SetConsoleMode(h, mode)
	if !IsTerminal(os.Stdout) {
		t.Fatal("the console is not taken for a terminal")
	}
	if err := windows.GetConsoleMode(h, &mode); err != nil {
		t.Fatal(err)
	}
	if mode&windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING == 0 {
		t.Errorf("console mode %#x: virtual terminal processing is off", mode)
	}
}
