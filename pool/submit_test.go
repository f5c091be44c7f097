package pool

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/openings"
)

// TestSubmitFlags: the submitter's settings place the submission in the pool (the flags
// that set them are the command's: cmd/arbiter's TestSettingsFlags).
func TestSubmitFlags(t *testing.T) {
	t.Parallel()
	f := SubmitFlags{Creds: "s.creds", Priority: 2, Share: 0.5, Platforms: "linux/amd64,darwin/arm64"}
	sub := f.Submission()
	if sub.Priority != 2 || sub.Share != 0.5 || !slices.Equal(sub.Platforms, []string{"linux/amd64", "darwin/arm64"}) || sub.Scale != nil {
		t.Errorf("settings %+v give %+v", f, sub)
	}
	if err := f.Validate(); err != nil {
		t.Errorf("settings with credentials: %v", err)
	}
	defaults := DefaultSubmitFlags()
	if err := defaults.Validate(); !errors.Is(err, ErrNoCreds) {
		t.Errorf("no credentials: %v, want ErrNoCreds", err)
	}
	if sub := defaults.Submission(); sub.Platforms != nil || sub.Share != 1 || sub.Scale != nil {
		t.Errorf("the defaults: %+v, want any platform, a share of 1, no scaling", sub)
	}
}

// TestSubmissionFromThisMachine: a submission reads the openings file its run or its tune
// names, and the identities of its engines as they start here (a tune's one engine, started
// as its pairs play it).
func TestSubmissionFromThisMachine(t *testing.T) {
	t.Parallel()
	book := filepath.Join(t.TempDir(), "book.txt")
	if err := os.WriteFile(book, []byte("Base+MLP;InProgress;White[2];wG1;bG1 wG1-\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := fakeSubmission(t, 1, 1, func(c *arbiter.Config) { c.Openings = openings.Config{File: book} })
	tune := tuneSubmission(t, 1, 1)
	tune.Tune.Openings = openings.Config{File: book}
	for name, sub := range map[string]*Submission{"run": run, "tune": tune} {
		want := sub.Expect
		sub.Expect = nil
		if err := sub.ReadOpenings(); err != nil || string(sub.Openings) != "Base+MLP;InProgress;White[2];wG1;bG1 wG1-\n" {
			t.Errorf("%s: openings %q, %v", name, sub.Openings, err)
		}
		if err := sub.Identify(context.Background()); err != nil || !slices.Equal(sub.Expect, want) {
			t.Errorf("%s: identities %+v (%v), want %+v", name, sub.Expect, err, want)
		}
	}
	missing := &Submission{Config: arbiter.Config{Openings: openings.Config{File: book + ".gone"}}}
	if err := missing.ReadOpenings(); !os.IsNotExist(err) {
		t.Errorf("a missing openings file: %v", err)
	}
}
