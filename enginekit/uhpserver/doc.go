// Package uhpserver is the engine side of the Universal Hive Protocol (UHP): it turns a Go
// program that implements Handler into a UHP engine on standard input and output. The
// reference engine, hivebot, and "arbiter serve" (the arbiter acting as an engine toward a
// viewer) are both built on it.
//
// The Server does the protocol as Mzinga, the reference engine, does: the info banner on
// start, "ok" after every reply (after err and invalidmove too), blank lines ignored,
// command words in any case, arguments split on spaces and tabs and joined again with
// single spaces, and Mzinga's error text for an unknown command or bad arguments. It also
// does what Mzinga does not: it ends at the end of its input instead of spinning, answers an
// over-long line with err, turns a panic in the handler into err, and accepts fractions of
// a second in "bestmove time".
//
// The Handler does the game, and chooses its own errors: *InvalidMoveError for
// "invalidmove", *Error for "err" with a protocol text such as ErrNoGame. Optional
// interfaces add "perft" (Perfter) and commands of the engine's own (Commander). Commands
// the Server does not know, such as UHP 2.0's "newgame remote" and "play forfeit", reach the
// handler as ordinary arguments of newgame and play.
//
// Commands run one at a time, each under a context that Server.Interrupt cancels, as
// Ctrl-C does in Mzinga; a typical main wires SIGINT to it:
//
//	interrupts := make(chan os.Signal, 1)
//	signal.Notify(interrupts, os.Interrupt)
//	defer signal.Stop(interrupts)
//	server := uhpserver.NewServer(engine, uhpserver.WithInterrupts(interrupts))
//	err := server.Serve(ctx, os.Stdin, os.Stdout)
package uhpserver
