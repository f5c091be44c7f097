package pool

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/results"
)

// pagesFixture is a pool of four runs (a finished SPRT of an option, an active gauntlet, a
// paused match with no games, a rating list's batch) and two workers, at pagesEpoch + 2h.
func pagesFixture(tb testing.TB) (*Server, time.Time) {
	tb.Helper()
	dir := tb.TempDir()
	sprt := &arbiter.SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "normalized"}
	patch := fixtureEngine("patch", driver.EngineOption{Name: "Hash", Value: "64"}, driver.EngineOption{Name: "Aggression", Value: "3"})
	base := fixtureEngine("base", driver.EngineOption{Name: "Hash", Value: "64"}, driver.EngineOption{Name: "Aggression", Value: "2"})
	gauntletRecs := append(pairRecords("0f0f0f0f0f0f", "a", "b", 0, outcomes(4, "WD", "DD", "LW"), pagesEpoch.Add(time.Hour)),
		pairRecords("0f0f0f0f0f0f", "a", "c", 4, outcomes(3, "WW", "WD"), pagesEpoch.Add(70*time.Minute))...)
	runs := []fixtureRun{
		{id: "1a2b3c4d5e6f", format: "match", state: StateFinished, reason: "the SPRT accepted H1", engines: []driver.EngineConfig{patch, base},
			sprt: sprt, submitter: "ann", note: "Aggression 3 instead of 2: more attacks on the queen.", event: "hivebot aggression",
			recs:      pairRecords("1a2b3c4d5e6f", "patch", "base", 0, outcomes(280, "WD", "WW", "DD", "LW", "WL", "DW"), pagesEpoch.Add(10*time.Minute)),
			scheduled: 2000, submitted: 5 * time.Minute,
			workers: []distributed.WorkerStats{{Name: "box-1", Slots: 4, Games: 50, Wins: 20, Draws: 22, Losses: 8, PValue: 0.61},
				{Name: "box-2", Slots: 2, Games: 30, Wins: 14, Draws: 10, Losses: 6, Faults: 1, TimeLosses: 1, PValue: 0.001, Flagged: true}},
			excluded: []Exclusion{{Worker: "box-3", By: "vic", At: pagesEpoch.Add(40 * time.Minute), Games: 8, Pairs: []int{3, 4, 5, 9}}}},
		{id: "0f0f0f0f0f0f", format: "gauntlet", state: StateActive, engines: []driver.EngineConfig{fixtureEngine("a"), fixtureEngine("b"), fixtureEngine("c")},
			submitter: "bo", recs: gauntletRecs, scheduled: 40, submitted: 50 * time.Minute,
			workers: []distributed.WorkerStats{{Name: "box-1", Slots: 4, Games: 14, Wins: 7, Draws: 5, Losses: 2, PValue: 0.5}}},
		{id: "ffffffffffff", format: "match", state: StatePaused, reason: "paused by a submitter", engines: []driver.EngineConfig{fixtureEngine("x"), fixtureEngine("y")},
			scheduled: 20, submitted: 90 * time.Minute},
		{id: "b47c00000001", format: "gauntlet", state: StateFinished, reason: "the schedule is complete", engines: []driver.EngineConfig{fixtureEngine("hivebot-2"), fixtureEngine("hivebot-1")},
			recs: pairRecords("b47c00000001", "hivebot-2", "hivebot-1", 0, outcomes(3, "WD"), pagesEpoch.Add(20*time.Minute)), scheduled: 6, submitted: 15 * time.Minute,
			list: "abc123def456"},
	}
	var held []*run
	for _, f := range runs {
		held = append(held, f.run(tb, dir))
	}
	now := pagesEpoch.Add(2 * time.Hour)
	workers := []WorkerState{
		// Their games, faults and flags are the runs' (Server.Workers sums them).
		{Name: "box-1", Slots: 4, Cores: 8, Platform: "linux/amd64", Run: "0f0f0f0f0f0f", LastSeen: now.Add(-time.Second)},
		{Name: "box-2", Slots: 2, Cores: 2, Platform: "linux/arm64", LastSeen: now.Add(-time.Hour)},
	}
	return pagesServer(held, workers, keptList{ID: "abc123def456", Name: "Hive engines", Slug: "hive-engines", Site: dir + "/site"}), now
}

