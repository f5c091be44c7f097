package proc

import (
	"os"
	"sync/atomic"
)

// Main serves as what package proc started a copy of the running program to be, and then
// exits; in any other process it returns at once. Every binary that starts programs calls it
// first thing in main, and a test binary that does, first in TestMain:
//
//	func main() {
//		proc.Main()
//		...
//	}
//
// On Windows a program's search is interrupted by a helper, the Ctrl-C sender, which is a copy
// of the running program started with an environment variable set (see interrupt_windows.go):
// Main is where that copy becomes the sender. A program that never calls Main cannot interrupt
// its programs on Windows (Interrupt says why), rather than start a copy of itself that would
// run the whole program again. Elsewhere Main serves nothing.
func Main() {
	mainCalled.Store(true)
	if isCtrlCSender(hasCtrlCSender, os.Getenv) {
		os.Exit(serveCtrlCSender())
	}
}

// mainCalled records that the program called Main, and so may start copies of itself as
// helpers.
var mainCalled atomic.Bool

// ctrlCEnv, set in a process's environment, makes it the Ctrl-C sender where there is one
// (Windows): Main serves as the sender instead of returning to the program.
const ctrlCEnv = "HIVEARBITER_PROC_CTRL_C"

// isCtrlCSender reports whether a process is to be the Ctrl-C sender: where the platform has
// one (hasSender), when getenv says ctrlCEnv is set.
func isCtrlCSender(hasSender bool, getenv func(string) string) bool {
	return hasSender && getenv(ctrlCEnv) != ""
}
