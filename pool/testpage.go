package pool

import (
	"cmp"
	"fmt"
	"maps"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/distributed"
	"hivearbiter/elo"
	"hivearbiter/openings"
	"hivearbiter/report"
	"hivearbiter/results"
	"hivearbiter/results/render"
)

// A test's page (GET /runs/{id}): what was tested, where it stands, and how it got there. It
// is drawn from what outlives the run's play: its state and submission (the bucket's, which
// the server holds) and its records file on the server's disk. The coordinator's live page
// goes when the run ends; this one stays.

// testPage is what a test's page shows.
type testPage struct {
	Now  time.Time
	Run  RunView
	Over bool // no refresh: the page will not change
	// Title is the run's engines: "dev vs base", "gauntlet of a, b, c".
	Title                   string
	Submitter, Note, Event  string
	Submitted, Ended        time.Time
	Started, LastGame       time.Time // the first game's start and the last game's end, from the records
	Facts                   []fact
	Unfit                   []WorkerFit // the current workers that cannot play the run, with why
	Engines                 []string
	Settings                []settingRow
	Differ                  bool // some setting differs between the engines
	Results                 *recordsView
	RecordsError            string
	Workers                 []distributed.WorkerStats
	TakenOut                []distributed.TakenOut
	Excluded                []Exclusion // workers a person took out, with their games
	List, ListURL, ListSite string      // a list's batch: the list's name, its batches and its site
}

// fact is a line of the test's description: "limit", "st=1".
type fact struct{ Label, Value string }

// settingRow is one setting of the engines, a value per engine; Differs marks a setting that
// is not the same for all of them (what the test is about).
type settingRow struct {
	Label   string
	Values  []string
	Differs bool
	Code    bool // shown as code (hashes, commands)
}

// recordsView is what a run's records say: its results, as "arbiter stats" computes them,
// and their curves.
type recordsView struct {
	Games    int
	Pairings []pairingView
	SPRT     *sprtView
	Cross    *crossView
	Faults   string
	LLR, Elo *chart
	// Banners are the engines' ids ("id" line), as their games recorded them.
	Banners           map[string]string
	Started, LastGame time.Time
}

// pairingView is a head-to-head result: the result block of "arbiter stats", in cells.
type pairingView struct {
	First, Second       string
	Games               int
	Wins, Draws, Losses int
	Points              string // "5.5/10"
	EloLine             string // as the result block says it: "Elo: 12.34 +/- 5.67, nElo: ..."
	Paired              bool
	Pentanomial         elo.Pentanomial
	Unpaired            int
}

// sprtView is the SPRT's state over the records, as "arbiter stats -sprt" computes it.
type sprtView struct {
	LLR, Lower, Upper       float64
	Elo0, Elo1, Alpha, Beta float64
	Model, Decision         string
	Pairs                   int
}

// LLRText is the LLR as the result block prints it.
func (s *sprtView) LLRText() string { return fmt.Sprintf("%.2f", s.LLR) }

// crossView is a gauntlet's or round robin's cross table.
type crossView struct {
	Players []string
	Rows    []crossRow
}

type crossRow struct {
	Rank   int
	Player string
	Points string
	Cells  []string
}

// serveTestPage writes a run's page.
func (s *Server) serveTestPage(w http.ResponseWriter, r *http.Request) {
	snap, ok := s.snapshot(r.PathValue("id"))
	if !ok {
		http.Error(w, "no run "+r.PathValue("id")+" in this pool", http.StatusNotFound)
		return
	}
	page := s.testPage(snap, time.Now())
	writePage(w, "test", page)
}

// runSnapshot is a run as its pages show it, copied under the server's lock.
type runSnapshot struct {
	state    RunState
	sub      *Submission // never changed once the run is in the pool
	workers  []distributed.WorkerStats
	takenOut []distributed.TakenOut
	list     *keptList // a batch of a list the server keeps
}

