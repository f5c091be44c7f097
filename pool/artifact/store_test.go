package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/internal/testkit/natstest"
)

// helloEnv makes the test binary a tiny program that prints its greeting and exits: the
// program file a round trip must leave runnable.
const helloEnv = "ARTIFACT_TEST_HELLO"

func TestMain(m *testing.M) {
	if os.Getenv(helloEnv) != "" {
		os.Stdout.WriteString("hello from an artifact\n")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startServer starts an embedded NATS server with JetStream, as distributed.StartServer
// does, stored under the test's temporary directory, with the users given (none: anyone).
func startServer(t testing.TB, users ...*server.User) *server.Server {
	t.Helper()
	return natstest.Start(t, &server.Options{JetStream: true, StoreDir: t.TempDir(), Users: users})
}

// connect is a JetStream client of ns, in process. Asynchronous errors are not printed: the
// tests that provoke them look for them where they are returned.
func connect(t testing.TB, ns *server.Server, opts ...nats.Option) jetstream.JetStream {
	t.Helper()
	quiet := nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {})
	nc, err := nats.Connect("", append([]nats.Option{nats.InProcessServer(ns), quiet}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

func newStore(t testing.TB, lim Limits) (*Store, jetstream.ObjectStore) {
	t.Helper()
	js := connect(t, startServer(t))
	s, err := CreateStore(t.Context(), js, DefaultBucket, lim)
	if err != nil {
		t.Fatal(err)
	}
	obs, err := js.ObjectStore(t.Context(), DefaultBucket)
	if err != nil {
		t.Fatal(err)
	}
	return s, obs
}

// TestRoundTripBinary: a native program (the test binary) goes up as its own bytes, named by
// its own SHA-256 and tagged with this platform, and comes down as a program that runs.
func TestRoundTripBinary(t *testing.T) {
	s, _ := newStore(t, Limits{})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	m, sent, err := s.Upload(t.Context(), Source{Path: exe, Command: []string{exe, "-flag"}})
	if err != nil || !sent {
		t.Fatalf("upload: sent %v, %v", sent, err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	want := Manifest{SHA256: hex.EncodeToString(sum[:]), Kind: File, Size: int64(len(data)), Name: filepath.Base(exe),
		Platform: runtime.GOOS + "/" + runtime.GOARCH, Command: []string{"./" + filepath.Base(exe), "-flag"}}
	if !equalManifests(m, want) {
		t.Fatalf("manifest\n%+v, want\n%+v", m, want)
	}
	if stored, err := s.Stat(t.Context(), m.SHA256); err != nil || !equalManifests(stored, m) {
		t.Fatalf("stored manifest %+v, %v", stored, err)
	}
	f, err := s.Fetch(t.Context(), m, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(f.Dir, filepath.Base(exe)); f.Command[0] != want || !filepath.IsAbs(want) {
		t.Fatalf("command %q, want the program at %s", f.Command, want)
	}
	cmd := exec.Command(f.Command[0])
	cmd.Env = append(os.Environ(), helloEnv+"=1")
	out, err := cmd.Output()
	if err != nil || string(out) != "hello from an artifact\n" {
		t.Fatalf("the fetched program: %q, %v", out, err)
	}
}

func equalManifests(a, b Manifest) bool {
	return a.SHA256 == b.SHA256 && a.Kind == b.Kind && a.Size == b.Size && a.Name == b.Name &&
		a.Platform == b.Platform && a.Runtime == b.Runtime && strings.Join(a.Command, "\x00") == strings.Join(b.Command, "\x00")
}

// TestUploadIdempotent: the same bytes are sent once; a second upload finds them by name and
// leaves the stored object as it was.
func TestUploadIdempotent(t *testing.T) {
	s, obs := newStore(t, Limits{})
	file := writeFile(t, t.TempDir(), "engine.sh", "#!/bin/sh\necho engine\n", 0o755)
	m1, sent1, err := s.Upload(t.Context(), Source{Path: file})
	if err != nil || !sent1 {
		t.Fatalf("first upload: sent %v, %v", sent1, err)
	}
	before, err := obs.GetInfo(t.Context(), m1.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	m2, sent2, err := s.Upload(t.Context(), Source{Path: file})
	if err != nil || sent2 || m2.SHA256 != m1.SHA256 {
		t.Fatalf("second upload: sent %v, sha %s (first %s), %v", sent2, m2.SHA256, m1.SHA256, err)
	}
	after, err := obs.GetInfo(t.Context(), m1.SHA256)
	if err != nil || after.NUID != before.NUID {
		t.Fatalf("the object was written again: NUID %s, then %s (%v)", before.NUID, after.NUID, err)
	}
	if m1.Platform != AnyPlatform || m1.Runtime != "sh" {
		t.Errorf("a #!/bin/sh script: platform %q runtime %q, want any and sh", m1.Platform, m1.Runtime)
	}
}

// TestSizeLimit: an artifact over the limit is refused before it is sent, and a worker with a
// lower limit refuses to fetch one.
func TestSizeLimit(t *testing.T) {
	s, obs := newStore(t, Limits{MaxSize: 1000})
	file := writeFile(t, t.TempDir(), "big.sh", "#!/bin/sh\n"+strings.Repeat("#", 2000)+"\n", 0o755)
	_, _, err := s.Upload(t.Context(), Source{Path: file})
	if tl, ok := errors.AsType[*TooLargeError](err); !ok || tl.Max != 1000 {
		t.Fatalf("upload of 2 kB with a limit of 1000: %v", err)
	}
	if !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("message %q does not say what is wrong", err)
	}
	if names, _ := obs.List(t.Context()); len(names) != 0 {
		t.Fatalf("something was stored: %v", names)
	}

	generous := NewStore(obs, Limits{MaxSize: 1 << 20})
	m, _, err := generous.Upload(t.Context(), Source{Path: file})
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	if _, err := s.Fetch(t.Context(), m, cache); !isTooLarge(err) {
		t.Fatalf("fetch of 2 kB with a limit of 1000: %v", err)
	}
	m.Size = 10 // a manifest that lies about the size: the store's object info is checked too
	if _, err := s.Fetch(t.Context(), m, cache); !isTooLarge(err) {
		t.Fatalf("fetch of 2 kB, said to be 10 bytes, with a limit of 1000: %v", err)
	}
	assertEmpty(t, cache)
}

func isTooLarge(err error) bool {
	_, ok := errors.AsType[*TooLargeError](err)
	return ok
}

// TestFetchRefusesSubstituted: an object whose bytes are not those its name hashes (written
// by someone who could write to the bucket, or corrupted) is refused with a
// *HashMismatchError, and nothing of it reaches the cache.
func TestFetchRefusesSubstituted(t *testing.T) {
	s, obs := newStore(t, Limits{})
	dir := t.TempDir()
	good := writeFile(t, dir, "engine.sh", "#!/bin/sh\necho good\n", 0o755)
	m, _, err := s.Upload(t.Context(), Source{Path: good})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := obs.PutBytes(t.Context(), m.SHA256, []byte("#!/bin/sh\necho evil\n")); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	_, err = s.Fetch(t.Context(), m, cache)
	mismatch, ok := errors.AsType[*HashMismatchError](err)
	if !ok || mismatch.Want != m.SHA256 || mismatch.Got == "" {
		t.Fatalf("fetch of a substituted object: %v", err)
	}
	assertEmpty(t, cache)

	// Submitting the engine again puts the right bytes back.
	if _, sent, err := s.Upload(t.Context(), Source{Path: good}); err != nil || !sent {
		t.Fatalf("upload over a substituted object: sent %v, %v", sent, err)
	}
	if _, err := s.Fetch(t.Context(), m, cache); err != nil {
		t.Fatalf("fetch after the upload that repaired it: %v", err)
	}
}

// TestFetchCacheHit: a second fetch of an artifact reads nothing from the store: it works
// with the object deleted.
func TestFetchCacheHit(t *testing.T) {
	s, obs := newStore(t, Limits{})
	file := writeFile(t, t.TempDir(), "engine.sh", "#!/bin/sh\necho cached\n", 0o755)
	m, _, err := s.Upload(t.Context(), Source{Path: file})
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	first, err := s.Fetch(t.Context(), m, cache)
	if err != nil {
		t.Fatal(err)
	}
	if err := obs.Delete(t.Context(), m.SHA256); err != nil {
		t.Fatal(err)
	}
	second, err := s.Fetch(t.Context(), m, cache)
	if err != nil || second.Dir != first.Dir || second.Command[0] != first.Command[0] {
		t.Fatalf("second fetch: %+v, %v (first %+v)", second, err, first)
	}
	if _, err := s.Fetch(t.Context(), m, t.TempDir()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("fetch of a deleted object into an empty cache: %v", err)
	}
	entries, _ := os.ReadDir(cache)
	if len(entries) != 1 || entries[0].Name() != m.SHA256 {
		t.Fatalf("cache holds %v, want only %s", entries, m.SHA256)
	}
}

// assertEmpty fails unless dir holds nothing: no partial download, no half-unpacked tree.
func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 0 {
		t.Fatalf("%s holds %v (%v), want nothing", dir, entries, err)
	}
}

func writeFile(t testing.TB, dir, name, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // past the umask
		t.Fatal(err)
	}
	return p
}

// TestReadSubjects: a user allowed only ReadSubjects (and its inboxes) fetches an artifact,
// and can neither upload one nor write over one; a user allowed WriteSubjects uploads, writes
// over an object, and cannot delete the bucket.
func TestReadSubjects(t *testing.T) {
	ns := startServer(t, &server.User{Username: "server", Password: "s"},
		&server.User{Username: "worker", Password: "w", Permissions: &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: ReadSubjects(DefaultBucket)},
			Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX.>"}},
		}},
		&server.User{Username: "submitter", Password: "u", Permissions: &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: WriteSubjects(DefaultBucket)},
			Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX.>"}},
		}})
	if _, err := CreateStore(t.Context(), connect(t, ns, nats.UserInfo("server", "s")), DefaultBucket, Limits{}); err != nil {
		t.Fatal(err)
	}
	submitterJS := connect(t, ns, nats.UserInfo("submitter", "u"))
	submitterObs, err := submitterJS.ObjectStore(t.Context(), DefaultBucket)
	if err != nil {
		t.Fatal(err)
	}
	submitter := NewStore(submitterObs, Limits{})
	file := writeFile(t, t.TempDir(), "engine.sh", "#!/bin/sh\necho engine\n"+strings.Repeat("#", 3*ChunkSize)+"\n", 0o755)
	if _, err := submitterObs.PutString(t.Context(), "decoy", "x"); err != nil {
		t.Fatalf("a writer writing: %v", err)
	}
	if _, err := submitterObs.PutString(t.Context(), "decoy", "y"); err != nil {
		t.Fatalf("a writer writing over an object: %v", err)
	}
	m, _, err := submitter.Upload(t.Context(), Source{Path: file})
	if err != nil {
		t.Fatalf("a writer uploading: %v", err)
	}
	dctx, dcancel := context.WithTimeout(t.Context(), time.Second)
	defer dcancel()
	if err := submitterJS.DeleteObjectStore(dctx, DefaultBucket); err == nil {
		t.Fatal("a writer deleted the bucket")
	}

	workerJS := connect(t, ns, nats.UserInfo("worker", "w"))
	obs, err := workerJS.ObjectStore(t.Context(), DefaultBucket)
	if err != nil {
		t.Fatal(err)
	}
	worker := NewStore(obs, Limits{})
	if _, err := worker.Fetch(t.Context(), m, t.TempDir()); err != nil {
		t.Fatalf("a reader fetching: %v", err)
	}
	other := writeFile(t, t.TempDir(), "other.sh", "#!/bin/sh\necho other\n", 0o755)
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	if _, _, err := worker.Upload(ctx, Source{Path: other}); err == nil {
		t.Fatal("a reader uploaded an artifact")
	}
	if _, err := obs.PutBytes(ctx, m.SHA256, []byte("evil")); err == nil {
		t.Fatal("a reader wrote over an artifact")
	}
}

// TestFetchOutlastsTheDefaultTimeout: a download is not bounded by the object store's default
// timeout for one request, which it would give the whole download of a large artifact when the
// caller's context has no deadline. (The default timeout here is a millisecond, so that any
// download outlasts it.)
func TestFetchOutlastsTheDefaultTimeout(t *testing.T) {
	js := connect(t, startServer(t), nats.Name("slow"))
	hasty, err := jetstream.New(js.Conn(), jetstream.WithDefaultTimeout(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CreateStore(t.Context(), js, DefaultBucket, Limits{}); err != nil {
		t.Fatal(err)
	}
	bind, cancel := context.WithTimeout(t.Context(), 10*time.Second) // bound by the test, not by the default
	defer cancel()
	obs, err := hasty.ObjectStore(bind, DefaultBucket)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(obs, Limits{})
	file := writeFile(t, t.TempDir(), "big.sh", "#!/bin/sh\n"+strings.Repeat("#", 4<<20)+"\n", 0o755)
	m, _, err := s.Upload(t.Context(), Source{Path: file})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Fetch(t.Context(), m, t.TempDir()); err != nil {
		t.Fatalf("a fetch that takes longer than the store's default timeout: %v", err)
	}
}
