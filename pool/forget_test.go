package pool

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/pool/artifact"
)

// TestDeleteForgetsUnusedArtifacts: deleting a run deletes those of its artifacts that no run
// left in the pool uses, from the store and from the server's copies, and keeps those another
// run uses; a submission whose artifact is no longer in the store is refused, saying to submit
// again.
func TestDeleteForgetsUnusedArtifacts(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	ctx := context.Background()
	shared, _ := uploadArtifact(t, p.submitter, 1000)
	own, _ := uploadArtifact(t, p.submitter, 2000)
	submit := func(seed int64, ms ...artifact.Manifest) (*RunState, error) {
		sub := fakeSubmission(t, 50, seed, nil)
		sub.Platforms, sub.Manifests = nil, ms
		return p.submitter.Submit(ctx, sub)
	}
	a, err := submit(1, shared, own)
	if err != nil {
		t.Fatal(err)
	}
	b, err := submit(2, shared, artifact.Manifest{})
	if err != nil {
		t.Fatal(err)
	}
	// The server's copy of the run's own artifact, as a worker's fetch makes it.
	copyOf := func(m artifact.Manifest) string { return filepath.Join(p.dir, "artifacts", m.SHA256) }
	if _, _, err := p.srv.depot.ReadAt(ctx, own.SHA256, make([]byte, 10), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(copyOf(own)); err != nil {
		t.Fatalf("no copy of the artifact on the server: %v", err)
	}
	inStore := func(m artifact.Manifest) bool {
		err := p.srv.depot.Has(ctx, m.SHA256)
		if err != nil && !errors.Is(err, artifact.ErrNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}

	if _, err := p.submitter.Control(ctx, Control{ID: a.ID, Action: "delete"}); err != nil {
		t.Fatal(err)
	}
	if inStore(own) {
		t.Error("the deleted run's own artifact is still in the store")
	}
	if _, err := os.Stat(copyOf(own)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the server's copy of the deleted run's artifact: %v, want it gone", err)
	}
	if !inStore(shared) {
		t.Error("the artifact run b still uses was deleted with run a")
	}

	if _, err := p.submitter.Control(ctx, Control{ID: b.ID, Action: "delete"}); err != nil {
		t.Fatal(err)
	}
	if inStore(shared) {
		t.Error("an artifact no run uses any more is still in the store")
	}
	_, err = submit(3, shared, artifact.Manifest{})
	if err == nil || !strings.Contains(err.Error(), "is not in the pool") || !strings.Contains(err.Error(), "submit again") {
		t.Errorf("a submission whose artifact is gone: %v, want it refused, saying to submit again", err)
	}
}
