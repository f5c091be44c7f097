package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"hivearbiter/ratinglist"
	"hivearbiter/results"
)

// writeListSite rewrites the site of a list that a pool's server keeps, from its records: for
// now its table alone, as table.json in the list's site folder.
func writeListSite(l *ratinglist.List, recs []results.Record) error {
	t, err := ratinglist.Compute(l, recs)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(l.Site, 0o755); err != nil {
		return fmt.Errorf("list site: %w", err)
	}
	// Written beside and renamed, so that a reader never finds half a table.
	path := filepath.Join(l.Site, "table.json")
	if err := os.WriteFile(path+".tmp", append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("list site: %w", err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return fmt.Errorf("list site: %w", err)
	}
	return nil
}
