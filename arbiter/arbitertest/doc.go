// Package arbitertest provides an in-process test player for the arbiter's tests and for
// packages built on it (serve, the protocols, the distributed runner): Player plays random
// legal moves and misbehaves on request, and Protocol enters it in tournaments through the
// same seam a real protocol uses (proto=test), so that every way a player can fail is
// reproducible without a process. CheckRow and FirstFailure find the rows of a compliance
// check's results (check.Run) that a test judges; FirstMove and SameJudgement hold a
// protocol's first move as judged by the check before the first game to the game's judgement.
package arbitertest
