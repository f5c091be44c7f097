package pool

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/openings"
	"hivearbiter/ratinglist"
	"hivearbiter/results"
)

// listHivebotEnv makes the test binary hivebot: the entrants of the lists of these tests, which
// play the same moves for the same position at a fixed depth, wherever they run.
const listHivebotEnv = "POOL_LIST_HIVEBOT"

// listBots are hivebot's profiles as entrants, as ratinglist's tests have them.
var listBots = []struct {
	name    string
	options []string
}{
	{"weak", []string{"Profile=weak"}},
	{"wild", []string{"Profile=weak", "Aggression=5"}},
	{"medium", []string{"Profile=medium", "Aggression=1"}},
	{"strong", []string{"Profile=strong"}},
}

// hivebotList is a list of the first n of listBots at depth 1 in dir, small enough to finish in
// seconds (a loose error target, a small budget), as ratinglist's tests make it.
func hivebotList(dir string, n int) (*ratinglist.List, error) {
	tc, err := driver.ParseTimeControl("depth=1")
	if err != nil {
		return nil, err
	}
	var entrants []ratinglist.Entrant
	for _, b := range listBots[:n] {
		e := ratinglist.Entrant{Name: b.name, Version: "1", Words: []string{"cmd=hivebot"}}
		e.Engine = driver.EngineConfig{Name: e.Player(), Command: []string{os.Args[0]}, Env: []string{listHivebotEnv + "=1"}, Time: tc}
		for _, o := range b.options {
			k, v, _ := strings.Cut(o, "=")
			e.Engine.Options = append(e.Engine.Options, driver.EngineOption{Name: k, Value: v})
		}
		entrants = append(entrants, e)
	}
	l := &ratinglist.List{Name: "test list", Path: filepath.Join(dir, "list.toml"), GameType: "Base+MLP", Limit: []string{"depth=1"},
		Openings: openings.Config{Book: "Base+MLP"}, Adjudication: arbiter.Adjudication{Repetitions: 3, MaxPlies: 120},
		Concurrency: 2, Seed: 5, Pairs: 2, Opponents: 2, ErrorTarget: 400, MaxGames: 16,
		Anchor: ratinglist.Anchor{Entrant: "weak 1", Elo: 1000}, Entrants: entrants,
		Records: filepath.Join(dir, "list.records.jsonl"), Checks: filepath.Join(dir, "checks"), Site: filepath.Join(dir, "site")}
	return l, l.Normalize()
}

// listGames are the records' games as the schedule names them: batch, run, game, players and
// opening.
func listGames(recs []results.Record) []string {
	var keys []string
	for _, r := range recs {
		keys = append(keys, fmt.Sprintf("batch %s run %s game %d %s-%s opening %d", r.Settings[ratinglist.LabelBatch], r.Run, r.Game, r.White.Name, r.Black.Name, r.OpeningIndex))
	}
	slices.Sort(keys)
	return keys
}

// checked is a check that passes every entrant and notes whom it checked.
type checked struct {
	mu    sync.Mutex
	names []string
}

func (c *checked) check(_ context.Context, e ratinglist.Entrant) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.names = append(c.names, e.Player())
	return "checked\n", nil
}

func (c *checked) has(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Contains(c.names, name)
}

