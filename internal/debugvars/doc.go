// Package debugvars is a window for developers into a running arbiter: when the environment
// entry ARBITER_DEBUG_VARS (Env) names a loopback address, the process serves /debug/vars
// there, its goroutine count and memory statistics as JSON (Snapshot). The soak harness
// (internal/cmd/soak) samples a long run through it from outside: memory and file descriptors
// can be read from /proc, goroutines cannot. It is an environment entry and not a flag,
// because it is a window for developers, not a setting of a run: it must not change a run's
// fingerprint or its help.
package debugvars
