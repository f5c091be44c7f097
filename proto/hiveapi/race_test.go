//go:build race

package hiveapi

// raceEnabled is set under the race detector, which slows the conversion about tenfold: the
// round-trip tests then check fewer positions.
const raceEnabled = true