// TestListKeptByThePool: a list kept by a pool's server with two workers plays the batches a
// local run plays (the same runs and games), with a server killed and started again in the
// middle; an entrant added to the list's file enters by itself (checked, played, rated); the
// ratings are those of the local run within their error bars; and the site's hook is given
// the games of a batch as they arrive, before it ends.
func TestListKeptByThePool(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	localDir := t.TempDir()
	local := func(n int) (*ratinglist.List, []results.Record) {
		l, err := hivebotList(localDir, n)
		if err != nil {
			t.Fatal(err)
		}
		c := &checked{}
		recs, err := (&ratinglist.Runner{List: l, Check: c.check, Play: ratinglist.PlayLocally(nil)}).Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return l, recs
	}
	start := time.Now()
	_, want3 := local(3)
	localList, want4 := local(4)
	t.Logf("the local run: %d games, then %d with the fourth entrant, in %s", len(want3), len(want4), time.Since(start).Round(time.Millisecond))

	p := newTestPool(t)
	dir := t.TempDir()
	listFile := filepath.Join(dir, "list.toml")
	entrants := func(n int) {
		if err := os.WriteFile(listFile, []byte(strconv.Itoa(n)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entrants(3)
	read := func() (*ratinglist.List, error) {
		b, err := os.ReadFile(listFile)
		if err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			return nil, err
		}
		return hivebotList(dir, n)
	}
	checks := &checked{}
	var mu sync.Mutex
	var written []int // how many records the hook was given, call by call
	keep := func() {
		err := p.srv.KeepList(List{Path: listFile, Read: read, Check: checks.check, Every: time.Millisecond, Poll: 20 * time.Millisecond,
			Written: func(_ *ratinglist.List, recs []results.Record) error {
				mu.Lock()
				written = append(written, len(recs))
				mu.Unlock()
				return nil
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
	keep()
	cache := t.TempDir()
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1"), Cache: cache, SkipBench: true},
		&Worker{Name: "w2", Creds: p.addWorker("w2"), Cache: cache, SkipBench: true})
	records := func() []results.Record {
		recs, err := ratinglist.ReadRecords(records0(t, dir))
		if err != nil {
			t.Fatal(err)
		}
		return recs
	}
	poolStart := time.Now()
	waitUntil(t, "half the games of the list's three entrants", 60*time.Second, func() bool { return len(records()) >= len(want3)/2 })
	p.stop()
	p.start()
	keep()
	done := func(n int, want []results.Record) func() bool {
		return func() bool {
			recs := records()
			if len(recs) < len(want) {
				return false
			}
			l, err := hivebotList(dir, n)
			if err != nil {
				t.Fatal(err)
			}
			_, more, err := ratinglist.Next(l, recs)
			return err == nil && !more
		}
	}
	waitUntil(t, "the list of three entrants to be done", 60*time.Second, done(3, want3))
	if got, want := listGames(records()), listGames(want3); !slices.Equal(got, want) {
		t.Fatalf("the pool's games of three entrants differ from the local run's:\n got %q\nwant %q", got, want)
	}
	t.Logf("the pool: %d games in %s, with a restart", len(want3), time.Since(poolStart).Round(time.Millisecond))

	mu.Lock()
	before := len(written)
	mu.Unlock()
	entrants(4)
	waitUntil(t, "the entrant added to the list's file to play its games", 60*time.Second, done(4, want4))
	recs := records()
	if got, want := listGames(recs), listGames(want4); !slices.Equal(got, want) {
		t.Fatalf("the pool's games with a fourth entrant differ from the local run's:\n got %q\nwant %q", got, want)
	}
	if !checks.has("strong 1") {
		t.Errorf("the entrant added was not checked (checks: %q)", checks.names)
	}
	var runs []RunState
	waitUntil(t, "the last batch's run to end", 10*time.Second, func() bool {
		var err error
		if runs, err = p.submitter.Runs(ctx); err != nil {
			t.Fatal(err)
		}
		return !slices.ContainsFunc(runs, func(st RunState) bool { return st.State == StateActive })
	})
	if len(runs) != len(batchSizes(recs)) {
		t.Errorf("%d runs in the pool for %d batches: a batch was submitted again, not resumed", len(runs), len(batchSizes(recs)))
	}
	for _, st := range runs {
		if st.State != StateFinished || st.Records != records0(t, dir) {
			t.Errorf("run %s: %s, its records %s, want finished with the list's records %s", st.ID, st.State, st.Records, records0(t, dir))
		}
	}
	// The dashboard shows the batches under their list, with its site, not among the runs;
	// each batch's page has the batch's games only, of the list's shared file.
	d := p.srv.dashboard(dashboardQuery{Page: 1}, time.Now())
	if len(d.Lists) != 1 || d.Lists[0].Name != "test list" || d.Lists[0].Runs != len(runs) || d.Lists[0].SiteURL != "lists/test-list/" ||
		d.Lists[0].Games != len(recs) || d.Total != 0 {
		t.Errorf("the dashboard shows %d runs and the lists %+v, want the list's %d batches and %d games under it, with its site", d.Total, d.Lists, len(runs), len(recs))
	}
	batches := batchSizes(recs)
	for _, st := range runs {
		snap, _ := p.srv.snapshot(st.ID)
		page := p.srv.testPage(snap, time.Now())
		batch, _ := strconv.Atoi(snap.sub.Config.Labels[ratinglist.LabelBatch])
		if page.Results == nil || batch < 1 || batch > len(batches) || page.Results.Games != batches[batch-1] || page.List != "test list" {
			t.Errorf("the page of batch %d (run %s): %+v of list %q, want the batch's games (%v by batch) of list %q", batch, st.ID, page.Results, page.List, batches, "test list")
		}
	}
	if identical := slices.Equal(gameResults(recs), gameResults(want4)); !identical {
		t.Logf("the games' results differ from the local run's (the ratings are compared below)")
	}
	for _, r := range recs {
		if r.White.Program == "" || r.Black.Program == "" || r.Settings[ratinglist.LabelList] == "" {
			t.Fatalf("game %v has no program or no list label: %+v %+v %v", r.Key(), r.White, r.Black, r.Settings)
		}
	}

	l, err := hivebotList(dir, 4)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ratinglist.Compute(l, recs)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ratinglist.Compute(localList, want4)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want.Rows {
		g, ok := got.Row(w.Player)
		if !ok || g.Rated != w.Rated || math.Abs(g.Elo-w.Elo) > w.Error+1e-9 {
			t.Errorf("%s: the pool's %+.1f ± %.1f, the local run's %+.1f ± %.1f", w.Player, g.Elo, g.Error, w.Elo, w.Error)
		}
		t.Logf("%s: the pool's %.1f ± %.1f, the local run's %.1f ± %.1f", w.Player, g.Elo, g.Error, w.Elo, w.Error)
	}

	// Records cut back to before the last batch (a file restored from a backup): the batch's
	// run, finished in the pool, is played again into them.
	sizes := batchSizes(recs)
	kept := len(recs) - sizes[len(sizes)-1]
	data, err := os.ReadFile(records0(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	end := 0
	for range kept {
		end += strings.IndexByte(string(data[end:]), '\n') + 1
	}
	if err := os.WriteFile(records0(t, dir), data[:end], 0o644); err != nil {
		t.Fatal(err)
	}
	entrants(4) // the keeper, done, waits for the list's file to change
	waitUntil(t, "the last batch to be played again", 60*time.Second, done(4, want4))
	if got, want := listGames(records()), listGames(want4); !slices.Equal(got, want) {
		t.Fatalf("the games after the last batch was played again differ from the local run's:\n got %q\nwant %q", got, want)
	}

	// A submitter cannot name a records file of the server's.
	sub := fakeSubmission(t, 1, 1, nil)
	sub.Records = filepath.Join(dir, "elsewhere.jsonl")
	if _, err := p.submitter.Submit(ctx, sub); err == nil || !strings.Contains(err.Error(), "may not name its records file") {
		t.Errorf("a submission naming its records file: %v", err)
	}

	// The batches played with the fourth entrant: the hook saw records between their ends.
	ends := map[int]bool{}
	n := 0
	for _, b := range batchSizes(recs) {
		n += b
		ends[n] = true
	}
	mu.Lock()
	defer mu.Unlock()
	var between []int
	for _, w := range written[before:] {
		if w > len(want3) && !ends[w] {
			between = append(between, w)
		}
	}
	if len(between) == 0 {
		t.Errorf("the hook saw no games of a batch before it ended: it was given %v records (the batches end at %v)", written[before:], ends)
	}
}

// records0 is the path of the records file of the list in dir.
func records0(t *testing.T, dir string) string {
	l, err := hivebotList(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	return l.Records
}

// gameResults are the records' games with their results, in the schedule's order.
func gameResults(recs []results.Record) []string {
	var keys []string
	for _, r := range recs {
		keys = append(keys, fmt.Sprintf("%s#%d %s %s", r.Run, r.Game, r.Result, r.Reason))
	}
	slices.Sort(keys)
	return keys
}

// batchSizes counts the records of each batch, in the order of the batches.
func batchSizes(recs []results.Record) []int {
	var sizes []int
	for _, r := range recs {
		b, _ := strconv.Atoi(r.Settings[ratinglist.LabelBatch])
		for len(sizes) < b {
			sizes = append(sizes, 0)
		}
		sizes[b-1]++
	}
	return sizes
}