// TestDashboardGolden: the dashboard of the fixture, newest first, its list's batch under
// the list, and the list's batches alone when asked for, against golden files.
func TestDashboardGolden(t *testing.T) {
	t.Parallel()
	s, now := pagesFixture(t)
	for _, c := range []struct{ name, query string }{
		{"dashboard", ""},
		{"dashboard-list", "list=Hive+engines"},
	} {
		v, _ := url.ParseQuery(c.query)
		var out bytes.Buffer
		if err := webPages.ExecuteTemplate(&out, "dashboard", s.dashboard(parseDashboardQuery(v), now)); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "testdata/"+c.name+".golden", out.Bytes())
	}
}

// TestTestPageGolden: the page of a finished SPRT (its option that differs marked, its LLR
// and Elo charts, its workers, one taken out by an approver) and of an active gauntlet (its cross table), against golden
// files.
func TestTestPageGolden(t *testing.T) {
	t.Parallel()
	s, now := pagesFixture(t)
	for _, id := range []string{"1a2b3c4d5e6f", "0f0f0f0f0f0f", "b47c00000001"} {
		snap, ok := s.snapshot(id)
		if !ok {
			t.Fatalf("no run %s", id)
		}
		var out bytes.Buffer
		if err := webPages.ExecuteTemplate(&out, "test", s.testPage(snap, now)); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "testdata/testpage-"+id+".golden", out.Bytes())
	}
}

// TestPagesEscape: script in an engine's name, the event, an option's value, the note and the
// submitter is shown as text on the dashboard and the test's page, never run.
func TestPagesEscape(t *testing.T) {
	t.Parallel()
	const script = `<script>alert(1)</script>`
	const attr = `"><img src=x onerror=alert(2)>`
	evil, plain := "e"+script, "plain"+attr
	f := fixtureRun{id: "e5c4e5c4e5c4", format: "match", state: StateFinished, reason: "the schedule is complete",
		engines:   []driver.EngineConfig{fixtureEngine(evil, driver.EngineOption{Name: "Style", Value: script + attr}), fixtureEngine(plain)},
		sprt:      &arbiter.SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "normalized"},
		submitter: "mallory" + script, note: "note" + script + attr, event: "event" + script + attr,
		recs: pairRecords("e5c4e5c4e5c4", evil, plain, 0, outcomes(6, "WD", "LW", "DD"), pagesEpoch), scheduled: 12,
		workers: []distributed.WorkerStats{{Name: "w" + script, Games: 12}}}
	s := pagesServer([]*run{f.run(t, t.TempDir())}, []WorkerState{{Name: "w" + script, Run: f.id, LastSeen: pagesEpoch}})
	snap, _ := s.snapshot(f.id)
	pages := map[string]func() ([]byte, error){
		"dashboard": func() ([]byte, error) {
			var b bytes.Buffer
			err := webPages.ExecuteTemplate(&b, "dashboard", s.dashboard(dashboardQuery{Page: 1}, pagesEpoch.Add(time.Hour)))
			return b.Bytes(), err
		},
		"dashboard filtered by the engine": func() ([]byte, error) {
			var b bytes.Buffer
			err := webPages.ExecuteTemplate(&b, "dashboard", s.dashboard(dashboardQuery{Engine: evil, Person: "mallory" + script, Page: 1}, pagesEpoch.Add(time.Hour)))
			return b.Bytes(), err
		},
		"test page": func() ([]byte, error) {
			var b bytes.Buffer
			err := webPages.ExecuteTemplate(&b, "test", s.testPage(snap, pagesEpoch.Add(time.Hour)))
			return b.Bytes(), err
		},
	}
	for name, render := range pages {
		out, err := render()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		page := string(out)
		for _, raw := range []string{"<script>", "<img"} {
			if strings.Contains(page, raw) {
				t.Errorf("%s holds %q unescaped", name, raw)
			}
		}
		shown := []string{"e&lt;script&gt;alert(1)&lt;/script&gt;", "mallory&lt;script&gt;"}
		if name == "test page" {
			shown = append(shown, "note&lt;script&gt;", "event&lt;script&gt;", "&lt;script&gt;alert(1)&lt;/script&gt;&#34;&gt;&lt;img src=x onerror=alert(2)&gt;")
		}
		for _, want := range shown {
			if !strings.Contains(page, want) {
				t.Errorf("%s does not show %q as text", name, want)
			}
		}
	}
}

