//go:build !race

package pool

// slowdown stretches the tests' waits under the race detector (see race_test.go).
const slowdown = 1
