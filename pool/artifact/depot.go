package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Depot keeps copies of a store's artifacts on the server's disk, each checked against its
// SHA-256 as it is copied, and reads them piece by piece: for a pool's server, which hands
// artifacts out to the workers of the runs that use them instead of letting workers read the
// store. An object store reads an object from its start only; a copy is read at any offset.
type Depot struct {
	store *Store
	dir   string
	// mu guards what follows, and is held only to read or change it: never while a copy is
	// made, so that the first copy of one artifact does not hold up the pieces of others.
	mu sync.Mutex
	// checked are the copies hashed by this process: a copy found on disk is checked once
	// before it is handed out, so that one cut short by a power loss is made again, not
	// handed out for ever.
	checked map[string]bool
	// copying are the artifacts being copied (or checked), each closed when done: two workers
	// asking for a new artifact at once wait for one copy.
	copying map[string]chan struct{}
	// bad are the artifacts whose copy failed for good (their bytes do not hash to their
	// name, or are over the limit), with when: asked for again within badFor, they fail at
	// once instead of being read from the store again.
	bad map[string]badCopy
}

type badCopy struct {
	err error
	at  time.Time
}

// badFor is how long a copy that failed for good is not tried again: as long as a worker
// keeps away from a run it cannot play.
const badFor = 10 * time.Minute

// NewDepot keeps its copies in dir (made when first needed). Deleting dir, or a copy in it,
// is safe while no worker is being handed one: a copy is made again when asked for.
// The partial copies a server killed while copying left behind are removed now, before any
// copy of this one's is begun.
func NewDepot(s *Store, dir string) *Depot {
	if partial, err := filepath.Glob(filepath.Join(dir, ".fetch-*")); err == nil {
		for _, p := range partial {
			os.Remove(p)
		}
	}
	return &Depot{store: s, dir: dir, checked: map[string]bool{}, copying: map[string]chan struct{}{}, bad: map[string]badCopy{}}
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

// open opens the copy of an artifact, made first if there is none, and checked against its
// name the first time this process opens it.
func (d *Depot) open(ctx context.Context, sha string) (*os.File, error) {
	path := filepath.Join(d.dir, sha)
	for {
		d.mu.Lock()
		if b, ok := d.bad[sha]; ok && time.Since(b.at) < badFor {
			d.mu.Unlock()
			return nil, b.err
		}
		if d.checked[sha] {
			d.mu.Unlock()
			if f, err := os.Open(path); err == nil {
				return f, nil
			}
			d.mu.Lock()
			delete(d.checked, sha) // removed by hand: made again
			d.mu.Unlock()
			continue
		}
		if wait, busy := d.copying[sha]; busy {
			d.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, fmt.Errorf("artifact: %s: waiting for its copy: %w", sha, ctx.Err())
			}
		}
		done := make(chan struct{})
		d.copying[sha] = done
		d.mu.Unlock()
		f, err := d.openChecked(sha, path)
		if err != nil {
			if err = d.copy(ctx, sha, path); err == nil {
				if f, err = os.Open(path); err != nil {
					err = fmt.Errorf("artifact: %w", err)
				}
			}
		}
		d.mu.Lock()
		delete(d.copying, sha)
		close(done)
		var hash *HashMismatchError
		var large *TooLargeError
		switch {
		case err == nil:
			d.checked[sha] = true
			delete(d.bad, sha)
		case errors.As(err, &hash) || errors.As(err, &large):
			d.bad[sha] = badCopy{err, time.Now()}
		}
		d.mu.Unlock()
		return f, err
	}
}

// openChecked opens a copy on disk that hashes to its name, or removes it.
func (d *Depot) openChecked(sha, path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil || hex.EncodeToString(h.Sum(nil)) != sha {
		f.Close()
		os.Remove(path)
		return nil, &HashMismatchError{Want: sha, Got: hex.EncodeToString(h.Sum(nil))}
	}
	return f, nil
}

// copy copies an artifact from the store to path, synced before it is renamed into place, so
// that a copy is whole or absent.
func (d *Depot) copy(ctx context.Context, sha, path string) error {
	if err := os.MkdirAll(d.dir, 0o700); err != nil {
		return fmt.Errorf("artifact: %w", err)
	}
	size, err := d.store.size(ctx, sha)
	if err != nil {
		return err
	}
	blob, err := d.store.download(ctx, sha, size, d.dir)
	if err != nil {
		return err
	}
	err = blob.Sync()
	blob.Close() // before the rename, which Windows refuses an open file
	if err == nil {
		err = os.Rename(blob.Name(), path)
	}
	if err != nil {
		os.Remove(blob.Name())
		return fmt.Errorf("artifact: %w", err)
	}
	return nil
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
	delete(d.checked, sha)
	delete(d.bad, sha)
	if err := os.Remove(filepath.Join(d.dir, sha)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("artifact: %w", err)
	}
	return nil
}
