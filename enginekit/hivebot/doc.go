// Package hivebot is the reference Hive engine: a complete UHP engine (the protocol from
// package uhpserver, the rules from package rules, the search from package search), and a UGI
// engine when its first command is "ugi" (package ugiserver), that a
// user can play against, that the arbiter's tests and demos play real games with, and that
// engine authors can measure themselves against.
//
// Strength comes in profiles, chosen by flag (-profile) or option (Profile):
//
//	random  a uniformly random legal move (seeded by -seed)
//	weak    a 2-ply search with an aggressive evaluation
//	medium  a 3-ply search
//	strong  iterative deepening until the time limit (the default)
//
// A MaxDepth option (flag -depth) caps every profile's search. A search that ends by depth
// rather than time starts from an empty transposition table, so the same position at the
// same depth always gives the same move.
//
// Threads (flag -threads) searches on several threads sharing one transposition table.
//
// For tuners (arbiter tune), the evaluation weights (search.Params, such as InPlayAnt or
// Surround5) and two search parameters (Aggression, SoftTimePercent) are integer options with
// ranges; each engine keeps its own, and their defaults are the weights hivebot plays with.
//
// "hivebot bench" and the UHP extension command "bench [depth]" search a fixed set of
// positions to a fixed depth (DefaultBenchDepth) and print, as space-separated key=value
// fields, nodes=NODES time=MS nps=NODES_PER_SECOND depth=N positions=P threads=T. On one
// thread the node count is the search's signature: the same on every run of a build.
//
// Serve talks with a client on standard input and output; the command line around it (flags,
// -h, "hivebot bench") is cmd/hivebot/hivebotcmd's, which cmd/hivebot wraps and the arbiter binary
// runs as a hidden subcommand, so that matches between profiles run hivebot as a real engine
// process.
package hivebot
