// Package uhpclient drives a Universal Hive Protocol engine running as a subprocess.
//
// An Engine is started from a command (never through a shell), reads the engine's startup
// info block and then sends one command at a time, reading every reply up to its "ok" line.
// It is built for engines that misbehave: a byte-order mark before the banner, CRLF line ends,
// multi-line err replies, engines that hang, spin, crash or print without end. Every call takes
// a context; a bestmove that outlives its deadline is interrupted with SIGINT (as Mzinga's own
// viewer does), given a grace period, then killed with its whole process group. The errors a
// caller must tell apart have their own types: the engine's err reply (EngineError), its
// invalidmove reply (InvalidMoveError), a broken conversation (ProtocolError), a timeout
// (TimeoutError) and a crash or exit (ExitError).
package uhpclient
