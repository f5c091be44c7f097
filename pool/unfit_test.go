package pool

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"hivearbiter/distributed"
	"hivearbiter/pool/artifact"
)

// TestUnfitRuns: a worker keeps away from a run it cannot play (its engines are refused, an
// artifact cannot run here) until DefaultUnfitRetry has passed, and not at all from one it
// failed to join for a passing reason (a fetch cut short as the server restarted), which it
// used to shun for as long as it ran: a pool whose every worker had once lost its connection
// in a fetch never finished the run.
func TestUnfitRuns(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		err   error
		unfit bool
	}{
		{"engines refused", &distributed.RefusedError{Reason: "its weak is another build"}, true},
		{"another platform", fmt.Errorf("pool: %w", &artifact.NotRunnableError{SHA256: "ab", Reason: "built for plan9/mips"}), true},
		{"artifact missing", fmt.Errorf("fetching: %w", artifact.ErrNotFound), true},
		{"bytes substituted", &artifact.HashMismatchError{Want: "ab", Got: "cd"}, true},
		{"a fetch that timed out", fmt.Errorf("pool: the artifacts' bucket: %w", context.DeadlineExceeded), false},
		{"a connection closed", errors.New("nats: connection closed"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := unfitRuns{}
			if got := u.note("r1", tt.err, now); got != tt.unfit {
				t.Fatalf("noted unfit: %v, want %v", got, tt.unfit)
			}
			reasons := u.reasons(now.Add(time.Minute), DefaultUnfitRetry)
			if _, shunned := reasons["r1"]; shunned != tt.unfit {
				t.Errorf("a minute later the worker tells the server it cannot play r1: %v, want %v (%v)", shunned, tt.unfit, reasons)
			}
			if reasons := u.reasons(now.Add(DefaultUnfitRetry), DefaultUnfitRetry); len(reasons) > 0 {
				t.Errorf("after %s the run is still shunned: %v", DefaultUnfitRetry, reasons)
			}
		})
	}
}

// TestWhyUnfitArtifact: a run whose artifact this worker cannot run says so in the artifact's
// own words, without the artifact package's name, which means nothing on the dashboard.
func TestWhyUnfitArtifact(t *testing.T) {
	t.Parallel()
	r := &run{sub: &Submission{Manifests: []artifact.Manifest{{SHA256: "0123456789abcdef", Platform: "plan9/mips"}}}}
	w := &WorkerState{Platform: "linux/amd64"}
	want := "0123456789ab cannot run here: it is built for plan9/mips, and this worker is linux/amd64"
	if got := whyUnfit(r, w); got != want {
		t.Errorf("whyUnfit = %q, want %q", got, want)
	}
}
