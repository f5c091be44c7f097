package pool

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"hivearbiter/elo"
	"hivearbiter/results"
)

// The dashboard (GET /): the runs newest first, a page at a time, filtered by state, person,
// engine or list; the rating lists the server keeps, each with its batches and its site; and
// the workers.

// runsPerPage is how many runs a page of the dashboard lists.
const runsPerPage = 50

// dashboardQuery is what the dashboard is asked to show, from its address's query.
type dashboardQuery struct {
	State  string // one of the runs' states; "" for all
	Person string // the submitter, as Submission.Person has it; "" for all
	Engine string // a part of an engine's name, in any case; "" for all
	// List shows the batches of the list of this name (or ID); without it, a list's batches
	// are shown under their list, not among the runs.
	List string
	Page int // from 1
}

func parseDashboardQuery(v url.Values) dashboardQuery {
	q := dashboardQuery{State: v.Get("state"), Person: strings.TrimSpace(v.Get("person")),
		Engine: strings.TrimSpace(v.Get("engine")), List: v.Get("list"), Page: 1}
	if n, err := strconv.Atoi(v.Get("page")); err == nil && n > 1 {
		q.Page = n
	}
	return q
}

// URL is the dashboard's address with this query, at page n.
func (q dashboardQuery) URL(page int) string {
	v := url.Values{}
	for k, s := range map[string]string{"state": q.State, "person": q.Person, "engine": q.Engine, "list": q.List} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return "./"
	}
	return "./?" + v.Encode()
}

// Filtered reports whether the query narrows the runs.
func (q dashboardQuery) Filtered() bool {
	return q.State != "" || q.Person != "" || q.Engine != "" || q.List != ""
}

// runEntry is a run as the dashboard sorts and filters it.
type runEntry struct {
	state RunState
	sub   *Submission
}

// runEntries copies the runs' states, with their submissions (which do not change).
func (s *Server) runEntries() []runEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := make([]runEntry, 0, len(s.runs))
	for _, r := range s.runs {
		st := r.state
		if status := r.status(); status != nil {
			st.TakenOut = status.TakenOut
		}
		list = append(list, runEntry{st, r.sub})
	}
	return list
}

// dashboardData is what the dashboard shows.
type dashboardData struct {
	Now    time.Time
	Query  dashboardQuery
	States []string
	Runs   []runRow
	// Total is the number of runs the query matches; Page and Pages where the page is among
	// them; Prev and Next the addresses of the pages beside it ("" at an end).
	Total, Page, Pages int
	Prev, Next         string
	// Active counts the active runs of the whole pool.
	Active  int
	Lists   []listRow
	Workers []WorkerState
}

// runRow is a run's row of the dashboard.
type runRow struct {
	RunView
	Limit     string // the engines' limit ("st=1"; each engine's when they differ)
	Bounds    string // the SPRT's Elo bounds, "[0, 5]"; "" without an SPRT
	Submitter string
	List      string // the name of the list whose batch it is
	// Decision is the SPRT's, H0 or H1, once it has decided ("" before, and without one).
	Decision string
}

// listRow is a kept list on the dashboard: its site, its batches and the latest of them.
type listRow struct {
	keptList
	SiteURL      string // "" when the server does not know where its site is
	Batches      string // the dashboard's address of its batches
	Runs, Active int
	Games        int
	Latest       *runRow
}

func (s *Server) serveDashboard(w http.ResponseWriter, r *http.Request) {
	d := s.dashboard(parseDashboardQuery(r.URL.Query()), time.Now())
	writePage(w, "dashboard", d)
}

// dashboard lays out the dashboard of the server's runs, lists and workers at now.
func (s *Server) dashboard(q dashboardQuery, now time.Time) *dashboardData {
	return newDashboard(s.runEntries(), s.keptLists(), s.Workers(), q, now)
}

