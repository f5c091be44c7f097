// Package check runs "arbiter check": the compliance check of an engine, by its protocol.
//
// Run looks the engine's protocol up in the registry and runs its check: the suite of a
// protocol that has one of its own (a compliance.Suite, kept beside the protocol's player), or,
// for a protocol whose players are judged by play alone (compliance.PlayChecked: they keep no
// state the arbiter could query), PlaySuite with the rows the protocol declares. PlaySuite
// plays the player against the referee's random mover through the arbiter's own game loop,
// as a match plays it.
//
// The package sits above the protocols, as database/sql's conformance suites sit above its
// drivers: it links the arbiter, and package compliance, which every protocol imports, links
// only the driver package and the referee. A protocol never imports this package.
package check
