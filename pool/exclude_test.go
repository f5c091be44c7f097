package pool

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/pool/artifact"
	"hivearbiter/pool/people"
	"hivearbiter/results"
)

// recordsByWorker reads a run's records file: the games each worker played, and each game
// once (a game recorded twice fails the test); none before the first.
func recordsByWorker(t *testing.T, path string) map[string][]int {
	t.Helper()
	recs, err := results.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) { // none yet
		t.Fatal(err)
	}
	by, seen := map[string][]int{}, map[int]bool{}
	for _, r := range recs {
		if seen[r.Game] {
			t.Errorf("%s: game %d recorded twice", path, r.Game+1)
		}
		seen[r.Game] = true
		by[r.Worker] = append(by[r.Worker], r.Game)
	}
	return by
}

// TestExcludeWorker: a run played by two workers, one of them taken out mid-run by an
// approver from the run's manage page: its games leave the records for the file aside, it
// plays the run no more, and the run resumes and finishes with all its scheduled games, each
// played by the other worker; the audit trail, the run's state and its page say who took
// which pairs out. A user may take no worker out, over NATS with a token nor from the
// browser; a run over keeps its games.
func TestExcludeWorker(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &testClock{now: time.Now()}
	p := newPeoplePool(t, PeopleConfig{}, clock)
	vicPassword, _ := addPerson(t, p, "vic", people.Approver)
	annPassword, annToken := addPerson(t, p, "ann", people.User)
	dash, err := ServeDashboard(ctx, p.srv, "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer dash.Close()
	base := "http://" + dash.Addr()

	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1")}, &Worker{Name: "w2", Creds: p.addWorker("w2")})
	st, err := p.submitter.Submit(ctx, fakeSubmission(t, 60, 21, nil))
	if err != nil {
		t.Fatal(err)
	}
	id := st.ID
	waitUntil(t, "games of both workers", 60*time.Second, func() bool {
		by := recordsByWorker(t, st.Records)
		return len(by["w1"]) >= 2 && len(by["w2"]) >= 2
	})

	// A user is refused, over NATS with her token and from the browser, and nothing changes.
	if _, err := p.submitter.Control(ctx, Control{ID: id, Action: "exclude", Worker: "w2", Token: annToken}); !errorsContain(err, "only an approver takes a worker's games out of a run") {
		t.Errorf("ann taking w2 out over NATS: %v, want refused", err)
	}
	ann := newWebClient(t, base)
	ann.login("ann", annPassword)
	if _, page := ann.get("/runs/" + id + "/manage"); strings.Contains(page, `id="exclude-w2"`) {
		t.Error("the manage page offers a user to take a worker's games out")
	}
	if status, _ := ann.post("/runs/"+id+"/manage", url.Values{"action": {"exclude"}, "worker": {"w2"}}); status != http.StatusForbidden {
		t.Errorf("ann taking w2 out from the browser: %d, want 403", status)
	}
	if st := p.srv.runState(id); len(st.Excluded) != 0 || st.State != StateActive {
		t.Fatalf("the run after ann's tries: %s, excluded %+v; want active, none", st.State, st.Excluded)
	}

	// The approver's manage page has a form per worker that played the run; a cross-site post
	// of it is refused.
	vic := newWebClient(t, base)
	vic.login("vic", vicPassword)
	if _, page := vic.get("/runs/" + id + "/manage"); !strings.Contains(page, `id="exclude-w1"`) || !strings.Contains(page, `id="exclude-w2"`) {
		t.Errorf("vic's manage page has no form to take w1 or w2 out:\n%s", page)
	}
	form := url.Values{"action": {"exclude"}, "worker": {"w2"}}
	if status, _ := vic.post("/runs/"+id+"/manage", form, "Sec-Fetch-Site", "cross-site"); status != http.StatusForbidden {
		t.Errorf("a cross-site post taking w2 out: %d, want 403", status)
	}
	if st := p.srv.runState(id); len(st.Excluded) != 0 {
		t.Fatalf("a cross-site post took %+v out", st.Excluded)
	}
	if status, body := vic.post("/runs/"+id+"/manage", form, "Sec-Fetch-Site", "same-origin"); status != http.StatusSeeOther {
		t.Fatalf("vic taking w2 out: %d\n%s", status, body)
	}
	after := p.srv.runState(id)
	if after.State != StateActive || len(after.Excluded) != 1 {
		t.Fatalf("the run after vic took w2 out: %s, excluded %+v; want active, one", after.State, after.Excluded)
	}
	ex := after.Excluded[0]
	if ex.Worker != "w2" || ex.By != "vic" || ex.Games < 2 || len(ex.Pairs) == 0 {
		t.Errorf("the exclusion: %+v, want w2's games (2 or more), taken out by vic", ex)
	}
	if _, page := vic.get("/runs/" + id + "/manage"); !strings.Contains(page, `<table id="excluded">`) || !strings.Contains(page, "<td>w2</td>") || strings.Contains(page, `id="exclude-w2"`) {
		t.Errorf("vic's manage page after w2 was taken out: no table of it, or a form to take it out again:\n%s", page)
	}
	if a := p.srv.Assign(AssignRequest{Worker: "w2", Slots: 1, Platform: artifact.ThisPlatform()}, time.Now()); a.Run == id {
		t.Error("w2 was given the run it was taken out of")
	}
	if _, err := p.submitter.Control(ctx, Control{ID: id, Action: "exclude", Worker: "w2"}); !errorsContain(err, "taken out of run "+id+" already") {
		t.Errorf("taking w2 out again: %v, want refused", err)
	}

	// The games taken out are aside, each whole; the run goes on without them and ends with
	// every scheduled game, all of them w1's.
	aside, err := os.ReadFile(p.srv.excludedPath(id))
	if err != nil {
		t.Fatal(err)
	}
	var pairs []int
	lines := bufio.NewScanner(strings.NewReader(string(aside)))
	lines.Buffer(nil, 1<<20)
	n := 0
	for lines.Scan() {
		var r results.Record
		if err := json.Unmarshal(lines.Bytes(), &r); err != nil {
			t.Fatalf("line %d of the file aside: %v", n+1, err)
		}
		if r.Worker != "w2" || r.Run != id {
			t.Errorf("the file aside holds game %d of worker %q of run %s", r.Game+1, r.Worker, r.Run)
		}
		if !slices.Contains(pairs, r.Pair) {
			pairs = append(pairs, r.Pair)
		}
		n++
	}
	slices.Sort(pairs)
	if n != ex.Games || !slices.Equal(pairs, ex.Pairs) {
		t.Errorf("the file aside holds %d games of pairs %v; the exclusion says %d of %v", n, pairs, ex.Games, ex.Pairs)
	}
	end := waitFinished(t, p, id, 90*time.Second)
	by := recordsByWorker(t, st.Records)
	if len(by) != 1 || len(by["w1"]) != st.Scheduled {
		counts := map[string]int{}
		for w, games := range by {
			counts[w] = len(games)
		}
		t.Errorf("the finished run's games by worker: %v, want all %d of w1", counts, st.Scheduled)
	}
	if end.Summary == nil || end.Summary.Games != st.Scheduled {
		t.Errorf("the finished run's summary: %+v, want %d games", end.Summary, st.Scheduled)
	}
	for _, w := range end.Workers {
		if w.Name == "w2" && w.Games > 0 {
			t.Errorf("the run's statistics count %d games of w2, taken out", w.Games)
		}
	}

	// Who did it, and what, on the audit trail and the run's page; a run over keeps its games.
	trail, err := p.srv.Audit(id)
	if err != nil {
		t.Fatal(err)
	}
	last := trail[len(trail)-1]
	if last.Person != "vic" || last.Action != "excluded" || !strings.HasPrefix(last.Detail, "worker w2: ") {
		t.Errorf("the audit trail's last line: %+v, want vic excluded worker w2", last)
	}
	if _, page := vic.get("/runs/" + id); !strings.Contains(page, `data-excluded="w2"`) || !strings.Contains(page, "taken out by vic") {
		t.Errorf("the run's page does not say w2 was taken out by vic:\n%s", page)
	}
	if _, err := p.submitter.Control(ctx, Control{ID: id, Action: "exclude", Worker: "w1"}); !errorsContain(err, "active or paused run only") {
		t.Errorf("taking w1 out of the finished run: %v, want refused", err)
	}
	if by := recordsByWorker(t, st.Records); len(by["w1"]) != st.Scheduled {
		t.Errorf("the finished run after a refused exclusion holds %d games of w1, want %d", len(by["w1"]), st.Scheduled)
	}
}

// TestExclusionKeptAcrossRestart: a server killed after it kept an exclusion but before it
// rewrote the records file takes the worker's games out when it starts the run again, and the
// other worker plays them.
func TestExclusionKeptAcrossRestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newTestPool(t)
	w1 := &Worker{Name: "w1", Creds: p.addWorker("w1")}
	w2 := &Worker{Name: "w2", Creds: p.addWorker("w2")}
	first, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- w1.Run(first) }()
	st, err := p.submitter.Submit(ctx, fakeSubmission(t, 30, 22, nil))
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "games of w1", 60*time.Second, func() bool { return len(recordsByWorker(t, st.Records)["w1"]) >= 3 })
	if _, err := p.submitter.Control(ctx, Control{ID: st.ID, Action: "pause"}); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	played := len(recordsByWorker(t, st.Records)["w1"])
	// The exclusion as exclude keeps it before it rewrites the file, and then the server dies.
	r := p.srv.runs[st.ID]
	p.srv.mu.Lock()
	r.state.Excluded = append(r.state.Excluded, Exclusion{Worker: "w1", By: "vic", At: time.Now().UTC()})
	p.srv.mu.Unlock()
	p.srv.saveState(r)
	p.stop()
	p.start()
	startWorkers(t, w2)
	if _, err := p.submitter.Control(ctx, Control{ID: st.ID, Action: "resume"}); err != nil {
		t.Fatal(err)
	}
	end := waitFinished(t, p, st.ID, 90*time.Second)
	by := recordsByWorker(t, st.Records)
	if len(by) != 1 || len(by["w2"]) != st.Scheduled {
		t.Errorf("the finished run: games of w1 %d, w2 %d; want all %d of w2", len(by["w1"]), len(by["w2"]), st.Scheduled)
	}
	if len(end.Excluded) != 1 || end.Excluded[0].Games != played {
		t.Errorf("the run's exclusions: %+v, want w1's %d games", end.Excluded, played)
	}
	aside, err := results.ReadFile(p.srv.excludedPath(st.ID))
	if err != nil || len(aside) != played {
		t.Errorf("the file aside: %d games, %v; want %d", len(aside), err, played)
	}
}

