// Package linepeer holds a line-oriented conversation with a player that runs elsewhere: a
// program started as a subprocess (its standard input and output) or a peer reached over TCP.
// It is the transport under the protocols whose conversations are not UHP's replies-until-ok
// (packages proto/ugi and proto/gamestring): lines go out with Send and come in with
// Next, each bounded by a context. It knows no protocol, and no arbiter.
//
// A Peer owns everything it starts: a program is a proc.Child, run in a process group of its
// own which Kill ends as a whole, its output and standard error drained by goroutines that are
// all waited for; Close says goodbye, gives the peer a grace period and then kills. Lines
// are read by package lines. The errors are the ones every transport shares: a wait that
// ends with its context is a *proc.TimeoutError, after which the caller decides whether to
// stop the peer or kill it; a peer whose output ended is a *proc.ExitError, after which the
// conversation is over; a line over the bound wraps lines.ErrTooLong. The arbiter classifies
// them (driver.ClassifyError).
package linepeer
