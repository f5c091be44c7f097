package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkArbiterLatency measures the arbiter's own cost per ply as an engine sees it: two
// instant fake engine processes time the gap between the "ok" that ends their bestmove answer
// and the next command they read (the play of that move), which holds the UHP client's parsing,
// the referee's check, the record and the pipes both ways. Each iteration plays 10 games of up
// to 100 plies; the median and the 90th percentile over all plies are reported.
func BenchmarkArbiterLatency(b *testing.B) {
	dir := b.TempDir()
	var gaps []time.Duration
	for i := 0; b.Loop(); i++ {
		prefix := filepath.Join(dir, "gaps"+strconv.Itoa(i))
		var args []string
		for _, name := range []string{"a", "b"} {
			cfg := fakeConfig("random")
			cfg.LatencyLog = prefix
			args = append(args, fakeEngineSpec(name, cfg)...)
		}
		args = append(args, "-each", "st=1", "-rounds", "5", "-concurrency", "1", "-maxplies", "100",
			"-out", filepath.Join(dir, "games"+strconv.Itoa(i)+".jsonl"))
		var out bytes.Buffer
		if err := run(context.Background(), append([]string{"match"}, args...), &out, &out); err != nil {
			b.Fatalf("%v\n%s", err, out.String())
		}
		files, _ := filepath.Glob(prefix + ".*")
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			for _, line := range strings.Fields(string(data)) {
				ns, err := strconv.ParseInt(line, 10, 64)
				if err != nil {
					b.Fatal(err)
				}
				gaps = append(gaps, time.Duration(ns))
			}
		}
	}
	if len(gaps) == 0 {
		b.Fatal("the engines measured no gaps")
	}
	slices.Sort(gaps)
	b.ReportMetric(float64(gaps[len(gaps)/2].Microseconds()), "µs-median/ply")
	b.ReportMetric(float64(gaps[len(gaps)*9/10].Microseconds()), "µs-p90/ply")
	b.ReportMetric(float64(len(gaps))/float64(b.N), "plies/op")
}
