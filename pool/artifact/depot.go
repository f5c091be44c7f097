package artifact

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/nats-io/nats.go/jetstream"
)

// Depot keeps copies of a store's artifacts on the server's disk, each checked against its
// SHA-256 as it is copied, and reads them piece by piece: for a pool's server, which hands
// artifacts out to the workers of the runs that use them instead of letting workers read the
// store. An object store reads an object from its start only; a copy is read at any offset.
type Depot struct {
	store *Store
	dir   string
	// mu lets one copy be made at a time: two workers asking for a new artifact at once wait
	// for one copy.
	mu sync.Mutex
}

// NewDepot keeps its copies in dir (made when first needed). Deleting dir, or a copy in it,
// is safe while no worker is being handed one: a copy is made again when asked for.
func NewDepot(s *Store, dir string) *Depot {
	return &Depot{store: s, dir: dir}
}

// ErrBadName is an artifact asked for by a name that is not a SHA-256.
var ErrBadName = errors.New("artifact: a name is the hex SHA-256 of the artifact's bytes")

// checkName refuses a name that is not a hex SHA-256, so that no name reaches another path.
func checkName(sha string) error {
	if b, err := hex.DecodeString(sha); err != nil || len(b) != 32 || hex.EncodeToString(b) != sha {
		return fmt.Errorf("%w: %q", ErrBadName, sha)
	}
	return nil
}

// ReadAt reads into p the artifact's bytes from off on, copying the artifact from the store
// first if it has no copy yet, and returns how many bytes it read (fewer than len(p) only at
// the end) and the artifact's size. An artifact the store does not have is an error wrapping
// ErrNotFound; one whose bytes do not hash to its name, a *HashMismatchError.
func (d *Depot) ReadAt(ctx context.Context, sha string, p []byte, off int64) (int, int64, error) {
	if err := checkName(sha); err != nil {
		return 0, 0, err
	}
	f, err := d.open(ctx, sha)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, 0, fmt.Errorf("artifact: %w", err)
	}
	if off < 0 || off > st.Size() {
		return 0, 0, fmt.Errorf("artifact: %s: offset %d is outside its %d bytes", sha, off, st.Size())
	}
	n, err := f.ReadAt(p, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, 0, fmt.Errorf("artifact: %w", err)
	}
	return n, st.Size(), nil
}

// open opens the copy of an artifact, made first if there is none.
func (d *Depot) open(ctx context.Context, sha string) (*os.File, error) {
	path := filepath.Join(d.dir, sha)
	if f, err := os.Open(path); err == nil {
		return f, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if f, err := os.Open(path); err == nil { // made while this one waited
		return f, nil
	}
	if err := os.MkdirAll(d.dir, 0o700); err != nil {
		return nil, fmt.Errorf("artifact: %w", err)
	}
	size, err := d.store.size(ctx, sha)
	if err != nil {
		return nil, err
	}
	blob, err := d.store.download(ctx, sha, size, d.dir)
	if err != nil {
		return nil, err
	}
	blob.Close() // before the rename, which Windows refuses an open file
	if err := os.Rename(blob.Name(), path); err != nil {
		os.Remove(blob.Name())
		return nil, fmt.Errorf("artifact: %w", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("artifact: %w", err)
	}
	return f, nil
}

// Has says whether the store holds an artifact: nil, or an error wrapping ErrNotFound.
func (d *Depot) Has(ctx context.Context, sha string) error {
	_, err := d.store.Stat(ctx, sha)
	return err
}

// Forget deletes an artifact from the store and its copy from the depot, when no run uses it
// any more: a pool that lives for months would otherwise keep every build ever submitted. An
// artifact that is not there is not an error.
func (d *Depot) Forget(ctx context.Context, sha string) error {
	if err := checkName(sha); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.store.obs.Delete(ctx, sha); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		return fmt.Errorf("artifact: deleting %s: %w", sha, err)
	}
	if err := os.Remove(filepath.Join(d.dir, sha)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("artifact: %w", err)
	}
	return nil
}
