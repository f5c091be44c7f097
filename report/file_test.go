package report

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFileRewritesTheReport(t *testing.T) {
	recs := synthetic{engines: []string{"a", "b"}, games: 4, minPlies: 4, maxPlies: 8, times: []string{"st=1"}}.
		records(rand.New(rand.NewPCG(5, 5)))
	path := filepath.Join(t.TempDir(), "live.html")
	f := NewFile(path, Options{})
	f.GameFinished(&recs[0])
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the first finished game was not written: %v", err)
	}
	for i := range recs[1:] {
		f.GameFinished(&recs[1+i])
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"games":4`) {
		t.Error("after Flush the report does not hold the 4 games")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("report mode %v, want 0644", fi.Mode().Perm())
	}
}
