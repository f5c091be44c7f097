package pool

import (
	"bytes"
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"hivearbiter/pool/artifact"
)

// TestRunNoWorkerCanPlay: a run of a platform no worker has is taken but flagged at its
// submission, with each current worker's reason, in its state, in "server runs" and in the
// server's log; a run the worker can play names it; and when a worker of that platform comes,
// the flag goes.
func TestRunNoWorkerCanPlay(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	ctx := context.Background()
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1"), SkipBench: true})
	waitUntil(t, "the worker to ask for work", 20*time.Second, func() bool {
		ws, err := p.admin.Workers(ctx)
		return err == nil && len(ws) == 1 && !ws[0].LastSeen.IsZero()
	})

	sub := fakeSubmission(t, 2, 31, nil)
	sub.Platforms = []string{"plan9/arm"}
	st, err := p.submitter.Submit(ctx, sub)
	if err != nil {
		t.Fatalf("a run no worker can play now is flagged, not refused: %v", err)
	}
	here := artifact.ThisPlatform()
	want := "no current worker can play it (w1: the run is for plan9/arm, and this worker is " + here + ")"
	if st.Unplayable != want {
		t.Errorf("the submitted run's state says %q, want %q", st.Unplayable, want)
	}
	if line := View(*st).ProgressText(); !strings.HasSuffix(line, "; waits: "+want) {
		t.Errorf("submit -wait's line does not say why the run waits: %q", line)
	}
	if len(st.Fit) != 1 || st.Fit[0].Worker != "w1" || st.Fit[0].Reason == "" {
		t.Errorf("its fit: %+v, want w1 with its reason", st.Fit)
	}
	if log := p.console.String(); !strings.Contains(log, "Run "+st.ID+" waits: "+want) {
		t.Errorf("the server's log does not say why the run waits:\n%s", log)
	}
	runs, err := p.submitter.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	WriteRuns(&table, runs)
	if !strings.Contains(table.String(), "waits: "+want) {
		t.Errorf("server runs does not say why the run waits:\n%s", table.String())
	}

	// Its page and the dashboard say it too.
	for _, page := range []string{"/runs/" + st.ID, "/"} {
		rec := httptest.NewRecorder()
		p.srv.dashboardHandler().ServeHTTP(rec, httptest.NewRequest("GET", page, nil))
		if body := rec.Body.String(); rec.Code != http.StatusOK || !strings.Contains(body, html.EscapeString(want)) {
			t.Errorf("GET %s (%d) does not say why the run waits (%q):\n%s", page, rec.Code, want, body)
		}
	}

	playable, err := p.submitter.Submit(ctx, fakeSubmission(t, 2, 32, nil))
	if err != nil {
		t.Fatal(err)
	}
	if playable.Unplayable != "" || len(playable.PlayableBy()) != 1 || playable.PlayableBy()[0] != "w1" {
		t.Errorf("a run w1 can play: unplayable %q, playable by %v", playable.Unplayable, playable.PlayableBy())
	}
	if log := p.console.String(); !strings.Contains(log, "Run "+playable.ID+" can be played by w1") {
		t.Errorf("the server's log does not say who can play the run:\n%s", log)
	}

	// A worker of the run's platform comes: the run is no longer flagged.
	startWorkers(t, &Worker{Name: "w2", Creds: p.addWorker("w2"), Platform: "plan9/arm", SkipBench: true})
	waitUntil(t, "the plan9 worker to lift the flag", 20*time.Second, func() bool {
		runs, err := p.submitter.Runs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			if r.ID == st.ID {
				return r.Unplayable == "" && strings.Join(r.PlayableBy(), ",") == "w2"
			}
		}
		return false
	})
}
