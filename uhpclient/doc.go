// Package uhpclient drives a Universal Hive Protocol engine running as a subprocess, and
// never hangs on one.
//
// Start runs an engine from a command (never through a shell) and reads its startup info
// block. An Engine then sends one command at a time and reads its reply: every line up to
// a line that is exactly "ok". Typed methods (NewGame, Play, Pass, Undo, ValidMoves,
// BestMove, Options, GetOption, SetOption) check that the reply can answer the command;
// Send passes any command through.
//
// It is built for engines as they are, not as the protocol describes them: a byte-order
// mark before the banner and CRLF line ends (Mzinga on mono), err replies over several
// lines, intermediate bestmove lines, engines that hang, spin, crash, flood their output,
// ignore "exit" or loop forever once their input ends. Every line and every reply has a
// size bound, and every call that waits takes a context. A bestmove that outlives its
// context is interrupted with SIGINT, as Mzinga's own viewer does, given a grace period to
// answer, then killed; any other command is killed at once. Engines run in a process
// group of their own, killed as a whole, and on Linux they die with the arbiter.
//
// UHP writes a search time as hh:mm:ss, which many engines read as whole seconds only. Such
// an engine is sent its budget rounded down to whole seconds (at least one), so that it
// answers in time by itself; an engine that reads fractions is sent them
// (BestMoveArgs.FractionalSeconds). Only a budget under one second is sent longer than it is
// (BestMoveArgs.Overrun), and only an engine known to survive SIGINT (BestMoveArgs.Interruptible) is then
// stopped when the budget is up: the real searching engines die of the signal.
//
// The errors a caller must tell apart have their own types. The engine's own refusals,
// EngineError (err) and InvalidMoveError (invalidmove), leave it usable. A broken
// conversation (ProtocolError), a timeout (TimeoutError) or an exit (ExitError, with the
// exit status and the last lines of stderr) leave it dead, and later calls return the same
// error at once. A TimeoutError quotes what the engine printed before it was given up on
// (cut), the start of a line it printed without its end (Partial), and what became of the
// SIGINT that stopped its search; a program that cannot be run is a ProgramError that says
// why in words (CheckProgram asks before a run). A ProtocolError names the faults that have a
// known cause and fix (Fault): a reply that came whole but never ended with "ok" before its
// time was up (MissingOK: a fault of the protocol, not of speed), a banner printed only when
// asked "info" (BannerOnInfo: Start asks an engine that printed nothing, and a compliance
// check may take such a banner, AcceptBannerOnInfo), an answer to bestmove that is no
// MoveString. Lines printed before the answer of a move or a GameString are read past and
// kept for the caller to warn of (LinesBeforeReply).
//
// It is not built on internal/linepeer, the transport of UGI and the one-engine model, on
// purpose: a linepeer reads every line on a goroutine of its own and hands it over a channel,
// for peers that speak unbidden (UGI's info lines); a UHP engine speaks only in reply, so a
// command reads its reply on the caller's goroutine, which spares each line that hand-over
// on the arbiter's busiest path (docs/experiments/per-ply-cost), and a search can be stopped
// between two lines of its reply. What both need is shared: the process supervisor
// (internal/proc), the bounded line reading and the transcript (internal/lines).
//
// Each Engine's process is supervised as every player's is (by the arbiter's one process
// supervisor): goroutines drain stderr into a ring of recent lines and reap the process.
// A command reads its reply from stdout itself, in its own goroutine (lines.Conn), which
// spares each reply line a hand-over between goroutines; stdout is read between commands
// only when the engine exits, for its last words. Close (or Kill) returns only after every
// goroutine has ended, so an Engine that is closed leaves nothing behind. ExitError, TimeoutError and ErrLineTooLong are the errors
// every protocol of the arbiter shares. An optional transcript records
// every line in and out with its time, so that a user can see what an engine said before
// it was forfeited.
package uhpclient
