// Package proc runs a player's program and looks after it: the one process supervisor of
// every protocol (package uhpclient, package linepeer and package proto/hiveapi all start
// theirs here), and the errors they share.
//
// Start starts a program with pipes the caller owns; Supervise does that and the rest, as a
// Child:
//
//   - On Unix the program leads a process group of its own, so that it and any children it
//     starts (a shell script's engine, node) die together. On Linux the kernel also kills it
//     when the arbiter dies, even by SIGKILL. On Windows the program is started suspended, put
//     in a job object of its own, which its children join, and then resumed: the job is what
//     is killed, and closing it (as the arbiter's death does) kills what is in it. It also
//     runs in a console of its own, for Interrupt.
//   - Goroutines read its standard output (with the caller's function) and its standard error
//     (into a tail of its last lines), and are all waited for. Once the program is reaped, what
//     it left in its group is killed, and its readers are given a grace period to reach the end
//     of the output before the pipes are closed under them: a process that escaped the group
//     with a copy of the output must not keep the readers, or the program unreaped, alive.
//     This is os/exec's WaitDelay, written here because exec.Cmd's would wait for the output
//     before the group could be killed.
//   - Stop is the polite stop (the caller's goodbye, the end of input, SIGTERM), the grace
//     period, and then the forced one: Kill, which kills the whole group at once, may be called
//     any number of times, and returns once the program is reaped and every reader has ended.
//     Interrupt stops a search as MzingaViewer does: SIGINT to the program alone on Unix, a
//     CTRL_C_EVENT to the program's console on Windows, sent by a helper process (a copy of
//     the arbiter, see interrupt_windows.go) so that the arbiter never leaves its own console.
//     The copy becomes the helper in Main, which every binary that starts programs calls
//     first thing in main: nothing in this package runs before main.
//   - ExitError (the program exited, crashed or was killed, or a connection closed) and
//     TimeoutError (a wait that ended with its context) are every protocol's; the protocol says
//     who it is and what it waited for, and the arbiter classifies them
//     (driver.ClassifyError).
//
// What a program is sent, how its output is cut into messages and when it is stopped stay
// with the protocols, which differ in all three. Locate says, before a run, whether a program
// can be started at all.
package proc
