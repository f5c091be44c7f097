package pool

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"hivearbiter/distributed"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/pool/artifact"
)

// BenchmarkArtifactFetch fetches a 20 MB artifact into an empty cache, over loopback TCP:
// straight from the object store, as workers did before the server handed artifacts out
// (direct, on the server's own connection); through the server, from the copy it keeps (relay); through the server, which
// copies the artifact from the object store first (relay-cold); and the server's own reads
// of its copy, in the pieces it sends (depot). It reports the CPU time of this process per
// fetch: the NATS server's, the pool's server's and the worker's together.
func BenchmarkArtifactFetch(b *testing.B) {
	p := newTestPool(b)
	m, _ := uploadArtifact(b, p.submitter, 20<<20)
	st := submitWithArtifact(b, p, m, 1)
	nc, err := distributed.Dial(p.addWorker("alice"), "bench")
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	obs, err := p.srv.js.ObjectStore(context.Background(), artifact.DefaultBucket)
	if err != nil {
		b.Fatal(err)
	}
	copies := filepath.Join(p.dir, "artifacts")
	for _, bc := range []struct {
		name string
		from artifact.Getter
		cold bool
	}{
		{"direct", artifact.NewStore(obs, artifact.Limits{}), false},
		{"relay", relayGetter{nc: nc, worker: "alice"}, false},
		{"relay-cold", relayGetter{nc: nc, worker: "alice"}, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			f := artifact.NewFetcher(bc.from, artifact.Limits{})
			b.SetBytes(m.Size)
			var cpu int64
			for b.Loop() {
				b.StopTimer()
				if a := assign(b, nc, "alice", m); a.Run != st.ID { // an assignment lasts a batch
					b.Fatalf("alice was assigned %+v", a)
				}
				if bc.cold {
					os.RemoveAll(copies)
				}
				cache := b.TempDir()
				cpu0 := testenv.CPUTime(b)
				b.StartTimer()
				if _, err := f.Fetch(context.Background(), m, cache); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cpu += int64(testenv.CPUTime(b) - cpu0)
				os.RemoveAll(cache)
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
	b.Run("depot", func(b *testing.B) {
		b.SetBytes(m.Size)
		buf := make([]byte, relayChunk(p.srv.nc.MaxPayload()))
		cpu0 := testenv.CPUTime(b)
		for b.Loop() {
			for off := int64(0); off < m.Size; {
				n, _, err := p.srv.depot.ReadAt(context.Background(), m.SHA256, buf, off)
				if err != nil {
					b.Fatal(err)
				}
				off += int64(n)
			}
		}
		b.ReportMetric(float64((testenv.CPUTime(b)-cpu0).Nanoseconds())/1e6/float64(b.N), "cpu-ms/op")
	})
}
