// Package enginecheck finds out whether an engine speaks its protocol as the arbiter needs,
// before it is entered in a long run: it plays the engine through every command the arbiter
// sends, compares its answers with the referee's (package rules), and reports one pass/fail
// result per check. It is what "arbiter check" runs.
package enginecheck
