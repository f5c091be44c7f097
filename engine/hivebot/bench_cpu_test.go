//go:build unix

package hivebot

import (
	"context"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user and system time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkBench runs the bench at its default depth on one and two threads and reports the
// node count, nodes per second of wall time, and nodes per second of the process's CPU time,
// which others' load on a shared machine disturbs far less than wall time.
func BenchmarkBench(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run("threads="+strconv.Itoa(threads), func(b *testing.B) {
			var nodes int64
			cpu := cpuTime(b)
			for b.Loop() {
				res, err := Bench(context.Background(), DefaultBenchDepth, threads, nil)
				if err != nil {
					b.Fatal(err)
				}
				nodes += res.Nodes
			}
			cpu = cpuTime(b) - cpu
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/cpu.Seconds(), "nodes/cpu-s")
		})
	}
}
