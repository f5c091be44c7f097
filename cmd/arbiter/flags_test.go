package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportFlagsAfterFiles: "arbiter report g.jsonl -o r.html" wrote r.html; it answered
// "-o: no such file".
func TestReportFlagsAfterFiles(t *testing.T) {
	dir := t.TempDir()
	records := filepath.Join(dir, "-games.jsonl") // a name that only "--" keeps a file's
	data, err := os.ReadFile(filepath.Join("..", "..", "report", "testdata", "hivebot.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(records, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"report", "-title", "t", "-o", "r.html", "--", "-games.jsonl"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	stdout.Reset()
	if err := run(context.Background(), []string{"report", "./-games.jsonl", "-o", "after.html", "-sprt", "elo0=0", "elo1=5"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "Wrote after.html: 20 games") {
		t.Errorf("stdout %q", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "after.html")); err != nil {
		t.Error(err)
	}
}
