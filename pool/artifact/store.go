package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/internal/proc"
)

// DefaultBucket is the object store bucket of a pool's artifacts.
const DefaultBucket = "arbiter-artifacts"

// ChunkSize is the size of the messages an artifact is sent in: four times the object store's
// default, for fewer messages per artifact. A server's max_payload must be larger (NATS's
// default is 1 MiB).
const ChunkSize = 512 << 10

// manifestKey is the object metadata key that holds the manifest of the first upload.
const manifestKey = "arbiter-manifest"

// ErrNotFound is an artifact that is not in the store.
var ErrNotFound = errors.New("artifact: not in the store")

// HashMismatchError is an object whose bytes do not hash to its name: corrupted, or
// substituted by someone who could write to the bucket. Nothing of it is unpacked.
type HashMismatchError struct {
	Want, Got string // hex SHA-256; Got is empty when the store's own digest check failed
	Err       error  // the store's error, if it found the mismatch first
}

// Error names the object and what its bytes hash to instead, or the store's error that found it
// corrupt.
func (e *HashMismatchError) Error() string {
	if e.Got == "" {
		return fmt.Sprintf("artifact: %s: the object is corrupt: %v", e.Want, e.Err)
	}
	return fmt.Sprintf("artifact: %s: the object's bytes hash to %s, not to its name (corrupted or substituted)", e.Want, e.Got)
}

// Unwrap returns the store's error, if it found the mismatch first.
func (e *HashMismatchError) Unwrap() error { return e.Err }

// Store is a pool's artifacts in a JetStream object store, with the limits every artifact is
// held to. It fetches from the store itself (its Fetcher's Getter is the Store).
type Store struct {
	*Fetcher
	obs    jetstream.ObjectStore
	limits Limits
}

// NewStore uses an object store bound elsewhere (jetstream.JetStream.ObjectStore).
func NewStore(obs jetstream.ObjectStore, lim Limits) *Store {
	s := &Store{obs: obs, limits: lim.withDefaults()}
	s.Fetcher = NewFetcher(s, lim)
	return s
}

// A Getter reads an artifact's packed bytes by their SHA-256: the object store (a Store), or
// whoever hands the store's artifacts out (a pool's workers ask the pool's server).
type Getter interface {
	// Get returns the artifact's size and a reader of its bytes, or an error wrapping
	// ErrNotFound when there is no such artifact. The reader is read within ctx.
	Get(ctx context.Context, sha string) (int64, io.ReadCloser, error)
}

// Fetcher fetches artifacts from a Getter into a worker's cache, and checks what it reads.
type Fetcher struct {
	from   Getter
	limits Limits
}

// NewFetcher fetches from g, with the limits every artifact is held to.
func NewFetcher(g Getter, lim Limits) *Fetcher {
	return &Fetcher{from: g, limits: lim.withDefaults()}
}

// CreateStore creates the bucket, or binds to it when it exists: for the server. Workers and
// submitters bind with jetstream.JetStream.ObjectStore and NewStore.
func CreateStore(ctx context.Context, js jetstream.JetStream, bucket string, lim Limits) (*Store, error) {
	obs, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket:      bucket,
		Description: "Hive Arbiter engines, named by the SHA-256 of their bytes",
		Storage:     jetstream.FileStorage,
	})
	if err != nil {
		return nil, fmt.Errorf("artifact: bucket %s: %w", bucket, err)
	}
	return NewStore(obs, lim), nil
}

// Upload packs src and puts it in the store under its SHA-256, unless an object of that name
// is there already. It returns the manifest and whether the bytes were sent. An artifact over
// the size limit is refused with a *TooLargeError before anything is sent.
func (s *Store) Upload(ctx context.Context, src Source) (Manifest, bool, error) {
	tmp, err := os.CreateTemp("", "arbiter-artifact-*")
	if err != nil {
		return Manifest{}, false, fmt.Errorf("artifact: %w", err)
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	m, err := Pack(src, &limitWriter{w: tmp, max: s.limits.MaxSize})
	if err != nil {
		return Manifest{}, false, err
	}
	ctx, cancel := transferContext(ctx, m.Size)
	defer cancel()
	// An object of this name whose own digest is another (written over by hand) is replaced.
	if info, err := s.obs.GetInfo(ctx, m.SHA256); err == nil && !info.Deleted && sameDigest(info.Digest, m.SHA256) {
		return m, false, nil
	} else if err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		return Manifest{}, false, fmt.Errorf("artifact: %w", err)
	}
	meta, err := json.Marshal(m)
	if err != nil {
		return Manifest{}, false, err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return Manifest{}, false, fmt.Errorf("artifact: %w", err)
	}
	_, err = s.obs.Put(ctx, jetstream.ObjectMeta{
		Name:     m.SHA256,
		Metadata: map[string]string{manifestKey: string(meta)},
		Opts:     &jetstream.ObjectMetaOptions{ChunkSize: ChunkSize},
	}, tmp)
	if err != nil {
		return Manifest{}, false, fmt.Errorf("artifact: uploading %s: %w", src.Path, err)
	}
	return m, true, nil
}

