package pool

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/internal/testkit/natstest"
	"hivearbiter/pool/artifact"
)

// uploadArtifact uploads a program of size random bytes as a submitter does, and returns its
// manifest and bytes.
func uploadArtifact(tb testing.TB, c *Client, size int) (artifact.Manifest, []byte) {
	tb.Helper()
	data := append([]byte("#!/bin/sh\nexit 0\n"), rand.Text()...)
	data = append(data, make([]byte, max(size-len(data), 0))...)
	rand.Read(data[len(data)/2:])
	path := filepath.Join(tb.TempDir(), "engine")
	if err := os.WriteFile(path, data, 0o755); err != nil {
		tb.Fatal(err)
	}
	ms, _, err := c.UploadEngines(context.Background(), []driver.EngineConfig{{Name: "up", Command: []string{path}}})
	if err != nil {
		tb.Fatal(err)
	}
	return ms[0], data
}

// submitWithArtifact submits a run one of whose engines is the artifact m (the run's workers
// need not play it: what is tested is who may fetch it).
func submitWithArtifact(tb testing.TB, p *testPool, m artifact.Manifest, seed int64) *RunState {
	tb.Helper()
	sub := fakeSubmission(tb, 50, seed, nil)
	sub.Platforms, sub.Manifests = nil, []artifact.Manifest{m, {}}
	st, err := p.submitter.Submit(context.Background(), sub)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// assign asks for a worker's work on its own connection, as a worker whose host runs m.
func assign(tb testing.TB, nc *nats.Conn, worker string, m artifact.Manifest) Assignment {
	tb.Helper()
	b, _ := json.Marshal(AssignRequest{Worker: worker, Slots: 1, Platform: m.Platform, Runtimes: []string{m.Runtime}})
	reply, err := nc.Request(assignSubject(worker), b, 5*time.Second)
	if err != nil {
		tb.Fatalf("%s asking for work: %v", worker, err)
	}
	var a Assignment
	if err := json.Unmarshal(reply.Data, &a); err != nil {
		tb.Fatal(err)
	}
	return a
}

// TestWorkerCannotReadArtifacts: a worker can neither read the artifacts' bucket's stream nor
// create a consumer on it nor direct-get from it, so it cannot download every engine
// submitted; nor can it ask the server for artifacts as another worker.
func TestWorkerCannotReadArtifacts(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	m, _ := uploadArtifact(t, p.submitter, 1000)
	nc, errs := violations(t, p.addWorker("alice"))
	stream := "OBJ_" + artifact.DefaultBucket
	for _, subject := range []string{
		"$JS.API.STREAM.INFO." + stream,
		"$JS.API.CONSUMER.CREATE." + stream + ".spy.$O." + artifact.DefaultBucket + ".>",
		"$JS.API.CONSUMER.CREATE." + stream,
		"$JS.API.DIRECT.GET." + stream + ".$O." + artifact.DefaultBucket + ".M." + m.SHA256,
		"$JS.API.DIRECT.GET." + stream,
		"$O." + artifact.DefaultBucket + ".C.x",
		artifactSubject("bob"), // asking as another worker
	} {
		if err := nc.PublishRequest(subject, InboxPrefix(RoleWorker, "alice")+".spy", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		nc.Flush()
		expectViolation(t, errs, "requesting "+subject)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := js.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{"$O." + artifact.DefaultBucket + ".>"}}); err == nil {
		t.Error("alice made a consumer of the artifacts' stream")
	}
}

// TestArtifactRelay: the server hands an artifact to a worker assigned to an active run that
// uses it, whole and hashing to its name, and refuses it to a worker not assigned to such a
// run, to a worker of a paused run, and to a revoked worker.
func TestArtifactRelay(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	m, data := uploadArtifact(t, p.submitter, 3*artifact.ChunkSize+123)
	other, _ := uploadArtifact(t, p.submitter, 1000)
	alice, _ := violations(t, p.addWorker("alice"))
	bob, _ := violations(t, p.addWorker("bob"))
	fetch := func(nc *nats.Conn, worker string, m artifact.Manifest) (artifact.Fetched, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		return artifact.NewFetcher(relayGetter{nc: nc, worker: worker}, artifact.Limits{}).Fetch(ctx, m, t.TempDir())
	}
	refused := func(err error, who string) {
		t.Helper()
		var r *ArtifactRefusedError
		if !errors.As(err, &r) {
			t.Errorf("%s: %v, want the server's refusal", who, err)
		}
	}
	_, err := fetch(alice, "alice", m)
	refused(err, "alice, before any run")

	st := submitWithArtifact(t, p, m, 1)
	_, err = fetch(alice, "alice", m)
	refused(err, "alice, not assigned yet")
	if a := assign(t, alice, "alice", m); a.Run != st.ID {
		t.Fatalf("alice was assigned %+v, want run %s", a, st.ID)
	}
	f, err := fetch(alice, "alice", m)
	if err != nil {
		t.Fatalf("alice, assigned to the run: %v", err)
	}
	if got, err := os.ReadFile(filepath.Join(f.Dir, m.Name)); err != nil || !bytes.Equal(got, data) {
		t.Errorf("alice's copy: %d bytes (%v), want the %d uploaded", len(got), err, len(data))
	}
	_, err = fetch(alice, "alice", other)
	refused(err, "alice, an artifact of no run of hers")
	_, err = fetch(bob, "bob", m)
	refused(err, "bob, not assigned")

	if _, err := p.submitter.Control(context.Background(), Control{ID: st.ID, Action: "pause"}); err != nil {
		t.Fatal(err)
	}
	_, err = fetch(alice, "alice", m)
	refused(err, "alice, her run paused")
	if _, err := p.submitter.Control(context.Background(), Control{ID: st.ID, Action: "resume"}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the run to be given to alice again", 10*time.Second, func() bool { return assign(t, alice, "alice", m).Run == st.ID })
	if err := p.admin.RevokeWorker(context.Background(), "alice"); err != nil {
		t.Fatal(err)
	}
	if err := p.srv.mayFetch("alice", m.SHA256, time.Now()); err == nil {
		t.Error("the server would hand a revoked worker her run's artifact")
	}
	if _, err := fetch(alice, "alice", m); err == nil {
		t.Error("a revoked worker fetched her run's artifact")
	}
}

// TestArtifactRelayOnExistingNATS: on an existing NATS server (-nats), whose users are not
// the pool's, a worker given the pool's worker permissions there is handed its run's
// artifacts by the server, and another worker is refused them.
func TestArtifactRelayOnExistingNATS(t *testing.T) {
	t.Parallel()
	users := map[string]string{} // name: seed
	var nkeys []*server.NkeyUser
	for _, u := range []struct{ name, role string }{{"alice", RoleWorker}, {"bob", RoleWorker}, {RoleSubmitter, RoleSubmitter}} {
		seed, pub, err := NewUserKey()
		if err != nil {
			t.Fatal(err)
		}
		users[u.name] = seed
		nkeys = append(nkeys, &server.NkeyUser{Nkey: pub, Permissions: permissions(u.role, u.name)})
	}
	ns := startNATS(t, &server.Options{JetStream: true, StoreDir: t.TempDir(),
		Users: []*server.User{{Username: "pool", Password: "secret"}}, Nkeys: nkeys})
	dir := t.TempDir()
	own := filepath.Join(dir, "own.creds")
	if err := (&distributed.Credentials{User: "pool", Password: "secret"}).Save(own); err != nil {
		t.Fatal(err)
	}
	srv, err := Start(context.Background(), Config{Dir: dir, NATS: ns.ClientURL(), CredsFile: own})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	creds := func(name string) *distributed.Credentials {
		return &distributed.Credentials{URL: ns.ClientURL(), User: name, Seed: users[name], Inbox: InboxPrefix(RoleWorker, name)}
	}
	submitter, err := Connect(&distributed.Credentials{URL: ns.ClientURL(), User: RoleSubmitter, Seed: users[RoleSubmitter]}, "test submitter")
	if err != nil {
		t.Fatal(err)
	}
	defer submitter.Close()
	m, _ := uploadArtifact(t, submitter, 2*artifact.ChunkSize)
	sub := fakeSubmission(t, 50, 1, nil)
	sub.Platforms, sub.Manifests = nil, []artifact.Manifest{m, {}}
	st, err := submitter.Submit(context.Background(), sub)
	if err != nil {
		t.Fatal(err)
	}
	alice, _ := violations(t, creds("alice"))
	bob, _ := violations(t, creds("bob"))
	if a := assign(t, alice, "alice", m); a.Run != st.ID {
		t.Fatalf("alice was assigned %+v, want run %s", a, st.ID)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := artifact.NewFetcher(relayGetter{nc: alice, worker: "alice"}, artifact.Limits{}).Fetch(ctx, m, t.TempDir()); err != nil {
		t.Errorf("alice, assigned to the run: %v", err)
	}
	_, err = artifact.NewFetcher(relayGetter{nc: bob, worker: "bob"}, artifact.Limits{}).Fetch(ctx, m, t.TempDir())
	if !errors.As(err, new(*ArtifactRefusedError)) {
		t.Errorf("bob, not assigned: %v, want the server's refusal", err)
	}
}

// TestDocsWorkerPermissions: the rights docs/distributed.md tells an existing NATS
// cluster's admin to give a worker are those the embedded server gives it.
func TestDocsWorkerPermissions(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/distributed.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "give worker NAME the rights the embedded server gives it")
	pub, sub, ok2 := strings.Cut(rest, "and subscribe to")
	sub, _, ok3 := strings.Cut(sub, "only")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/distributed.md no longer lists a worker's rights")
	}
	subjects := func(text string) []string {
		var list []string
		for i, part := range strings.Split(text, "`") {
			if i%2 == 1 {
				list = append(list, part)
			}
		}
		slices.Sort(list)
		return list
	}
	perms := permissions(RoleWorker, "NAME")
	for _, c := range []struct {
		what      string
		doc, want []string
	}{{"publish", subjects(pub), perms.Publish.Allow}, {"subscribe", subjects(sub), perms.Subscribe.Allow}} {
		want := slices.Sorted(slices.Values(c.want))
		if !slices.Equal(c.doc, want) {
			t.Errorf("the docs let a worker %s on\n%q\nthe embedded server on\n%q", c.what, c.doc, want)
		}
	}
}

// TestRelayReaderRefusesBadAnswers: a worker reading an artifact from the server stops at an
// answer that cannot be right (no size, a size that changes, nothing or too much sent) and
// tells a refusal and a missing artifact from a failure.
func TestRelayReaderRefusesBadAnswers(t *testing.T) {
	t.Parallel()
	nc, err := nats.Connect(startNATS(t, &server.Options{}).ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	for _, tt := range []struct {
		name string
		// answer sets the answer to a request for the piece at off.
		answer func(off int64, m *nats.Msg)
		want   func(error) bool
	}{
		{"whole", func(off int64, m *nats.Msg) {
			m.Header.Set(headerSize, "6")
			m.Data = []byte("abcdef")[off:min(off+4, 6)]
		}, func(err error) bool { return err == nil }},
		{"no size", func(off int64, m *nats.Msg) { m.Data = []byte("abc") }, func(err error) bool { return err != nil }},
		{"size changes", func(off int64, m *nats.Msg) {
			m.Header.Set(headerSize, strconv.FormatInt(6+off, 10))
			m.Data = []byte("abc")
		}, func(err error) bool { return err != nil }},
		{"nothing sent", func(off int64, m *nats.Msg) { m.Header.Set(headerSize, "6") }, func(err error) bool { return err != nil }},
		{"too much", func(off int64, m *nats.Msg) { m.Header.Set(headerSize, "2"); m.Data = []byte("abc") }, func(err error) bool { return err != nil }},
		{"refused", func(off int64, m *nats.Msg) { m.Header.Set(headerRefused, "no") }, func(err error) bool { return errors.As(err, new(*ArtifactRefusedError)) }},
		{"not found", func(off int64, m *nats.Msg) { m.Header.Set(headerNotFound, "gone") }, func(err error) bool { return errors.Is(err, artifact.ErrNotFound) }},
		{"failed", func(off int64, m *nats.Msg) { m.Header.Set(headerError, "disk") }, func(err error) bool {
			return err != nil && !errors.Is(err, artifact.ErrNotFound) && !cannotPlay(err)
		}},
		// Bytes in the store that do not hash to their name: the worker keeps away from the
		// run, as when it finds them bad itself, instead of asking again every 2 s.
		{"unusable", func(off int64, m *nats.Msg) { m.Header.Set(headerUnusable, "corrupt") }, func(err error) bool {
			return errors.As(err, new(*ArtifactUnusableError)) && cannotPlay(err)
		}},
	} {
		worker := strings.ReplaceAll(tt.name, " ", "-")
		t.Run(tt.name, func(t *testing.T) {
			sub, err := nc.Subscribe(artifactSubject(worker), func(m *nats.Msg) {
				var req ArtifactRequest
				json.Unmarshal(m.Data, &req)
				reply := nats.NewMsg(m.Reply)
				tt.answer(req.Offset, reply)
				m.RespondMsg(reply)
			})
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Unsubscribe()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, r, err := relayGetter{nc: nc, worker: worker}.Get(ctx, "sha")
			if err == nil {
				var got []byte
				got, err = io.ReadAll(r)
				if err == nil && string(got) != "abcdef" {
					t.Errorf("read %q", got)
				}
			}
			if !tt.want(err) {
				t.Errorf("reading: %v", err)
			}
		})
	}
}

// startNATS starts a NATS server of the test's own on loopback, that is not a pool's: an
// existing NATS server (-nats), or one a fake pool's server answers on.
func startNATS(t *testing.T, opts *server.Options) *server.Server { return natstest.Start(t, opts) }
