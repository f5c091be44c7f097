package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/configs"
	"hivearbiter/internal/testenv"
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
engine = "builtin=hivebot option.Profile=weak"

[[entrant]]
name = "hivebot"
version = "medium"
engine = "builtin=hivebot option.Profile=medium"
`

// TestServerKeepsList: "arbiter server -list" plays a list on its worker until every entrant
// is done, with the list's table written as it goes; an entrant added to the list's file is
// checked and rated by itself.
func TestServerKeepsList(t *testing.T) {
	if testing.Short() {
		t.Skip("separate processes: not in -short")
	}
	dir, addr := t.TempDir(), testenv.FreeAddr(t)
	listFile := filepath.Join(dir, "list.toml")
	if err := os.WriteFile(listFile, []byte(serverList), 0o644); err != nil {
		t.Fatal(err)
	}
	sdir := filepath.Join(dir, "srv")
	srv := startArbiter(t, "server", "-dir", sdir, "-listen", addr, "-batch", "2s", "-ackwait", "3s", "-list", listFile)
	waitFor(t, "the pool's server", 30*time.Second, func() bool { return strings.Contains(srv.out.String(), "Pool server at") })
	creds := filepath.Join(dir, "w1.creds")
	arbiterOK(t, "server", "worker", "add", "w1", "-dir", sdir, "-o", creds)
	startArbiter(t, "worker", "-creds", creds, "-bench=false", "-cache", filepath.Join(dir, "cache"))

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
	waitFor(t, "the list of two entrants to be done", 90*time.Second, done)
	added := serverList + `
[[entrant]]
name = "hivebot"
version = "strong"
engine = "builtin=hivebot option.Profile=strong"
`
	if err := os.WriteFile(listFile, []byte(added), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the entrant added to be done", 90*time.Second, done)
	if _, err := os.Stat(filepath.Join(dir, "list.checks", "hivebot-strong.txt")); err != nil {
		t.Errorf("the entrant added has no check report: %v", err)
	}
	l, err := configs.ReadList(listFile, builtinResolver)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ratinglist.ReadRecords(l.Records)
	if err != nil {
		t.Fatal(err)
	}
	table, err := ratinglist.Compute(l, recs)
	if err != nil {
		t.Fatal(err)
	}
	if row, _ := table.Row("hivebot strong"); !row.Rated || row.Games == 0 {
		t.Errorf("the entrant added: %+v", row)
	}
	for _, st := range poolRuns(t, sdir) {
		if st.Records != l.Records {
			t.Errorf("run %s records to %s, not the list's %s", st.ID, st.Records, l.Records)
		}
	}
}