// TestDashboardPagesAndFilters: 120 runs are listed newest first, 50 a page, with links to the
// pages beside; filters by state, person and engine keep to the runs they name, across pages.
func TestDashboardPagesAndFilters(t *testing.T) {
	t.Parallel()
	var entries []runEntry
	for i := range 120 {
		state := StateFinished
		if i%4 == 0 {
			state = StateActive
		}
		sub := &Submission{Person: []string{"ann", "bo", "cy"}[i%3], Config: arbiter.Config{Engines: []driver.EngineConfig{fixtureEngine("dev"), fixtureEngine("base")}}}
		engines := []string{fmt.Sprintf("dev-%d", i), "base"}
		entries = append(entries, runEntry{RunState{ID: fmt.Sprintf("run%03d", i), Format: "match", Engines: engines, State: state,
			Submitted: pagesEpoch.Add(time.Duration(i) * time.Minute)}, sub})
	}
	ids := func(d *dashboardData) []string {
		var out []string
		for _, r := range d.Runs {
			out = append(out, r.ID)
		}
		return out
	}
	for _, c := range []struct {
		query      string
		total      int
		first      string
		last       string
		prev, next string
	}{
		{"", 120, "run119", "run070", "", "./?page=2"},
		{"page=3", 120, "run019", "run000", "./?page=2", ""},
		{"page=9", 120, "run019", "run000", "./?page=2", ""}, // past the end: the last page
		{"state=active", 30, "run116", "run000", "", ""},
		{"person=BO", 40, "run118", "run001", "", ""},
		{"engine=DEV-11", 11, "run119", "run011", "", ""}, // dev-11, dev-110 ... dev-119
		{"state=active&person=ann&page=1", 10, "run108", "run000", "", ""},
		{"state=stopped", 0, "", "", "", ""},
	} {
		v, _ := url.ParseQuery(c.query)
		d := newDashboard(slices.Clone(entries), nil, nil, parseDashboardQuery(v), pagesEpoch)
		got := ids(d)
		first, last := "", ""
		if len(got) > 0 {
			first, last = got[0], got[len(got)-1]
		}
		if d.Total != c.total || first != c.first || last != c.last || d.Prev != c.prev || d.Next != c.next {
			t.Errorf("?%s: %d runs, %s...%s, prev %q next %q; want %d, %s...%s, prev %q next %q",
				c.query, d.Total, first, last, d.Prev, d.Next, c.total, c.first, c.last, c.prev, c.next)
		}
		if len(got) > runsPerPage {
			t.Errorf("?%s: %d runs on a page", c.query, len(got))
		}
	}
}

// TestListSiteServed: a kept list's site is served read-only from its folder, and nothing
// outside the folder is reached: not by "..", escaped or not, nor by a link out of it.
func TestListSiteServed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	if err := os.MkdirAll(site, 0o755); err != nil {
		t.Fatal(err)
	}
	for path, text := range map[string]string{filepath.Join(site, "index.html"): "the list's table", filepath.Join(site, "table.json"): `{"rows":[]}`,
		filepath.Join(dir, "secret.txt"): "SECRET"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join("..", "secret.txt"), filepath.Join(site, "escape")); err != nil {
		t.Fatal(err)
	}
	s := pagesServer(nil, nil, keptList{ID: "abc123def456", Name: "Hive engines", Slug: "hive-engines", Site: site},
		keptList{ID: "000000000000", Name: "Unwritten", Slug: "unwritten", Site: filepath.Join(dir, "none")})
	h := readHandler(s)
	get := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		return rec
	}
	for target, want := range map[string]string{"/lists/hive-engines/": "the list's table", "/lists/hive-engines/table.json": `{"rows":[]}`} {
		if rec := get(target); rec.Code != http.StatusOK || rec.Body.String() != want {
			t.Errorf("%s: %d %q, want 200 %q", target, rec.Code, rec.Body.String(), want)
		}
	}
	for _, target := range []string{"/lists/hive-engines/../secret.txt", "/lists/hive-engines/..%2fsecret.txt", "/lists/hive-engines/%2e%2e/secret.txt",
		"/lists/hive-engines/escape", "/lists/hive-engines/../../" + filepath.Base(dir) + "/secret.txt"} {
		rec := get(target)
		if rec.Code == http.StatusOK || strings.Contains(rec.Body.String(), "SECRET") {
			t.Errorf("%s: %d %q, reached a file outside the site", target, rec.Code, rec.Body.String())
		}
	}
	for _, target := range []string{"/lists/nothing/", "/lists/unwritten/"} {
		if rec := get(target); rec.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", target, rec.Code)
		}
	}
	if rec := get("/lists/hive-engines/"); rec.Header().Get("Content-Type") == "" {
		t.Errorf("the site's index has no content type")
	}
}

