package arbiter

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/golden"
)

// TestWriteCheckTable: a detail over the width is cut and said to be; width 0 shows it whole.
func TestWriteCheckTable(t *testing.T) {
	checks := []CheckResult{
		{Name: "banner", Status: CheckPassed, Detail: "id MyEngine 1.0"},
		{Name: "random games", Status: CheckFailed, Detail: "game 2, ply 7: " + strings.Repeat("wQ -bG1 ", 12)},
		{Name: "timing", Status: CheckSkipped, Detail: ""},
	}
	for _, tc := range []struct {
		name  string
		width int
		cut   bool
	}{{"cut", 40, true}, {"whole", 0, false}} {
		var got bytes.Buffer
		cut, err := WriteCheckTable(&got, checks, tc.width)
		if err != nil || cut != tc.cut {
			t.Errorf("%s: cut %v, err %v; want cut %v", tc.name, cut, err, tc.cut)
		}
		golden.Check(t, filepath.Join("testdata", "check-table-"+tc.name+".golden"), got.Bytes())
	}
}
