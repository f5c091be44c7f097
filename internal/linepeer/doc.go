// Package linepeer holds a line-oriented conversation with a player that runs elsewhere: a
// program started as a subprocess (its standard input and output) or a peer reached over TCP.
// It is the transport under the protocols whose conversations are not UHP's replies-until-ok
// (packages proto/ugi and proto/gamestring): lines go out with Send and come in with
// Next, each bounded by a context.
//
// A Peer owns everything it starts: a program runs in a process group of its own, which Kill
// ends as a whole; goroutines drain its output and standard error and are all waited for;
// Close says goodbye, gives the peer a grace period and then kills. After a TimeoutError or
// an ExitError the conversation is over, and every later call returns that error.
package linepeer