// snapshot copies a run's state and where it stands with its workers.
func (s *Server) snapshot(id string) (runSnapshot, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.runs[id]
	if r == nil {
		return runSnapshot{}, false
	}
	snap := runSnapshot{state: r.state, sub: r.sub, workers: r.state.Workers, takenOut: r.state.TakenOut}
	if st := r.status(); st != nil {
		snap.workers, snap.takenOut = slices.Clone(st.Workers), slices.Clone(st.TakenOut)
	}
	snap.state.TakenOut = snap.takenOut
	if id := listOf(r.sub); id != "" {
		l := s.lists[id]
		if l.Name == "" {
			l = keptList{ID: id, Name: "list " + id}
		}
		snap.list = &l
	}
	return snap, true
}

// testPage lays out a run's page; the records are read (or their view taken from the cache
// while the file is unchanged) for a run that is not a tune.
func (s *Server) testPage(snap runSnapshot, now time.Time) *testPage {
	p := newTestPage(snap, now)
	if snap.state.Format == "tune" {
		return p // a tune's records are its own: its report draws them
	}
	view, err := s.pages.view(snap, func(recs []results.Record) *recordsView { return newRecordsView(snap, recs) })
	if err != nil {
		p.RecordsError = err.Error()
		return p
	}
	p.addRecords(view)
	return p
}

// newTestPage lays out what the run's state and submission say.
func newTestPage(snap runSnapshot, now time.Time) *testPage {
	st, sub := snap.state, snap.sub
	if sub == nil {
		sub = &Submission{}
	}
	cfg := sub.Config
	title := strings.Join(st.Engines, " vs ")
	if len(st.Engines) > 2 {
		title = st.Format + " of " + strings.Join(st.Engines, ", ")
	}
	p := &testPage{Now: now, Run: View(st), Over: st.Over(), Title: title,
		Submitter: sub.Person, Note: sub.Note, Event: cfg.Event, Submitted: st.Submitted, Ended: st.Ended,
		Engines: st.Engines, Workers: snap.workers, TakenOut: snap.takenOut, Excluded: st.Excluded}
	if l := snap.list; l != nil {
		// The page is at /runs/ID: its links are relative, as the dashboard's are.
		p.List, p.ListURL = l.Name, "."+dashboardQuery{List: l.Name}.URL(1)
		if l.Site != "" {
			p.ListSite = "../lists/" + l.Slug + "/"
		}
	}
	add := func(label, value string) {
		if value != "" {
			p.Facts = append(p.Facts, fact{label, value})
		}
	}
	format := st.Format
	if cfg.Format == arbiter.Gauntlet && cfg.Seeds > 0 {
		format += fmt.Sprintf(" (%d seeded)", cfg.Seeds)
	}
	add("format", format)
	add("game type", cfg.GameType)
	add("limit", limitText(cfg))
	add("openings", openingsText(cfg.Openings))
	if t := sprtOf(sub); t != nil {
		add("SPRT", fmt.Sprintf("[%g, %g] %s, α %g, β %g", t.Elo0, t.Elo1, t.Unit(), t.Alpha, t.Beta))
		add("model", t.Model.String())
	}
	games := "games"
	if cfg.SPRT != nil {
		games = "cap"
	}
	if cfg.Rounds > 0 {
		add(games, fmt.Sprintf("%d games (%d rounds)", st.Scheduled, cfg.Rounds))
	} else {
		add(games, fmt.Sprintf("%d games", st.Scheduled))
	}
	if t := cfg.SPRT; t != nil {
		if t.InconclusiveAtCap {
			add("at the cap", "ends undecided (at_cap=inconclusive)")
		} else {
			add("at the cap", "decides H0 or H1 by the final threshold on the LLR")
		}
	}
	if sc := st.Scale; sc != nil {
		scaling := sc.String()
		if len(st.Scales) > 0 {
			scaling += ": " + scalesText(st.Scales)
		}
		add("time scaling", scaling)
	}
	if a := cfg.Adjudication; a.MaxPlies > 0 {
		add("adjudication", fmt.Sprintf("draw at ply %d", a.MaxPlies))
	}
	add("seed", strconv.FormatInt(cfg.Seed, 10))
	add("priority", fmt.Sprintf("%d (share %g)", st.Priority, st.Share))
	if len(st.Platforms) > 0 {
		add("platforms", strings.Join(st.Platforms, ", "))
	}
	for _, f := range st.Fit {
		if f.Reason != "" {
			p.Unfit = append(p.Unfit, f)
		}
	}
	p.Settings = engineSettings(sub)
	for _, row := range p.Settings {
		p.Differ = p.Differ || row.Differs
	}
	return p
}

