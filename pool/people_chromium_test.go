package pool

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/elo"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/openings"
	"hivearbiter/pool/people"
	"hivearbiter/results"
	"hivearbiter/results/render"
)

var peopleScreenshots = flag.Bool("people-screenshots", false, "write docs/pool-submit.png and docs/pool-manage.png from TestPeopleInChromium")

// screenshot writes the page in the browser to docs/NAME when -people-screenshots is given.
func screenshot(t *testing.T, bctx context.Context, name string) {
	t.Helper()
	if !*peopleScreenshots {
		return
	}
	var png []byte
	if err := chromedp.Run(bctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "docs", name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d KB)", path, len(png)>>10)
}

// TestPeopleInChromium: in Chromium, against a server and two workers, a person registers, an
// approver accepts them, they submit from the form an SPRT of a hivebot option against
// hivebot (the engine chosen from the pool's catalog, where a run submitted from the command
// line put it) after its preview has shown the cost sprt-calc expects, the approver approves
// the run, and the run's management page, once the SPRT has decided, shows the W/D/L and the
// LLR that arbiter stats computes from the run's records, and who submitted and approved it.
func TestPeopleInChromium(t *testing.T) {
	// Not in parallel: it plays an SPRT of real searches to its decision on a deadline.
	chromium := testenv.NeedChromium(t)
	ctx := context.Background()
	p := newPeoplePool(t, PeopleConfig{ApproveRuns: true}, &testClock{now: time.Now()})
	vicPassword, _ := addPerson(t, p, "vic", people.Approver)
	cache := t.TempDir()
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1"), Cache: cache, SkipBench: true},
		&Worker{Name: "w2", Creds: p.addWorker("w2"), Cache: cache, SkipBench: true})

	// hivebot comes into the catalog with a run submitted from the command line.
	tc, err := driver.ParseTimeControl("depth=1")
	if err != nil {
		t.Fatal(err)
	}
	hivebot := func(name string) driver.EngineConfig {
		return driver.EngineConfig{Name: name, Command: []string{os.Args[0]}, Env: []string{listHivebotEnv + "=1"}, Time: tc}
	}
	seedRun := &Submission{Config: arbiter.Config{Engines: []driver.EngineConfig{hivebot("hivebot"), hivebot("hivebot-2")}, Rounds: 1,
		Openings: openings.Config{RandomPlies: 2}, Adjudication: arbiter.Adjudication{MaxPlies: 60}}}
	if err := seedRun.Config.Normalize(); err != nil {
		t.Fatal(err)
	}
	if err := seedRun.Identify(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := p.submitter.SubmitEngines(ctx, seedRun); err != nil {
		t.Fatal(err)
	}
	catalog, err := p.srv.Catalog(ctx)
	if err != nil || len(catalog) != 1 {
		t.Fatalf("the catalog after a run of hivebot: %+v, %v; want hivebot", catalog, err)
	}

	dash, err := ServeDashboard(ctx, p.srv, "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer dash.Close()
	base := "http://" + dash.Addr()

	profile, err := os.MkdirTemp("", "pool-people-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(profile)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.UserDataDir(profile), chromedp.WindowSize(1000, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	bctx, cancelTimeout := context.WithTimeout(bctx, 3*time.Minute)
	defer cancelTimeout()
	var mu sync.Mutex
	var pageErrors []string
	chromedp.ListenTarget(bctx, func(ev any) {
		if ev, ok := ev.(*runtime.EventExceptionThrown); ok {
			mu.Lock()
			pageErrors = append(pageErrors, ev.ExceptionDetails.Error())
			mu.Unlock()
		}
	})
	run := func(what string, actions ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(bctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	login := func(name, password string) chromedp.Action {
		return chromedp.Tasks{chromedp.Navigate(base + "/login?next=/account"), chromedp.WaitVisible("#login", chromedp.ByQuery),
			chromedp.SendKeys(`#login input[name=name]`, name, chromedp.ByQuery),
			chromedp.SendKeys(`#login input[name=password]`, password, chromedp.ByQuery),
			chromedp.Submit(`#login`, chromedp.ByQuery), chromedp.WaitVisible("#me", chromedp.ByQuery)}
	}
	logout := chromedp.Tasks{chromedp.Click("#logout", chromedp.ByQuery), chromedp.WaitVisible("#login", chromedp.ByQuery)}

	run("ann registering", chromedp.Navigate(base+"/register"), chromedp.WaitVisible("#register", chromedp.ByQuery),
		chromedp.SendKeys(`#register input[name=name]`, "ann", chromedp.ByQuery),
		chromedp.SendKeys(`#register input[name=password]`, "ann's password", chromedp.ByQuery),
		chromedp.SendKeys(`#register input[name=again]`, "ann's password", chromedp.ByQuery),
		chromedp.Submit("#register", chromedp.ByQuery), chromedp.WaitVisible("#registered", chromedp.ByQuery))
	run("vic accepting ann", login("vic", vicPassword), chromedp.Navigate(base+"/people"),
		chromedp.Click(`tr[data-person="ann"] button.accept`, chromedp.ByQuery),
		chromedp.WaitNotPresent(`tr[data-person="ann"] button.accept`, chromedp.ByQuery), logout)
	if a, _ := p.srv.People().Get("ann"); a.Status != people.Active || a.ApprovedBy != "vic" {
		t.Fatalf("ann after vic's acceptance: %+v", a)
	}

	var cost string
	run("ann's preview", login("ann", "ann's password"), chromedp.Navigate(base+"/submit"), chromedp.WaitVisible("#submit", chromedp.ByQuery),
		chromedp.SetValue("#name1", "aggressive", chromedp.ByID), chromedp.SetValue("#options1", "Aggression=5", chromedp.ByID),
		chromedp.SetValue("#name2", "hivebot", chromedp.ByID),
		chromedp.SetValue("#limit", "depth=1", chromedp.ByID), chromedp.SetValue("#maxplies", "120", chromedp.ByID),
		chromedp.SetValue("#randomplies", "4", chromedp.ByID), chromedp.SetValue("#pairs", "300", chromedp.ByID),
		chromedp.SetValue("#elo0", "0", chromedp.ByID), chromedp.SetValue("#elo1", "150", chromedp.ByID),
		chromedp.SetValue("#event", "Aggression 5 against its default", chromedp.ByID),
		chromedp.SetValue("#note", "does a bolder hivebot win more?", chromedp.ByID),
		chromedp.Click("#preview", chromedp.ByID), chromedp.WaitVisible("#cost", chromedp.ByID),
		chromedp.Text("#cost", &cost, chromedp.ByID))
	screenshot(t, bctx, "pool-submit.png")
	test := elo.SPRT{Elo0: 0, Elo1: 150, Alpha: 0.05, Beta: 0.05, Model: elo.Normalized}
	atElo0, err := test.Expect(elo.IndependentPairs(results.AssumedDrawRatio), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"SPRT [0, 150] normalized", fmt.Sprintf("%.1f", atElo0.Pairs), `Aggression: aggressive "5", hivebot its default`, "Capped at 300 game pairs"} {
		if !strings.Contains(cost, want) {
			t.Errorf("the preview %q lacks %q", cost, want)
		}
	}
	var state string
	run("ann's submission", chromedp.Click("#confirm", chromedp.ByID), chromedp.WaitVisible("#state", chromedp.ByID),
		chromedp.Text("#state", &state, chromedp.ByID))
	runs := p.srv.Runs()
	id := runs[len(runs)-1].ID
	if !strings.Contains(state, "pending") || p.srv.runState(id).Submitter != "ann" {
		t.Fatalf("ann's run after her submission: %q, submitter %q; want pending, ann's", state, p.srv.runState(id).Submitter)
	}
	run("vic approving ann's run", logout, login("vic", vicPassword), chromedp.Navigate(base+"/runs/"+id+"/manage"),
		chromedp.Click("#approve", chromedp.ByID), chromedp.WaitVisible("#pause", chromedp.ByID))
	waitUntil(t, "the SPRT to decide", 150*time.Second, func() bool { st := p.srv.runState(id); return st.Over() })
	st := p.srv.runState(id)
	if st.State != StateFinished || !strings.Contains(st.Reason, "the SPRT accepted") {
		t.Fatalf("ann's run: %s (%s), want finished by the SPRT", st.State, st.Reason)
	}
	var shown, audit string
	run("the run's page", chromedp.Navigate(base+"/runs/"+id+"/manage"), chromedp.WaitVisible("#results", chromedp.ByID),
		chromedp.Text("#results", &shown, chromedp.ByID), chromedp.Text("#audit", &audit, chromedp.ByID))
	screenshot(t, bctx, "pool-manage.png")

	recs, err := results.ReadFile(st.Records)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := render.WriteStats(io.Discard, recs, render.StatsOptions{SPRT: &test, Files: 1})
	if err != nil {
		t.Fatal(err)
	}
	pr := sum.Pairings[0]
	wdl := fmt.Sprintf("W/D/L %d/%d/%d", pr.Wins, pr.Draws, pr.Losses)
	if pr.First != "aggressive" {
		wdl = fmt.Sprintf("W/D/L %d/%d/%d", pr.Losses, pr.Draws, pr.Wins)
	}
	// The LLR is the server's up to the decision; arbiter stats counts the games that were in
	// flight at the decision too (render.SPRTLine's AllLLR): the verdicts agree, not always
	// the digits.
	decision := map[elo.Decision]string{elo.AcceptH1: "H1", elo.AcceptH0: "H0"}[render.WriteSPRTVerdict(io.Discard, test, sum)]
	wants := []string{fmt.Sprintf("%d of", len(recs)), wdl, ", " + decision}
	if pr.Elo != nil && pr.First == "aggressive" {
		wants = append(wants, fmt.Sprintf("Elo %+.1f", *pr.Elo))
	}
	for _, want := range wants {
		if decision == "" || !strings.Contains(shown, want) {
			t.Errorf("the run's page shows %q; arbiter stats of its records says %q", shown, want)
		}
	}
	// The test's page counts the records as arbiter stats of them alone does: the same LLR,
	// to the digit, and the same decision.
	carried, err := results.RecordsTest(recs)
	if err != nil || carried == nil {
		t.Fatalf("the run's records carry no test (%v)", err)
	}
	alone, err := carried.SPRT()
	if err != nil {
		t.Fatal(err)
	}
	byStats, err := render.WriteStats(io.Discard, recs, render.StatsOptions{SPRT: &alone, SPRTFromRecords: true, MaxPairs: carried.MaxPairs(), Files: 1})
	if err != nil {
		t.Fatal(err)
	}
	var pageLLR, pageDecision string
	run("the test's page", chromedp.Navigate(base+"/runs/"+id), chromedp.WaitVisible("#llr", chromedp.ByID),
		chromedp.Text("#llr", &pageLLR, chromedp.ByID), chromedp.Text("#decision", &pageDecision, chromedp.ByID))
	if want := fmt.Sprintf("%.2f", byStats.SPRT.LLR); pageLLR != want || pageDecision != byStats.SPRT.Decision {
		t.Errorf("the test's page shows LLR %s, %s; arbiter stats of the records alone: LLR %s, %s", pageLLR, pageDecision, want, byStats.SPRT.Decision)
	}
	for _, want := range []string{"ann", "submitted", "vic", "approved"} {
		if !strings.Contains(audit, want) {
			t.Errorf("the audit trail %q lacks %q", audit, want)
		}
	}
	t.Logf("ann's SPRT: %s after %d games; the page: %s", st.Reason, len(recs), shown)
	mu.Lock()
	defer mu.Unlock()
	if len(pageErrors) > 0 {
		t.Errorf("the pages threw: %v", pageErrors)
	}
}
