// Package report turns game records into pages people would rather look at than read: a
// self-contained HTML report of a match (its result tables, charts of the Elo and the SPRT's
// LLR as the game pairs were played, scores by opening, terminations, thinking time and game
// lengths, and every game replayable on a hex board), and a live page of a running match
// served over HTTP.
//
// Everything a page shows is computed here, in Go, from the records and the referee: the
// statistics with package elo, in schedule order as the arbiter's SPRT counts them, and every
// position of every game by replaying it through package rules. The page's script only draws;
// its charts use uPlot, embedded so that a report opens offline.
//
// Build and Write make a report of records. A running match tells its pages what happens
// through an Observer: File keeps a report file up to date, and Live serves the live page
// (Listen keeps it on loopback unless told otherwise).
package report