// addRecords puts what the records say on the page.
func (p *testPage) addRecords(v *recordsView) {
	p.Results = v
	p.Started, p.LastGame = v.Started, v.LastGame
	for i, row := range p.Settings {
		if row.Label != "id" {
			continue
		}
		// An engine the submitter's machine did not identify has its id from its games.
		row.Values = slices.Clone(row.Values)
		for e, name := range p.Engines {
			if e < len(row.Values) && (row.Values[e] == "" || row.Values[e] == "-") && v.Banners[name] != "" {
				row.Values[e] = v.Banners[name]
			}
		}
		row.Differs = differ(row.Values)
		p.Settings[i] = row
	}
}

// sprtOf is the run's SPRT, if it has a valid one.
func sprtOf(sub *Submission) *elo.SPRT {
	c := sub.Config.SPRT
	if c == nil {
		return nil
	}
	model, err := elo.ParseModel(c.Model)
	if err != nil {
		return nil
	}
	t := elo.SPRT{Elo0: c.Elo0, Elo1: c.Elo1, Alpha: c.Alpha, Beta: c.Beta, Model: model}
	if t.Validate() != nil {
		return nil
	}
	return &t
}

// limitText is the engines' limit: one when they share it, each engine's otherwise.
func limitText(cfg arbiter.Config) string {
	var limits []string
	for _, e := range cfg.Engines {
		limits = append(limits, orDash(e.Time.String()))
	}
	if !differ(limits) && len(limits) > 0 {
		return limits[0]
	}
	var each []string
	for i, e := range cfg.Engines {
		each = append(each, e.Name+": "+limits[i])
	}
	return strings.Join(each, ", ")
}

// openingsText says where the openings came from.
func openingsText(o openings.Config) string {
	var s string
	switch {
	case o.Book != "":
		s = "book " + o.Book
	case o.File != "":
		s = "file " + o.File
	case o.RandomPlies > 0:
		s = fmt.Sprintf("%d random plies", o.RandomPlies)
	default:
		return "the empty board"
	}
	if o.Order != "" && o.Order != "sequential" {
		s += ", " + o.Order
	}
	if o.Start > 0 {
		s += fmt.Sprintf(", from opening %d", o.Start)
	}
	return s
}

