//go:build race

package main

// raceEnabled is set under the race detector, which slows the statistics' numeric loops about
// twentyfold and every engine process it builds: the tests that time engines or grind numbers
// say so and leave those parts to the runs without it (CI's Go-only and loaded passes).
const raceEnabled = true
