// Package uhpengine is the engine side of the Universal Hive Protocol: it turns any Go program
// that implements Handler into a UHP engine on standard input and output.
//
// The Server does the protocol exactly as Mzinga does: the info banner at start, "ok" after
// every reply (also after err and invalidmove), blank lines ignored, command words in any case,
// Mzinga's error texts for unknown commands and bad arguments, and a handler panic turned into
// an err reply instead of a crash. The Handler does the game. The bundled engine, hivebot, and
// "arbiter serve" (the arbiter acting as an engine toward a viewer) are both built on it.
package uhpengine
