// Package proc starts a program in a process group of its own with pipes the caller
// owns, and kills the whole group.
//
// It is the one place that knows how the arbiter runs a player's program (package uhpclient,
// package linepeer and package hiveapi all start theirs here):
//
//   - The pipes are made here rather than by exec.Cmd, so that closing their read ends is the
//     caller's to decide: a process that escaped the group with a copy of the output must not
//     keep the caller's readers, or the program unreaped, alive.
//   - The program leads a process group of its own, so that it and any children it starts (a
//     shell script's engine, node) die together with KillGroup. On Linux the kernel also kills
//     it when the arbiter dies, even by SIGKILL.
//   - Without process groups (Windows) only the program itself can be killed.
//
// Waiting for the program, reading its output and deciding when to kill it stay with the
// caller, whose protocols differ in all three.
package proc
