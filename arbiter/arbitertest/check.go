package arbitertest

import (
	"strings"
	"testing"

	"hivearbiter/arbiter"
)

// CheckRow returns the first result of a compliance check whose name starts with prefix, and
// fails the test when there is none.
func CheckRow(t testing.TB, results []arbiter.CheckResult, prefix string) arbiter.CheckResult {
	t.Helper()
	for _, r := range results {
		if strings.HasPrefix(r.Name, prefix) {
			return r
		}
	}
	t.Fatalf("no check %q among %+v", prefix, results)
	return arbiter.CheckResult{}
}

// FirstFailure returns the first failed result of a compliance check, and false when none
// failed.
func FirstFailure(results []arbiter.CheckResult) (arbiter.CheckResult, bool) {
	for _, r := range results {
		if r.Status == arbiter.CheckFailed {
			return r, true
		}
	}
	return arbiter.CheckResult{}, false
}
