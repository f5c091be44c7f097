package site

import (
	"os"
	"path/filepath"
	"testing"

	"hivearbiter/ratinglist"
	"hivearbiter/ratinglist/ratinglisttest"
)

// BenchmarkWrite writes the site of a list of 50 entrants and 100,000 games, as a list does
// after every batch: the target is under 2 s.
func BenchmarkWrite(b *testing.B) {
	l, recs := ratinglisttest.Synthetic(50, 100_000, 1)
	table, err := ratinglist.Compute(l, recs)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(dir, l, table, recs, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var size int64
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if info, err := d.Info(); err == nil && d.Type().IsRegular() {
			size += info.Size()
		}
		return nil
	})
	b.ReportMetric(float64(size)/(1<<20), "MiB/site")
}