// TestExcludeFromPausedRun: a worker taken out of a paused run leaves it paused, its summary
// and its workers' statistics counted again without the worker's games; the audit trail names
// the submitter's credential, which may do it on a pool with no persons.
func TestExcludeFromPausedRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newTestPool(t)
	st, err := p.submitter.Submit(ctx, fakeSubmission(t, 30, 23, nil))
	if err != nil {
		t.Fatal(err)
	}
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1")})
	waitUntil(t, "games of w1", 60*time.Second, func() bool { return len(recordsByWorker(t, st.Records)["w1"]) >= 3 })
	paused, err := p.submitter.Control(ctx, Control{ID: st.ID, Action: "pause"})
	if err != nil {
		t.Fatal(err)
	}
	played := len(recordsByWorker(t, st.Records)["w1"])
	if paused.Games() != played {
		t.Fatalf("the paused run's summary counts %d games, its records %d", paused.Games(), played)
	}
	after, err := p.submitter.Control(ctx, Control{ID: st.ID, Action: "exclude", Worker: "w1"})
	if err != nil {
		t.Fatal(err)
	}
	if after.State != StatePaused || after.Games() != 0 || len(after.Excluded) != 1 || after.Excluded[0].Games != played || after.Excluded[0].By != "" {
		t.Errorf("the run after w1 was taken out: %s, %d games, excluded %+v; want paused, 0 games, w1's %d by no one", after.State, after.Games(), after.Excluded, played)
	}
	for _, w := range after.Workers {
		if w.Name == "w1" {
			t.Errorf("the run's statistics still hold w1: %+v", w)
		}
	}
	if n := len(recordsByWorker(t, st.Records)); n != 0 {
		t.Errorf("the records still hold games of %d workers", n)
	}
	if trail := trailOf(t, p, st.ID); trail[len(trail)-1] != " excluded" {
		t.Errorf("the audit trail: %q, want the credential's exclusion last", trail)
	}
}
