package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"hivearbiter/configs"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/ratinglist"
)

// serverList is a small list of hivebot's profiles (depth 1, a loose target, a small budget):
// a few batches of short games.
const serverList = `name = "pool list"
game_type = "Base+MLP"
limit = "depth=1"
seed = 3
concurrency = 1
pairs = 1
opponents = 1
error_target = 400
max_games = 6

[anchor]
entrant = "hivebot weak"
elo = 1000

[adjudication]
repetitions = 3
max_moves = 40

[[entrant]]
name = "hivebot"
version = "weak"
engine = "builtin=hivebot option.Profile=weak ` + quickBench + `"

[[entrant]]
name = "hivebot"
version = "medium"
engine = "builtin=hivebot option.Profile=medium ` + quickBench + `"
`

// TestServerKeepsList: "arbiter server -list" plays a list on its worker until every entrant
// is done, with the list's table written as it goes, and a server SIGKILLed and started again
// goes on with it (each game once, a run per batch); an entrant added to the list's file is
// checked and rated by itself, and one added before it that cannot play the list's game type
// (a fake engine that plays Base alone) is refused without stopping the list.
func TestServerKeepsList(t *testing.T) {
	if testing.Short() {
		t.Skip("separate processes: not in -short")
	}
	// Mostly waiting on its processes (their checks, their games): beside the other tests.
	t.Parallel()
	dir, addr := t.TempDir(), testenv.FreeAddr(t)
	listFile := filepath.Join(dir, "list.toml")
	if err := os.WriteFile(listFile, []byte(serverList), 0o644); err != nil {
		t.Fatal(err)
	}
	sdir := filepath.Join(dir, "srv")
	server := func() *process {
		srv := startArbiter(t, "server", "-dir", sdir, "-listen", addr, "-batch", "2s", "-ackwait", "3s", "-list", listFile)
		waitFor(t, "the pool's server", 30*time.Second, func() bool { return strings.Contains(srv.out.String(), "Pool server at") })
		return srv
	}
	srv := server()
	creds := filepath.Join(dir, "w1.creds")
	arbiterOK(t, "server", "worker", "add", "w1", "-dir", sdir, "-o", creds)
	startArbiter(t, "worker", "-creds", creds, "-bench=false", "-cache", filepath.Join(dir, "cache"))
	l, err := configs.ReadList(listFile, builtinResolver)
	if err != nil {
		t.Fatal(err)
	}
	// A server killed as its list plays goes on with the list when started again. The first
	// game comes after each entrant's check (several timed searches and a determinism probe:
	// a minute or more under the race detector on a loaded machine).
	waitFor(t, "a game of the list", 5*time.Minute, func() bool {
		recs, _ := ratinglist.ReadRecords(l.Records)
		return len(recs) > 0
	})
	srv.kill()
	server()

	// done says whether every entrant of the list's file is done, and the table written
	// holds every game recorded.
	done := func() bool {
		l, err := configs.ReadList(listFile, builtinResolver)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := ratinglist.ReadRecords(l.Records)
		if err != nil || len(recs) == 0 {
			return false
		}
		if _, more, err := ratinglist.Next(l, recs); err != nil || more {
			return false
		}
		var table ratinglist.Table
		b, err := os.ReadFile(filepath.Join(l.Site, "table.json"))
		return err == nil && json.Unmarshal(b, &table) == nil && table.Games == len(recs) && len(table.Rows) == len(l.Entrants)
	}
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		// What the list holds explains a list that never got done.
		l, err := configs.ReadList(listFile, builtinResolver)
		if err != nil {
			t.Logf("the list: %v", err)
			return
		}
		recs, err := ratinglist.ReadRecords(l.Records)
		for _, r := range recs {
			t.Logf("record: run %s game %d batch %s", r.Run, r.Game, r.Settings[ratinglist.LabelBatch])
		}
		_, more, nerr := ratinglist.Next(l, recs)
		b, terr := os.ReadFile(filepath.Join(l.Site, "table.json"))
		t.Logf("%d records (%v); more to play: %v (%v); table.json (%v):\n%s", len(recs), err, more, nerr, terr, b)
	})
	waitFor(t, "the list of two entrants to be done", 5*time.Minute, done)
	added := serverList + `
[[entrant]]
name = "base-only"
version = "1"
engine = 'cmd=` + os.Args[0] + ` env=` + uhpfake.Env(fakeConfig("base-only")) + `'

[[entrant]]
name = "hivebot"
version = "strong"
engine = "builtin=hivebot option.Profile=strong ` + quickBench + `"
`
	if err := os.WriteFile(listFile, []byte(added), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the entrant added to be done", 5*time.Minute, done)
	if _, err := os.Stat(filepath.Join(dir, "list.checks", "hivebot-strong.txt")); err != nil {
		t.Errorf("the entrant added has no check report: %v", err)
	}
	if l, err = configs.ReadList(listFile, builtinResolver); err != nil {
		t.Fatal(err)
	}
	recs, err := ratinglist.ReadRecords(l.Records)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		key := r.Run + "#" + strconv.Itoa(r.Game)
		if seen[key] {
			t.Errorf("game %s recorded twice", key)
		}
		seen[key] = true
	}
	table, err := ratinglist.Compute(l, recs)
	if err != nil {
		t.Fatal(err)
	}
	if row, _ := table.Row("hivebot strong"); !row.Rated || row.Games == 0 {
		t.Errorf("the entrant added: %+v", row)
	}
	if row, _ := table.Row("base-only 1"); row.Status != ratinglist.StatusRefused || !strings.Contains(row.Failure, "does not play Mosquito, Ladybug, Pillbug") {
		t.Errorf("the entrant added that plays Base alone: %+v, want refused", row)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "list.checks", "base-only-1.failed.txt")); err != nil || !strings.Contains(string(b), "does not play") {
		t.Errorf("the refused entrant's report: %v\n%s", err, b)
	}
	runs := poolRuns(t, sdir)
	batches := map[string]bool{}
	for _, r := range recs {
		batches[r.Settings[ratinglist.LabelBatch]] = true
	}
	if len(runs) != len(batches) {
		t.Errorf("%d runs in the pool for %d batches", len(runs), len(batches))
	}
	for _, st := range runs {
		if st.Records != l.Records {
			t.Errorf("run %s records to %s, not the list's %s", st.ID, st.Records, l.Records)
		}
	}
}