// sameDigest says whether an object store digest ("SHA-256=" and the base64 of the sum) is
// that of a hex SHA-256.
func sameDigest(digest, sha string) bool {
	got, err := jetstream.DecodeObjectDigest(digest)
	return err == nil && hex.EncodeToString(got) == sha
}

// Stat returns the manifest stored with an artifact (that of its first upload), or an error
// wrapping ErrNotFound.
func (s *Store) Stat(ctx context.Context, sha string) (Manifest, error) {
	info, err := s.obs.GetInfo(ctx, sha)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return Manifest{}, fmt.Errorf("%w: %s", ErrNotFound, sha)
	}
	if err != nil {
		return Manifest{}, fmt.Errorf("artifact: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal([]byte(info.Metadata[manifestKey]), &m); err != nil {
		return Manifest{}, fmt.Errorf("artifact: %s: no manifest stored with it: %w", sha, err)
	}
	return m, m.Check()
}

// Fetched is an artifact unpacked in a worker's cache.
type Fetched struct {
	Manifest
	Dir string // the artifact's root, named by its SHA-256 under the cache directory
	// Command is the manifest's command with a program inside the artifact as an absolute
	// path.
	Command []string
}

// Fetch returns the artifact of m unpacked under cache, fetching it when it is not there yet.
// The bytes read are hashed and must hash to m.SHA256 (a *HashMismatchError otherwise), and
// only then unpacked: into a directory beside the final one, renamed into place when whole,
// so that a cache directory named by a hash always holds that hash's tree and a second fetch
// reads nothing from the store.
func (s *Fetcher) Fetch(ctx context.Context, m Manifest, cache string) (Fetched, error) {
	if err := m.Check(); err != nil {
		return Fetched{}, err
	}
	final := filepath.Join(cache, m.SHA256)
	if st, err := os.Lstat(final); err == nil && st.IsDir() {
		return fetched(m, final)
	}
	if m.Size > s.limits.MaxSize {
		return Fetched{}, &TooLargeError{What: "artifact " + m.SHA256, Size: m.Size, Max: s.limits.MaxSize}
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return Fetched{}, fmt.Errorf("artifact: cache: %w", err)
	}
	blob, err := s.download(ctx, m.SHA256, m.Size, cache)
	if err != nil {
		return Fetched{}, err
	}
	defer os.Remove(blob.Name())
	defer blob.Close()
	tmp, err := os.MkdirTemp(cache, ".unpack-*")
	if err != nil {
		return Fetched{}, fmt.Errorf("artifact: cache: %w", err)
	}
	defer os.RemoveAll(tmp) // gone once renamed
	if err := s.unpack(m, blob, tmp); err != nil {
		return Fetched{}, err
	}
	f, err := fetched(m, tmp)
	if err != nil {
		return Fetched{}, err
	}
	if err := os.Rename(tmp, final); err != nil {
		if st, serr := os.Lstat(final); serr != nil || !st.IsDir() {
			return Fetched{}, fmt.Errorf("artifact: cache: %w", err)
		} // another fetch of the same hash put it there first
	}
	return fetched(f.Manifest, final)
}

