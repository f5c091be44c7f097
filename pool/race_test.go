//go:build race

package pool

// slowdown stretches the tests' waits under the race detector: its engines (this test binary)
// play many times slower.
const slowdown = 5
