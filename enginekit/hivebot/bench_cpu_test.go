package hivebot

import (
	"context"
	"strconv"
	"testing"

	"hivearbiter/internal/testkit/testenv"
)

// BenchmarkBench runs the bench at its default depth on one and two threads and reports the
// node count, nodes per second of wall time, and nodes per second of the process's CPU time,
// which others' load on a shared machine disturbs far less than wall time.
func BenchmarkBench(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run("threads="+strconv.Itoa(threads), func(b *testing.B) {
			var nodes int64
			cpu := testenv.CPUTime(b)
			for b.Loop() {
				res, err := Bench(context.Background(), DefaultBenchDepth, threads, nil)
				if err != nil {
					b.Fatal(err)
				}
				nodes += res.Nodes
			}
			cpu = testenv.CPUTime(b) - cpu
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/cpu.Seconds(), "nodes/cpu-s")
		})
	}
}
