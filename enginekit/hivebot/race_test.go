//go:build race

package hivebot

// raceEnabled is set under the race detector, which slows the search about thirtyfold: the
// mini-matches then play fewer games to keep the suite within a minute.
const raceEnabled = true