// newDashboard lays out the dashboard: the runs the query asks for, newest first, one page of
// them; the lists with their batches; the workers.
func newDashboard(entries []runEntry, lists []keptList, workers []WorkerState, q dashboardQuery, now time.Time) *dashboardData {
	d := &dashboardData{Now: now, Query: q, Workers: workers,
		States: []string{StateActive, StatePaused, StateFinished, StateStopped, StateFailed}}
	slices.SortFunc(entries, func(a, b runEntry) int {
		if c := b.state.Submitted.Compare(a.state.Submitted); c != 0 {
			return c
		}
		return strings.Compare(a.state.ID, b.state.ID)
	})
	// The lists: those the server keeps, and those whose batches are in the pool without it
	// (a server started again without -list).
	seen := map[string]bool{}
	for _, l := range lists {
		d.Lists = append(d.Lists, listRow{keptList: l})
		seen[l.ID] = true
	}
	for _, e := range entries {
		if id := listOf(e.sub); id != "" && !seen[id] {
			d.Lists = append(d.Lists, listRow{keptList: keptList{ID: id, Name: "list " + id}})
			seen[id] = true
		}
	}
	byID := map[string]*listRow{}
	listNames := map[string]string{}
	for i := range d.Lists {
		l := &d.Lists[i]
		byID[l.ID] = l
		listNames[l.ID] = l.Name
		l.Batches = dashboardQuery{List: l.Name}.URL(1)
		if l.Site != "" {
			l.SiteURL = "lists/" + l.Slug + "/"
		}
	}

	var matched []runEntry
	engine := strings.ToLower(q.Engine)
	for _, e := range entries {
		st := e.state
		if st.State == StateActive {
			d.Active++
		}
		list := listOf(e.sub)
		if l := byID[list]; l != nil {
			l.Runs++
			l.Games += st.Games()
			if st.State == StateActive {
				l.Active++
			}
			if l.Latest == nil {
				row := newRunRow(e, listNames)
				l.Latest = &row
			}
		}
		switch {
		case q.List != "" && (list == "" || (listNames[list] != q.List && list != q.List)):
			continue
		case q.List == "" && list != "":
			continue // shown under its list
		case q.State != "" && st.State != q.State:
			continue
		case q.Person != "" && (e.sub == nil || !strings.EqualFold(e.sub.Person, q.Person)):
			continue
		case engine != "" && !slices.ContainsFunc(st.Engines, func(n string) bool { return strings.Contains(strings.ToLower(n), engine) }):
			continue
		}
		matched = append(matched, e)
	}
	d.Total = len(matched)
	d.Pages = max(1, (d.Total+runsPerPage-1)/runsPerPage)
	d.Page = min(q.Page, d.Pages)
	from := (d.Page - 1) * runsPerPage
	for _, e := range matched[from:min(from+runsPerPage, d.Total)] {
		d.Runs = append(d.Runs, newRunRow(e, listNames))
	}
	if d.Page > 1 {
		d.Prev = q.URL(d.Page - 1)
	}
	if d.Page < d.Pages {
		d.Next = q.URL(d.Page + 1)
	}
	return d
}

func newRunRow(e runEntry, listNames map[string]string) runRow {
	row := runRow{RunView: View(e.state)}
	if sub := e.sub; sub != nil {
		row.Limit = limitText(sub.Config)
		if t := sprtOf(sub); t != nil {
			row.Bounds = fmt.Sprintf("[%g, %g]", t.Elo0, t.Elo1)
		}
		row.Submitter = sub.Person
		row.List = listNames[listOf(sub)]
	}
	if sum := e.state.Summary; sum != nil && sum.SPRT != nil && sum.SPRT.Decision != elo.Continue.String() {
		row.Decision = sum.SPRT.Decision
	}
	return row
}

// WDLText is the run's wins, draws and losses, "-" before its first game.
func (r runRow) WDLText() string {
	if r.Games() == 0 {
		return "-"
	}
	return fmt.Sprintf("%d / %d / %d", r.Wins, r.Draws, r.Losses)
}

// EnginesText is the run's engines, "a vs b" for two.
func (r runRow) EnginesText() string {
	if len(r.Engines) == 2 {
		return r.Engines[0] + " vs " + r.Engines[1]
	}
	return strings.Join(r.Engines, ", ")
}

// servePGN writes a run's games as PGN, from its records.
func (s *Server) servePGN(w http.ResponseWriter, r *http.Request) {
	snap, ok := s.snapshot(r.PathValue("id"))
	if !ok || snap.state.Format == "tune" {
		http.NotFound(w, r)
		return
	}
	recs, err := results.ReadFile(snap.state.Records)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	event := snap.state.ID
	if snap.sub != nil && snap.sub.Config.Event != "" {
		event = snap.sub.Config.Event
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn")
	w.Header().Set("Content-Disposition", `attachment; filename="`+snap.state.ID+`.pgn"`)
	for i := range recs {
		if listOf(snap.sub) != "" && recs[i].Run != snap.state.ID {
			continue
		}
		if err := results.WritePGN(w, &recs[i], results.PGNOptions{Event: event}); err != nil {
			return // the client went
		}
	}
}

// serveRecords writes a run's records file; of a list's batch, whose file is the list's, the
// batch's own lines, as they are in the file.
func (s *Server) serveRecords(w http.ResponseWriter, r *http.Request) {
	snap, ok := s.snapshot(r.PathValue("id"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	if listOf(snap.sub) == "" {
		http.ServeFile(w, r, snap.state.Records)
		return
	}
	_, err := results.ReadLines(snap.state.Records, func(_ int, line []byte) error {
		var rec struct {
			Run string `json:"run"`
		}
		if json.Unmarshal(line, &rec) != nil || rec.Run != snap.state.ID {
			return nil
		}
		_, err := w.Write(append(line, '\n'))
		return err
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}
