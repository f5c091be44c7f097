package ratinglist_test

import (
	"testing"

	"hivearbiter/ratinglist"
	"hivearbiter/ratinglist/ratinglisttest"
)

// BenchmarkCompute recomputes the table of a list of 50 entrants from 100,000 games, as a
// list does after every batch. The target is under a second on one core.
func BenchmarkCompute(b *testing.B) {
	l, recs := ratinglisttest.Synthetic(50, 100_000, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ratinglist.Compute(l, recs); err != nil {
			b.Fatal(err)
		}
	}
}