// engineSettings are the engines' settings side by side: their ids and program hashes, how
// they are run, their limits and options; the rows that differ are marked.
func engineSettings(sub *Submission) []settingRow {
	engines := sub.Config.Engines
	n := len(engines)
	var rows []settingRow
	row := func(label string, code bool, value func(i int) string) {
		values := make([]string, n)
		for i := range engines {
			values[i] = value(i)
		}
		rows = append(rows, settingRow{Label: label, Values: values, Differs: differ(values), Code: code})
	}
	row("id", false, func(i int) string {
		if i < len(sub.Expect) {
			return orDash(sub.Expect[i].ID)
		}
		return "-"
	})
	row("program SHA-256", true, func(i int) string {
		if i < len(sub.Manifests) && sub.Manifests[i].SHA256 != "" {
			return sub.Manifests[i].SHA256
		}
		if i < len(sub.Expect) {
			return orDash(sub.Expect[i].SHA256)
		}
		return "-"
	})
	row("protocol", false, func(i int) string { return cmp.Or(engines[i].Protocol, "uhp") })
	row("command", true, func(i int) string {
		switch e := engines[i]; {
		case e.Builtin != "":
			return "builtin=" + e.Builtin
		case e.Addr != "":
			return "addr=" + e.Addr
		default:
			return strings.Join(e.Command, " ")
		}
	})
	row("limit", false, func(i int) string { return orDash(engines[i].Time.String()) })
	row("margin", false, func(i int) string {
		if engines[i].Margin == 0 {
			return "-"
		}
		return engines[i].Margin.String()
	})
	row("restart", false, func(i int) string { return map[bool]string{true: "on", false: "off"}[engines[i].Restart] })
	// Each option and setting any engine has, in the order first met.
	var options, settings []string
	for _, e := range engines {
		for _, o := range e.Options {
			if !slices.Contains(options, o.Name) {
				options = append(options, o.Name)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(e.Settings)) {
			if !slices.Contains(settings, k) {
				settings = append(settings, k)
			}
		}
	}
	for _, name := range options {
		row("option "+name, false, func(i int) string {
			for _, o := range slices.Backward(engines[i].Options) { // the last setting wins
				if o.Name == name {
					return o.Value
				}
			}
			return "-"
		})
	}
	for _, k := range settings {
		row(k, false, func(i int) string { return cmp.Or(engines[i].Settings[k], "-") })
	}
	if n < 2 {
		for i := range rows {
			rows[i].Differs = false
		}
	}
	return rows
}

// differ reports whether the values are not all the same.
func differ(values []string) bool {
	for _, v := range values {
		if v != values[0] {
			return true
		}
	}
	return false
}

// newRecordsView computes what a run's records say, as "arbiter stats" would of them: the
// result block of each pairing, the SPRT, the cross table of three engines or more, and the
// curves of the LLR and the Elo over the pairs.
func newRecordsView(snap runSnapshot, recs []results.Record) *recordsView {
	engines := snap.state.Engines
	v := &recordsView{Games: len(recs), Banners: map[string]string{}}
	for i := range recs {
		r := &recs[i]
		if v.Started.IsZero() || r.Started.Before(v.Started) {
			v.Started = r.Started
		}
		if r.Finished.After(v.LastGame) {
			v.LastGame = r.Finished
		}
		for _, pl := range []results.Player{r.White, r.Black} {
			if pl.ID != "" {
				v.Banners[pl.Name] = pl.ID
			}
		}
	}
	tally := results.NewTally(recs, engines)
	for _, p := range tally.Pairings {
		ptnml := p.Pairs.Pentanomial()
		paired := ptnml.Pairs() > 0
		est := elo.TrinomialEstimate(p.WDL)
		if paired {
			est = elo.PentanomialEstimate(ptnml)
		}
		v.Pairings = append(v.Pairings, pairingView{First: p.First, Second: p.Second, Games: p.WDL.Games(),
			Wins: p.WDL.Wins, Draws: p.WDL.Draws, Losses: p.WDL.Losses, Points: render.PointsText(p.WDL),
			EloLine: render.EloLine(est, p.WDL.Games()), Paired: paired, Pentanomial: ptnml, Unpaired: p.Unpaired})
	}
	test := sprtOf(snap.sub)
	if test != nil && len(tally.Players) == 2 {
		p := tally.Pairing(tally.Players[0].Name, tally.Players[1].Name)
		if p != nil {
			ptnml := p.Pairs.Pentanomial()
			llr := test.LLR(ptnml)
			lower, upper := test.Bounds()
			// At the run's cap the test decides by its final threshold, as arbiter stats of the
			// records does (the records carry the cap).
			maxPairs := 0
			if carried, err := results.RecordsTest(recs); err == nil && carried != nil {
				maxPairs = carried.MaxPairs()
			}
			v.SPRT = &sprtView{LLR: llr, Lower: lower, Upper: upper, Elo0: test.Elo0, Elo1: test.Elo1, Alpha: test.Alpha,
				Beta: test.Beta, Model: test.Model.String(), Decision: test.Conclude(ptnml, maxPairs).Decision.String(), Pairs: ptnml.Pairs()}
		}
	}
	if len(tally.Players) > 2 {
		ct := tally.CrossTable()
		cv := &crossView{}
		for i, pl := range ct.Players {
			cv.Players = append(cv.Players, pl.Name)
			row := crossRow{Rank: i + 1, Player: pl.Name, Points: render.PointsText(pl.WDL)}
			for j := range ct.Players {
				row.Cells = append(row.Cells, render.CrossTableCell(ct, i, j))
			}
			cv.Rows = append(cv.Rows, row)
		}
		v.Cross = cv
	}
	if tally.Faults() > 0 {
		v.Faults = tally.FaultReasons()
	}
	progress := report.ProgressOf(recs, engines, test)
	unit := progress.Unit
	if s := progress.SPRT; s != nil {
		v.LLR = newChart("LLR", unit, series{values: floats(s.LLR), rules: []chartRule{
			{At: float64(s.Upper), Label: fmt.Sprintf("H1 %.2f", float64(s.Upper)), Class: "upper"},
			{At: 0, Label: "0", Class: "zero"},
			{At: float64(s.Lower), Label: fmt.Sprintf("H0 %.2f", float64(s.Lower)), Class: "lower"}}})
	}
	if len(progress.Elo) > 0 {
		c := progress.Elo[0]
		title := "Elo of " + c.Engine
		if len(engines) > 2 {
			title += " against the field"
		}
		v.Elo = newChart(title, unit, series{values: floats(c.Elo), lower: floats(c.Lower), upper: floats(c.Upper),
			rules: []chartRule{{At: 0, Label: "0", Class: "zero"}}})
	}
	return v
}

func floats[T ~float64](xs []T) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// pageCache keeps the view of each run's records while its records file is unchanged: a page
// refreshed every few seconds, or opened by many, reads and tallies the file once per change.
// Of a run still played it keeps the records read so far too (without their moves), so that
// after a game is recorded only that game is read: the page of an SPRT of 20,000 games is
// not 20,000 games read at each refresh. Its lock is a leaf (locksordering.txt).
type pageCache struct {
	mu    sync.Mutex
	views map[string]cachedView
}

type cachedView struct {
	size int64
	mod  time.Time
	view *recordsView
	// recs are the run's records up to next, the offset just after the last complete line
	// read; nil for a run over, whose file no longer grows.
	recs []results.Record
	next int64
}

// maxCachedViews bounds the cache: a view is a few kilobytes (its curves are at most
// chartPoints points), and the pages most asked for are of the runs being played.
const maxCachedViews = 64

// view returns the view of a run's records, computed by build from the records (the run's
// own only, in a list's shared file) unless the file is unchanged since it last was.
func (c *pageCache) view(snap runSnapshot, build func([]results.Record) *recordsView) (*recordsView, error) {
	id, path := snap.state.ID, snap.state.Records
	info, err := os.Stat(path)
	if os.IsNotExist(err) {
		return build(nil), nil // no game recorded yet
	} else if err != nil {
		return nil, fmt.Errorf("pool: the run's records: %w", err)
	}
	c.mu.Lock()
	old, ok := c.views[id]
	c.mu.Unlock()
	if ok && old.size == info.Size() && old.mod.Equal(info.ModTime()) {
		return old.view, nil
	}
	// Read on from where the last reading stopped, unless the file is shorter than that (it
	// was replaced).
	recs, from := slices.Clip(old.recs), old.next
	if old.recs == nil || info.Size() < old.next {
		recs, from = nil, 0
	}
	shared := listOf(snap.sub) != ""
	// The moves, a record's bulk, are not decoded: the results and curves do not need them.
	next, _, err := results.ReadFileFrom(path, from, results.ReadOptions{Counts: true}, func(r *results.Record) error {
		if !shared || r.Run == id {
			recs = append(recs, *r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	view := build(recs)
	entry := cachedView{size: info.Size(), mod: info.ModTime(), view: view, recs: recs, next: next}
	if snap.state.Over() {
		entry.recs = nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.views == nil {
		c.views = map[string]cachedView{}
	}
	if _, ok := c.views[id]; !ok && len(c.views) >= maxCachedViews {
		for k := range c.views { // any one: the map's order is as good as any
			delete(c.views, k)
			break
		}
	}
	c.views[id] = entry
	return view, nil
}

// forget drops the view of a run's records: its file was rewritten (a worker's games taken
// out), and may have grown back past where the view last read it before it is asked again.
func (c *pageCache) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.views, id)
}
