//go:build !windows

package proc

// hasCtrlCSender is false: a program's search is interrupted with SIGINT, sent by the arbiter
// itself.
const hasCtrlCSender = false

func serveCtrlCSender() int { return 0 }