// TestTestPageFollowsRecords: the page of a run being played shows each game as it is
// recorded, read on from where it stopped, with the numbers of a reading of the whole file;
// a file replaced by a shorter one is read again from its start.
func TestTestPageFollowsRecords(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sprt := &arbiter.SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "normalized"}
	all := pairRecords("0123456789ab", "dev", "base", 0, outcomes(30, "WD", "DD", "LW", "WW"), pagesEpoch)
	f := fixtureRun{id: "0123456789ab", format: "match", state: StateActive, sprt: sprt, engines: []driver.EngineConfig{fixtureEngine("dev"), fixtureEngine("base")},
		recs: all[:20], scheduled: 60}
	s := pagesServer([]*run{f.run(t, dir)}, nil)
	snap, _ := s.snapshot(f.id)
	check := func(what string, want []results.Record) {
		t.Helper()
		got := s.testPage(snap, pagesEpoch).Results
		fresh := newRecordsView(snap, want)
		if got == nil || !reflect.DeepEqual(got, fresh) {
			t.Errorf("%s: the page's view differs from one of the %d records read afresh", what, len(want))
		}
		if got != nil && got.Games != len(want) {
			t.Errorf("%s: %d games, want %d", what, got.Games, len(want))
		}
	}
	check("first reading", all[:20])
	writeRecords(t, snap.state.Records, all[20:21])
	check("a game later", all[:21])
	writeRecords(t, snap.state.Records, all[21:])
	check("the rest later", all)
	if err := os.Remove(snap.state.Records); err != nil {
		t.Fatal(err)
	}
	writeRecords(t, snap.state.Records, all[:6])
	check("a shorter file", all[:6])
}

// FuzzDashboardQuery: any query the dashboard is given lays out a page among its pages,
// of at most runsPerPage runs, each matching the query, and draws.
func FuzzDashboardQuery(f *testing.F) {
	for _, q := range []string{"", "page=2", "page=-1", "page=99999999999999999999", "state=active&person=ann&engine=dev", "list=x", "engine=%00", "person=%ff%fe"} {
		f.Add(q)
	}
	var entries []runEntry
	for i := range 130 {
		entries = append(entries, runEntry{RunState{ID: fmt.Sprintf("run%03d", i), Engines: []string{fmt.Sprintf("dev-%d", i), "base"},
			State: []string{StateActive, StateFinished, StatePaused}[i%3], Submitted: pagesEpoch.Add(time.Duration(i) * time.Second)},
			&Submission{Person: []string{"ann", "bo"}[i%2]}})
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q := parseDashboardQuery(v)
		d := newDashboard(slices.Clone(entries), nil, nil, q, pagesEpoch)
		if d.Page < 1 || d.Page > d.Pages || len(d.Runs) > runsPerPage || d.Total < len(d.Runs) {
			t.Fatalf("?%s: page %d of %d with %d of %d runs", raw, d.Page, d.Pages, len(d.Runs), d.Total)
		}
		for _, r := range d.Runs {
			if q.State != "" && r.State != q.State {
				t.Fatalf("?%s: a %s run listed", raw, r.State)
			}
		}
		if err := webPages.ExecuteTemplate(io.Discard, "dashboard", d); err != nil {
			t.Fatal(err)
		}
	})
}

