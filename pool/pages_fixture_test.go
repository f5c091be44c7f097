package pool

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/elo"
	"hivearbiter/openings"
	"hivearbiter/pool/artifact"
	"hivearbiter/ratinglist"
	"hivearbiter/results"
	"hivearbiter/results/render"
)

// The pages' fixtures: runs as the server holds them (state and submission) with records
// files written here, of games that were never played: the pages read nothing else.

// pagesEpoch is the fixtures' clock: their runs were submitted and played after it.
var pagesEpoch = time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC)

// pairResults are game pairs from the first engine's point of view: "WL" won the first game
// (as White) and lost the second (as Black).
func pairRecords(run, first, second string, firstPair int, pairs []string, start time.Time) []results.Record {
	var recs []results.Record
	for i, pr := range pairs {
		pair := firstPair + i
		for g, c := range pr {
			white, black := first, second
			if g == 1 {
				white, black = second, first
			}
			result := results.Draw
			switch {
			case c == 'W' && g == 0, c == 'L' && g == 1:
				result = results.WhiteWins
			case c == 'L' && g == 0, c == 'W' && g == 1:
				result = results.BlackWins
			}
			game := 2*pair + g
			at := start.Add(time.Duration(game) * time.Minute)
			recs = append(recs, results.Record{Schema: results.SchemaVersion, Run: run, Game: game, Round: pair + 1, Pair: pair,
				White:   results.Player{Name: white, ID: "fakebot " + white},
				Black:   results.Player{Name: black, ID: "fakebot " + black},
				Opening: "Base;NotStarted;White[1]", OpeningIndex: -1, GameType: "Base", Result: result,
				Reason: results.ReasonQueenSurrounded, Detail: "a queen is surrounded", GameString: "Base;" + result + ";White[1]",
				Started: at, Finished: at.Add(40 * time.Second), Arbiter: "test"})
		}
	}
	return recs
}

// outcomes repeats a pattern of pair results up to n pairs.
func outcomes(n int, pattern ...string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = pattern[i%len(pattern)]
	}
	return out
}

func writeRecords(tb testing.TB, path string, recs []results.Record) {
	tb.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			tb.Fatal(err)
		}
	}
}

// fixtureEngine is an engine of a fixture's submission: a program uploaded as an artifact,
// with its options.
func fixtureEngine(name string, options ...driver.EngineOption) driver.EngineConfig {
	return driver.EngineConfig{Name: name, Command: []string{"./" + name}, Options: options, Time: driver.TimeControl{MoveTime: time.Second},
		Margin: arbiter.DefaultMargin}
}

// fixtureRun is a run the server holds, its records written to dir.
type fixtureRun struct {
	id, format, state, reason string
	engines                   []driver.EngineConfig
	sprt                      *arbiter.SPRTConfig
	submitter, note, event    string
	submitted                 time.Duration // after pagesEpoch
	recs                      []results.Record
	scheduled                 int
	workers                   []distributed.WorkerStats
	excluded                  []Exclusion
	list                      string // the ID of the list whose batch it is
}

func (f fixtureRun) run(tb testing.TB, dir string) *run {
	tb.Helper()
	cfg := arbiter.Config{Format: arbiter.Format(f.format), Engines: f.engines, SPRT: f.sprt, GameType: "Base", Rounds: f.scheduled / 2,
		GamesPerPairing: 2, Seed: 7, Event: f.event, Openings: openings.Config{RandomPlies: 2}, Adjudication: arbiter.Adjudication{MaxPlies: 400}}
	sub := &Submission{Config: cfg, Priority: 0, Share: 1, Person: f.submitter, Note: f.note}
	for i, e := range f.engines {
		sum := fmt.Sprintf("%064x", i+1)
		sub.Expect = append(sub.Expect, distributed.EngineIdentity{Name: e.Name, ID: "fakebot " + e.Name})
		sub.Manifests = append(sub.Manifests, artifact.Manifest{SHA256: sum, Kind: artifact.File, Name: e.Name, Platform: "linux/amd64",
			Command: []string{"./" + e.Name}})
	}
	records := filepath.Join(dir, f.id+".jsonl")
	if f.list != "" {
		sub.Records = filepath.Join(dir, "list-"+f.list+".jsonl")
		sub.Config.Labels = map[string]string{ratinglist.LabelList: f.list, ratinglist.LabelBatch: "1"}
		records = sub.Records
	}
	var names []string
	for _, e := range f.engines {
		names = append(names, e.Name)
	}
	st := RunState{ID: f.id, Format: f.format, Engines: names, Priority: 0, Share: 1, State: f.state, Reason: f.reason,
		Submitted: pagesEpoch.Add(f.submitted), Records: records, Scheduled: f.scheduled, Workers: f.workers, Excluded: f.excluded}
	if len(f.recs) > 0 {
		writeRecords(tb, records, f.recs)
		var test *elo.SPRT
		if f.sprt != nil {
			t := f.sprt.Test()
			test = &t
		}
		_, st.Summary = statsOf(tb, f.recs, test)
		st.Ended = f.recs[len(f.recs)-1].Finished
	}
	if !st.Over() {
		st.Ended = time.Time{}
	}
	return &run{state: st, sub: sub, assigned: map[string]assignment{}}
}

// pagesServer is a server that holds runs without playing them, and knows workers: what its
// pages read.
func pagesServer(runs []*run, workers []WorkerState, lists ...keptList) *Server {
	s := &Server{runs: map[string]*run{}, workers: map[string]*WorkerState{}}
	for _, r := range runs {
		s.runs[r.state.ID] = r
	}
	for i := range workers {
		s.workers[workers[i].Name] = &workers[i]
	}
	for _, l := range lists {
		if s.lists == nil {
			s.lists = map[string]keptList{}
		}
		s.lists[l.ID] = l
	}
	return s
}

// statsOf is what "arbiter stats" prints of records, and its summary (with -sprt, when test
// is set).
func statsOf(tb testing.TB, recs []results.Record, test *elo.SPRT) (string, *results.Summary) {
	tb.Helper()
	var out strings.Builder
	summary, err := render.WriteStats(&out, recs, render.StatsOptions{Files: 1, SPRT: test})
	if err != nil {
		tb.Fatal(err)
	}
	return out.String(), summary
}

// readHandler serves the read pages of a fixture's server, which has no bucket and so no
// people: the pages anyone may read, without the people's pages around them (webapp.go's
// tests serve those on a started server).
func readHandler(s *Server) http.Handler {
	mux := http.NewServeMux()
	s.readRoutes(mux)
	return mux
}
