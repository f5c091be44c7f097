package site

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/ratinglist"
)

// TestWriteTable: the table in each format is what WriteConsole, WriteMarkdown and TableJSON
// write, and another format is refused.
func TestWriteTable(t *testing.T) {
	l, table, _ := compute(t)
	var console, markdown bytes.Buffer
	if err := WriteConsole(&console, l, table); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&markdown, l, table); err != nil {
		t.Fatal(err)
	}
	js, err := TableJSON(table)
	if err != nil {
		t.Fatal(err)
	}
	for format, want := range map[string][]byte{"text": console.Bytes(), "markdown": markdown.Bytes(), "json": js} {
		var b bytes.Buffer
		if err := WriteTable(&b, l, table, format); err != nil || !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s: %v\n%s", format, err, b.String())
		}
	}
	if err := WriteTable(&bytes.Buffer{}, l, table, "html"); !errors.Is(err, ErrTableFormat) {
		t.Errorf("format html: %v, want ErrTableFormat", err)
	}
}

// TestVerify: games that do not replay are named; a site's published table is compared with
// the one the records give, and one that differs is refused; without a published table there
// is nothing to compare.
func TestVerify(t *testing.T) {
	l, recs := fixture(t) // its games are made up: they do not replay
	var bad *ratinglist.VerifyError
	if err := Verify(&bytes.Buffer{}, t.TempDir(), l, recs); !errors.As(err, &bad) || len(bad.Games) == 0 {
		t.Errorf("made-up games: %v, want them named", err)
	}

	dir := t.TempDir()
	var out bytes.Buffer
	if err := Verify(&out, dir, l, nil); err != nil || !strings.Contains(out.String(), "No published table in "+dir) {
		t.Errorf("no site: %v\n%s", err, out.String())
	}
	if err := WriteFrom(dir, l, nil); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := Verify(&out, dir, l, nil); err != nil || !strings.Contains(out.String(), "is the table the records give") {
		t.Errorf("the site just written: %v\n%s", err, out.String())
	}
	if err := os.WriteFile(filepath.Join(dir, TableJSONFile), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var differs *TableMismatchError
	if err := Verify(&out, dir, l, nil); !errors.As(err, &differs) || differs.Path != filepath.Join(dir, TableJSONFile) {
		t.Errorf("a table edited by hand: %v, want a TableMismatchError", err)
	}
}
