package arbitertest

import (
	"strings"
	"testing"

	"hivearbiter/arbiter/compliance"
)

// CheckRow returns the first result of a compliance check whose name starts with prefix, and
// fails the test when there is none.
func CheckRow(t testing.TB, results []compliance.Result, prefix string) compliance.Result {
	t.Helper()
	for _, r := range results {
		if strings.HasPrefix(r.Name, prefix) {
			return r
		}
	}
	t.Fatalf("no check %q among %+v", prefix, results)
	return compliance.Result{}
}

// FirstFailure returns the first failed result of a compliance check, and false when none
// failed.
func FirstFailure(results []compliance.Result) (compliance.Result, bool) {
	for _, r := range results {
		if r.Status == compliance.Failed {
			return r, true
		}
	}
	return compliance.Result{}, false
}