// download reads an artifact of the given size into a temporary file under dir, hashing it on
// the way. The whole of it, the request for the object's info included, is bounded by the
// transfer's time and not by the store's default for one request.
func (s *Fetcher) download(ctx context.Context, sha string, size int64, dir string) (*os.File, error) {
	ctx, cancel := transferContext(ctx, size)
	defer cancel()
	got, r, err := s.from.Get(ctx, sha)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if got > s.limits.MaxSize {
		return nil, &TooLargeError{What: "artifact " + sha, Size: got, Max: s.limits.MaxSize}
	}
	f, err := os.CreateTemp(dir, ".fetch-*")
	if err != nil {
		return nil, fmt.Errorf("artifact: cache: %w", err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(r, s.limits.MaxSize+1))
	switch got := hex.EncodeToString(h.Sum(nil)); {
	case errors.Is(err, jetstream.ErrDigestMismatch):
		err = &HashMismatchError{Want: sha, Err: err}
	case err != nil:
		err = fmt.Errorf("artifact: %s: %w", sha, err)
	case n > s.limits.MaxSize:
		err = &TooLargeError{What: "artifact " + sha, Size: n, Max: s.limits.MaxSize}
	case got != sha:
		err = &HashMismatchError{Want: sha, Got: got}
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}

// Get reads an object of the store: its size, refused over the store's limit before any of
// its chunks is read, and its bytes, which the object store checks against the digest it
// stored with them (a jetstream.ErrDigestMismatch from the reader otherwise).
func (s *Store) Get(ctx context.Context, sha string) (int64, io.ReadCloser, error) {
	size, err := s.size(ctx, sha)
	if err != nil {
		return 0, nil, err
	}
	r, err := s.obs.Get(ctx, sha)
	if err != nil {
		return 0, nil, fmt.Errorf("artifact: %s: %w", sha, err)
	}
	return size, r, nil
}

// size is an object's size, refused over the store's limit.
func (s *Store) size(ctx context.Context, sha string) (int64, error) {
	info, err := s.obs.GetInfo(ctx, sha)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return 0, fmt.Errorf("%w: %s", ErrNotFound, sha)
	}
	if err != nil {
		return 0, fmt.Errorf("artifact: %w", err)
	}
	if int64(info.Size) > s.limits.MaxSize {
		return 0, &TooLargeError{What: "artifact " + sha, Size: int64(info.Size), Max: s.limits.MaxSize}
	}
	return int64(info.Size), nil
}

// MinRate is the slowest transfer an upload or a fetch waits for, in bytes per second, after a minute's
// grace, when its context has no deadline of its own.
const MinRate = 1 << 20

// transferContext bounds the transfer of size bytes, unless ctx has a deadline: without one,
// the object store would give a whole download, or the acknowledgements of an upload, its
// default timeout for one request (5 s), too short for a large artifact.
func transferContext(ctx context.Context, size int64) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, time.Minute+time.Duration(size/MinRate)*time.Second)
}

// unpack lays out verified bytes in dir: a file as itself, executable; a directory's tree.
func (s *Fetcher) unpack(m Manifest, blob io.Reader, dir string) error {
	if err := os.Chmod(dir, 0o755); err != nil {
		return wrap(err)
	}
	if m.Kind == Dir {
		return unpackDir(blob, dir, s.limits)
	}
	f, err := os.OpenFile(filepath.Join(dir, m.Name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return wrap(err)
	}
	_, err = io.Copy(f, blob)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return wrap(err)
}

// fetched resolves a manifest's command in the artifact's root dir: a program inside the
// artifact becomes an absolute path, and must be there and executable.
func fetched(m Manifest, dir string) (Fetched, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Fetched{}, fmt.Errorf("artifact: %w", err)
	}
	cmd := slices.Clone(m.Command)
	if isPath(cmd[0]) {
		if err := proc.Locate(cmd[0], abs); err != nil {
			return Fetched{}, fmt.Errorf("artifact: %s: %w", m.SHA256, err)
		}
		cmd[0] = filepath.Join(abs, filepath.FromSlash(cmd[0]))
	}
	return Fetched{Manifest: m, Dir: abs, Command: cmd}, nil
}

// limitWriter fails a write that would take it over max bytes.
type limitWriter struct {
	w   io.Writer
	n   int64
	max int64
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if l.n+int64(len(p)) > l.max {
		return 0, &TooLargeError{What: "artifact", Size: l.n + int64(len(p)), Max: l.max}
	}
	n, err := l.w.Write(p)
	l.n += int64(n)
	return n, err
}

// ReadSubjects are the subjects a NATS user must be allowed to publish to to fetch artifacts
// from bucket, and nothing that writes to it: bind to the bucket, read an object's info
// (direct get), create the ordered consumer that delivers its chunks, and answer that
// consumer's flow control. The user must also be allowed to subscribe to its inboxes, where
// the chunks arrive. A pool's workers are not given them: a user allowed them reads every
// artifact, and the pool's server hands each worker only its runs' (a Depot).
func ReadSubjects(bucket string) []string {
	stream := "OBJ_" + bucket
	return []string{
		"$JS.API.STREAM.INFO." + stream,
		"$JS.API.DIRECT.GET." + stream + ".>",
		"$JS.API.CONSUMER.CREATE." + stream + ".>",
		"$JS.FC." + stream + ".>",
	}
}

// WriteSubjects are the subjects a NATS user must be allowed to publish to to upload artifacts
// to bucket (a submitter): those of ReadSubjects, the bucket's chunks and object infos, and the
// purge of an object's old chunks when it is written again. They do not let it delete the
// bucket.
func WriteSubjects(bucket string) []string {
	return append(ReadSubjects(bucket), "$O."+bucket+".>", "$JS.API.STREAM.PURGE.OBJ_"+bucket)
}
