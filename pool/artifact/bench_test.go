package artifact

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// BenchmarkPackUploadFetch10MB: a 10 MB program (random bytes behind an ELF-less #! line, so
// that nothing compresses it) submitted and fetched into an empty cache: pack and hash, upload
// in chunks to an embedded JetStream server on file storage, download, verify, write. Each
// round changes the bytes, so that no upload is skipped and no fetch is a cache hit.
// The memory variant keeps the bucket in memory, to tell the server's disk from the rest.
func BenchmarkPackUploadFetch10MB(b *testing.B) {
	for _, storage := range []jetstream.StorageType{jetstream.FileStorage, jetstream.MemoryStorage} {
		b.Run(storage.String(), func(b *testing.B) {
			obs, err := connect(b, startServer(b)).CreateObjectStore(b.Context(), jetstream.ObjectStoreConfig{Bucket: DefaultBucket, Storage: storage})
			if err != nil {
				b.Fatal(err)
			}
			benchmarkPackUploadFetch(b, NewStore(obs, Limits{}))
		})
	}
}

func benchmarkPackUploadFetch(b *testing.B, s *Store) {
	data := make([]byte, 10<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i+8 <= len(data); i += 8 {
		binary.LittleEndian.PutUint64(data[i:], rng.Uint64())
	}
	copy(data, "#!/bin/sh\n#")
	dir := b.TempDir()
	program := filepath.Join(dir, "engine")
	cache := filepath.Join(dir, "cache")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	round := uint64(0)
	for b.Loop() {
		round++
		binary.LittleEndian.PutUint64(data[16:], round)
		if err := os.WriteFile(program, data, 0o755); err != nil {
			b.Fatal(err)
		}
		m, sent, err := s.Upload(b.Context(), Source{Path: program})
		if err != nil || !sent {
			b.Fatalf("upload: sent %v, %v", sent, err)
		}
		if _, err := s.Fetch(b.Context(), m, cache); err != nil {
			b.Fatal(err)
		}
	}
}
