package compliance

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/testkit/golden"
)

// TestWriteCheckTable: a detail over the width is wrapped, never cut; width 0 keeps it on one
// line.
func TestWriteCheckTable(t *testing.T) {
	checks := []Result{
		{Name: "banner", Status: Passed, Detail: "id MyEngine 1.0"},
		{Name: "random games", Status: Failed, Detail: "game 2, ply 7: " + strings.Repeat("wQ -bG1 ", 12)},
		{Name: "timing", Status: Skipped, Detail: ""},
	}
	for _, tc := range []struct {
		name  string
		width int
		cut   bool
	}{{"wrapped", 40, false}, {"whole", 0, false}} {
		var got bytes.Buffer
		cut, err := WriteTable(&got, checks, tc.width)
		if err != nil || cut != tc.cut {
			t.Errorf("%s: cut %v, err %v; want cut %v", tc.name, cut, err, tc.cut)
		}
		golden.Check(t, filepath.Join("testdata", "check-table-"+tc.name+".golden"), got.Bytes())
	}
}

// TestSummarizeChecks: failures are counted first, skipped checks are said, and all passed
// only when none failed or was skipped.
func TestSummarizeChecks(t *testing.T) {
	pass, fail, skip := Result{Status: Passed}, Result{Status: Failed}, Result{Status: Skipped}
	tests := []struct {
		checks []Result
		want   string
		failed bool
	}{
		{[]Result{pass, pass}, "All 2 checks passed", false},
		{[]Result{pass, skip, pass}, "2 of 3 checks passed, 1 skipped", false},
		{[]Result{fail, pass, fail}, "2 of 3 checks failed", true},
		{[]Result{fail, skip, skip, pass}, "1 of 4 checks failed, 2 skipped", true},
	}
	for _, tc := range tests {
		if got, failed := Summarize(tc.checks); got != tc.want || failed != tc.failed {
			t.Errorf("%v: %q, %v; want %q, %v", tc.checks, got, failed, tc.want, tc.failed)
		}
	}
}
