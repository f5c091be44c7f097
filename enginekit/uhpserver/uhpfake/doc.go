// Package uhpfake builds fake UHP engines for tests: a real uhpserver.Server around a Handler
// that the referee (package rules) backs, with knobs for every way an engine misbehaves. The
// test binary is the fake program, as in os/exec's own tests: TestMain calls Main, and a test
// starts os.Args[0] with the environment entry Env returns, which carries a Config as JSON.
//
//	func TestMain(m *testing.M) {
//		uhpfake.Main() // runs the fake engine and exits, when the environment asks for one
//		os.Exit(m.Run())
//	}
//
//	argv, env := uhpfake.Command(uhpfake.Config{
//		Faults: []uhpfake.Fault{{On: "bestmove", FromPly: 4, Print: []string{"wQ wQ", "ok"}, Then: "silent"}},
//	})
//
// The Config says how the engine plays (the first, last or a random valid move, or one fixed by
// a salt and the position; at once or for the time given, and over it by a fixed or a varying
// overshoot, or by one that grows with the move number and doubles when the engine finds itself
// short of CPU) and how it treats SIGINT; its Faults say how it misbehaves. A Fault is tied to a
// moment (before the banner, after it, a command from some ply on, the exit command, the end of
// the input): it waits, prints lines to standard output or error (any bytes, any number of
// times, with or without line ends), then answers as usual, answers nothing, exits, gets
// killed, hangs or spins. A Fault with a Mangle changes the answer instead: a GameString out of
// step with the game or saying the wrong state, a valid-move list one short, an illegal move
// accepted, the moves of newgame's GameString ignored, a move in lower case or of the other
// side; Then "no-ok" answers without the "ok" that ends a reply. A Fault with a Chance strikes at random, drawn from the seed and the position so
// that a run played again meets the same faults; one with a Leak keeps memory each time; a
// FaultLog counts every fault that applied (the soak harness, internal/cmd/soak, reads it).
// A banner printed only when asked "info", output that is never flushed while the engine
// runs, byte-order marks, CRLF line ends, a child process holding the pipes, a pid file, a log of the
// client's latency and commands of the engine's own (such as "bench") are Config knobs.
//
// What a fake does not do: it has no perft and no UHP 2.0 remote play, and its GameStrings
// are the referee's, so it cannot pretend to play an expansion the referee lacks. The
// Server's own tests use a probe Handler instead, which echoes what the Server parsed.
package uhpfake
