package artifact

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDepotReadAt: a depot reads an artifact at any offset, in pieces that make up its bytes,
// from a copy it made once: with the object deleted from the store, the copy still answers.
func TestDepotReadAt(t *testing.T) {
	s, obs := newStore(t, Limits{})
	content := "#!/bin/sh\necho depot\n" + strings.Repeat("0123456789", ChunkSize/4)
	m, _, err := s.Upload(t.Context(), Source{Path: writeFile(t, t.TempDir(), "engine.sh", content, 0o755)})
	if err != nil {
		t.Fatal(err)
	}
	d := NewDepot(s, filepath.Join(t.TempDir(), "copies"))
	for _, piece := range []int{ChunkSize, 1000, len(content) + 1} {
		var got []byte
		buf := make([]byte, piece)
		for off := int64(0); ; {
			n, size, err := d.ReadAt(t.Context(), m.SHA256, buf, off)
			if err != nil || size != int64(len(content)) {
				t.Fatalf("pieces of %d: at %d: %d bytes of %d, %v", piece, off, n, size, err)
			}
			if n == 0 {
				break
			}
			got, off = append(got, buf[:n]...), off+int64(n)
		}
		if !bytes.Equal(got, []byte(content)) {
			t.Fatalf("pieces of %d make %d bytes, not the artifact's %d", piece, len(got), len(content))
		}
		if piece == ChunkSize {
			if err := obs.Delete(t.Context(), m.SHA256); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, _, err := d.ReadAt(t.Context(), m.SHA256, make([]byte, 10), int64(len(content))+1); err == nil {
		t.Error("a read past the end: no error")
	}
}

// TestDepotRefuses: a depot makes no copy of an artifact whose bytes do not hash to its name,
// has none of an artifact the store lacks, and reads nothing by a name that is not a SHA-256
// (a path that climbs out of its directory above all).
func TestDepotRefuses(t *testing.T) {
	s, obs := newStore(t, Limits{})
	m, _, err := s.Upload(t.Context(), Source{Path: writeFile(t, t.TempDir(), "engine.sh", "#!/bin/sh\necho good\n", 0o755)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := obs.PutBytes(t.Context(), m.SHA256, []byte("#!/bin/sh\necho evil\n")); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "copies")
	d := NewDepot(s, dir)
	buf := make([]byte, 100)
	if _, _, err := d.ReadAt(t.Context(), m.SHA256, buf, 0); !errors.As(err, new(*HashMismatchError)) {
		t.Errorf("a substituted object: %v, want a *HashMismatchError", err)
	}
	assertEmpty(t, dir)
	missing := strings.Repeat("ab", 32)
	if _, _, err := d.ReadAt(t.Context(), missing, buf, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("an artifact the store lacks: %v, want ErrNotFound", err)
	}
	secret := writeFile(t, t.TempDir(), "secret", "not an artifact", 0o600)
	for _, name := range []string{"", "../" + filepath.Base(secret), secret, strings.ToUpper(m.SHA256), m.SHA256[:62], m.SHA256 + "/.."} {
		if n, _, err := d.ReadAt(t.Context(), name, buf, 0); !errors.Is(err, ErrBadName) || n != 0 {
			t.Errorf("name %q: %d bytes, %v; want ErrBadName", name, n, err)
		}
	}
	assertEmpty(t, dir)
}

// TestDepotHealsItsCopies: a copy on disk that does not hash to its name (cut short by a power
// loss) is made again before it is handed out, the partial copies a killed server left are
// removed, and an artifact whose bytes are bad is not read from the store again for a while.
func TestDepotHealsItsCopies(t *testing.T) {
	s, obs := newStore(t, Limits{})
	content := "#!/bin/sh\necho heal\n" + strings.Repeat("x", 5000)
	m, _, err := s.Upload(t.Context(), Source{Path: writeFile(t, t.TempDir(), "engine.sh", content, 0o755)})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, m.SHA256), []byte(content[:100]), 0o600); err != nil {
		t.Fatal(err)
	}
	partial := filepath.Join(dir, ".fetch-123")
	if err := os.WriteFile(partial, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := NewDepot(s, dir)
	buf := make([]byte, len(content)+10)
	if n, size, err := d.ReadAt(t.Context(), m.SHA256, buf, 0); err != nil || size != int64(len(content)) || string(buf[:n]) != content {
		t.Fatalf("a cut copy on disk: %d of %d bytes, %v; want the whole artifact, copied again", n, size, err)
	}
	if _, err := os.Stat(partial); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a partial copy left by a killed server: %v, want it removed", err)
	}

	bad, _, err := s.Upload(t.Context(), Source{Path: writeFile(t, t.TempDir(), "bad.sh", "#!/bin/sh\necho good\n", 0o755)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := obs.PutBytes(t.Context(), bad.SHA256, []byte("#!/bin/sh\necho evil\n")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.ReadAt(t.Context(), bad.SHA256, buf, 0); !errors.As(err, new(*HashMismatchError)) {
		t.Fatalf("a substituted object: %v, want a *HashMismatchError", err)
	}
	// Put right in the store: the depot still refuses it, without reading the store again,
	// until badFor has passed or it is forgotten.
	if _, err := obs.PutBytes(t.Context(), bad.SHA256, []byte("#!/bin/sh\necho good\n")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.ReadAt(t.Context(), bad.SHA256, buf, 0); !errors.As(err, new(*HashMismatchError)) {
		t.Errorf("asked again at once: %v, want the remembered *HashMismatchError", err)
	}
	d.mu.Lock()
	d.bad[bad.SHA256] = badCopy{d.bad[bad.SHA256].err, time.Now().Add(-badFor)}
	d.mu.Unlock()
	if n, _, err := d.ReadAt(t.Context(), bad.SHA256, buf, 0); err != nil || string(buf[:n]) != "#!/bin/sh\necho good\n" {
		t.Errorf("asked again after badFor: %q, %v; want the good bytes", buf[:n], err)
	}
}

// TestDepotCopiesDoNotHoldUpOthers: while one artifact is being copied, another's pieces are
// read at once, and a second request for the one being copied waits for that copy (as long as
// its context lets it) rather than making a second.
func TestDepotCopiesDoNotHoldUpOthers(t *testing.T) {
	s, _ := newStore(t, Limits{})
	upload := func(name, content string) Manifest {
		m, _, err := s.Upload(t.Context(), Source{Path: writeFile(t, t.TempDir(), name, content, 0o755)})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	copied, copying := upload("a.sh", "#!/bin/sh\necho a\n"), upload("b.sh", "#!/bin/sh\necho b\n")
	d := NewDepot(s, t.TempDir())
	buf := make([]byte, 100)
	if _, _, err := d.ReadAt(t.Context(), copied.SHA256, buf, 0); err != nil {
		t.Fatal(err)
	}
	// A copy of the other under way, as a slow download would hold it.
	done := make(chan struct{})
	d.mu.Lock()
	d.copying[copying.SHA256] = done
	d.mu.Unlock()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	if n, _, err := d.ReadAt(ctx, copied.SHA256, buf, 0); err != nil || string(buf[:n]) != "#!/bin/sh\necho a\n" {
		t.Errorf("a copied artifact while another is copied: %q, %v", buf[:n], err)
	}
	short, cancelShort := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancelShort()
	if _, _, err := d.ReadAt(short, copying.SHA256, buf, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the artifact being copied, asked for again: %v, want to wait for that copy", err)
	}
	d.mu.Lock()
	delete(d.copying, copying.SHA256)
	close(done)
	d.mu.Unlock()
	if n, _, err := d.ReadAt(ctx, copying.SHA256, buf, 0); err != nil || string(buf[:n]) != "#!/bin/sh\necho b\n" {
		t.Errorf("the artifact once its copy is no longer under way: %q, %v", buf[:n], err)
	}
}