// TestTestPageOfTune: a tune's page says what it tunes and its values now, and leaves its
// records (a tune's own, not games) to its report.
func TestTestPageOfTune(t *testing.T) {
	t.Parallel()
	f := fixtureRun{id: "7e7e7e7e7e7e", format: "tune", state: StateActive, engines: []driver.EngineConfig{fixtureEngine("hivebot")}, scheduled: 48}
	r := f.run(t, t.TempDir())
	r.state.Values = "Aggression=3.4 Mobility=12"
	if err := os.WriteFile(r.state.Records, []byte("not game records\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := pagesServer([]*run{r}, nil)
	snap, _ := s.snapshot(f.id)
	page := s.testPage(snap, pagesEpoch)
	var out bytes.Buffer
	if err := webPages.ExecuteTemplate(&out, "test", page); err != nil {
		t.Fatal(err)
	}
	if page.Results != nil || page.RecordsError != "" {
		t.Errorf("the tune's page read its records as games: %+v, %q", page.Results, page.RecordsError)
	}
	for _, want := range []string{"Aggression=3.4 Mobility=12", "7e7e7e7e7e7e/report.html", "tune"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the tune's page lacks %q", want)
		}
	}
}

// TestBatchGamesAreItsOwn: of two batches of a list, which share the list's records file, each
// batch's records, PGN and page hold its own games only.
func TestBatchGamesAreItsOwn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	batch := func(id string, pairs int, at time.Duration) fixtureRun {
		return fixtureRun{id: id, format: "gauntlet", state: StateFinished, engines: []driver.EngineConfig{fixtureEngine("new"), fixtureEngine("old")},
			recs: pairRecords(id, "new", "old", 0, outcomes(pairs, "WD"), pagesEpoch.Add(at)), scheduled: 2 * pairs, submitted: at, list: "abc123def456"}
	}
	first, second := batch("b47c00000001", 3, 0), batch("b47c00000002", 5, time.Hour)
	s := pagesServer([]*run{first.run(t, dir), second.run(t, dir)}, nil)
	h := readHandler(s)
	for _, f := range []fixtureRun{first, second} {
		games := len(f.recs)
		for file, count := range map[string]func(string) int{
			"records.jsonl": func(s string) int {
				lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
				for _, l := range lines {
					if !strings.Contains(l, `"run":"`+f.id+`"`) {
						return -1 // another run's game
					}
				}
				return len(lines)
			},
			"games.pgn": func(s string) int { return strings.Count(s, "[Event ") },
		} {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/runs/"+f.id+"/"+file, nil))
			if n := count(rec.Body.String()); rec.Code != http.StatusOK || n != games {
				t.Errorf("batch %s's %s: %d with %d games of its own or others, want its %d", f.id, file, rec.Code, n, games)
			}
		}
		snap, _ := s.snapshot(f.id)
		if v := s.testPage(snap, pagesEpoch).Results; v == nil || v.Games != games {
			t.Errorf("batch %s's page: %+v, want its %d games", f.id, v, games)
		}
	}
}

// TestPagesRunNoScript: the dashboard and a run's page are served with a policy that lets
// them run no script and load nothing from elsewhere.
func TestPagesRunNoScript(t *testing.T) {
	t.Parallel()
	s, _ := pagesFixture(t)
	h := readHandler(s)
	for _, target := range []string{"/", "/?state=finished", "/runs/1a2b3c4d5e6f"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		policy := rec.Header().Get("Content-Security-Policy")
		if rec.Code != http.StatusOK || !strings.Contains(policy, "default-src 'none'") || strings.Contains(policy, "script-src") {
			t.Errorf("%s: %d with the policy %q, want one that allows no script", target, rec.Code, policy)
		}
		if strings.Contains(rec.Body.String(), "<script") {
			t.Errorf("%s holds a script", target)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/runs/nosuchrun", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("a run not in the pool: %d, want 404", rec.Code)
	}
}
