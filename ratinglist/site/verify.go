package site

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"hivearbiter/ratinglist"
	"hivearbiter/results"
)

// WriteFrom writes into dir the site of the table that a list's records give (see Write): in
// the list's own folder (l.Site) after each batch of arbiter list run, and as games arrive on a
// pool's server that keeps the list.
func WriteFrom(dir string, l *ratinglist.List, recs []results.Record) error {
	t, err := ratinglist.Compute(l, recs)
	if err != nil {
		return err
	}
	return Write(dir, l, t, recs, l.CheckReports())
}

// ErrTableFormat is WriteTable's error for a format it does not write.
var ErrTableFormat = errors.New("want text, markdown or json")

// WriteTable writes the table with its conditions as text (WriteConsole), markdown
// (WriteMarkdown) or json (TableJSON).
func WriteTable(w io.Writer, l *ratinglist.List, t *ratinglist.Table, format string) error {
	switch format {
	case "text":
		return WriteConsole(w, l, t)
	case "markdown":
		return WriteMarkdown(w, l, t)
	case "json":
		b, err := TableJSON(t)
		if err == nil {
			_, err = w.Write(b)
		}
		return err
	}
	return fmt.Errorf("%q: %w", format, ErrTableFormat)
}

// A TableMismatchError is a published table that is not the table its records give.
type TableMismatchError struct{ Path string }

// Error returns what went wrong, as a user reads it.
func (e *TableMismatchError) Error() string { return "ratinglist/site: " + e.Message() }

// Message is the error without the package's name.
func (e *TableMismatchError) Message() string {
	return fmt.Sprintf("the published table %s is not the table its records give: rewrite it with arbiter list site", e.Path)
}

// Verify re-referees a list's records and recomputes its table (ratinglist.Verify), then
// compares it with the table the site in dir published (its table.json), saying on w what it
// found. It returns the *ratinglist.VerifyError of games that do not replay, or a
// *TableMismatchError; a site without a published table is nothing to compare.
func Verify(w io.Writer, dir string, l *ratinglist.List, recs []results.Record) error {
	t, err := ratinglist.Verify(l, recs)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "All %d games replay under the list's rules and adjudication.\n", len(recs))
	path := filepath.Join(dir, TableJSONFile)
	published, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(w, "No published table in %s to compare (arbiter list site writes one).\n", dir)
		return nil
	}
	if err != nil {
		return err
	}
	mine, err := TableJSON(t)
	if err != nil {
		return err
	}
	if !bytes.Equal(mine, published) {
		return &TableMismatchError{path}
	}
	fmt.Fprintf(w, "The published table %s is the table the records give.\n", path)
	return nil
}
