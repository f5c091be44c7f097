//go:build race

package report

// raceEnabled is set when the tests run under the race detector, which makes the Go side of
// the large report's measurement many times slower than a user ever sees it.
const raceEnabled = true
