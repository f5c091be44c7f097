// Package enginecheck finds out whether an engine speaks its protocol as the arbiter needs,
// before it is entered in a long run: it plays the engine through every command the arbiter
// sends, compares its answers with the referee's (package rules), and reports one result per
// check: passed, failed, or skipped (with why). The engine is started afresh after a failed
// check, so that each result judges one thing and no row repeats an earlier row's failure. It
// also finds out how the engine takes the arbiter's time budgets (fractions of a second,
// SIGINT during a search) and says which setting to give it. It is what "arbiter check" runs.
package enginecheck
