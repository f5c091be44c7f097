// Package natstest starts NATS servers of a test's own, on loopback, for the tests of the
// packages that speak NATS (the pool, its artifacts).
package natstest
