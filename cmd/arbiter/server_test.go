package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/ci"
	"hivearbiter/distributed"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/pool"
	"hivearbiter/results"
)

var poolLong = flag.Bool("pool-long", false, "run the pool's acceptance test with longer runs")

// poolServer starts "arbiter server" on addr and waits until it serves.
func poolServer(t *testing.T, dir, addr string) *process {
	t.Helper()
	p := startArbiter(t, "server", "-dir", dir, "-listen", addr, "-batch", "2s", "-ackwait", "3s")
	waitFor(t, "the pool's server", 30*time.Second, func() bool { return strings.Contains(p.out.String(), "Pool server at") })
	return p
}

// arbiterOK runs an arbiter command in this process and returns its output, failing the test
// on an error.
func arbiterOK(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("arbiter %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errOut.String())
	}
	return out.String()
}

func poolRuns(t *testing.T, dir string) []pool.RunState {
	t.Helper()
	var runs []pool.RunState
	if err := json.Unmarshal([]byte(arbiterOK(t, "server", "runs", "-dir", dir, "-json")), &runs); err != nil {
		t.Fatal(err)
	}
	return runs
}

// recordedGames reads a run's records file, failing the test on a game recorded twice.
func recordedGames(t *testing.T, path string) int {
	t.Helper()
	recs, err := results.ReadFile(path)
	if err != nil {
		return 0
	}
	seen := map[int]bool{}
	for _, r := range recs {
		if seen[r.Game] {
			t.Errorf("%s: game %d recorded twice", path, r.Game)
		}
		seen[r.Game] = true
	}
	return len(recs)
}

// TestPoolAcceptance is the pool of issue 25 in separate processes on loopback: a server, three
// workers (one of a platform no run has), two runs (a match of two hivebot profiles with an
// SPRT that cannot decide so soon, and a gauntlet). During the runs a worker is SIGKILLed, the
// server is SIGKILLed and started again, and a worker is revoked; a worker with forged
// credentials is refused. Both runs end with exactly their scheduled games, each once.
func TestPoolAcceptance(t *testing.T) {
	if testing.Short() {
		t.Skip("separate processes: not in -short")
	}
	t.Parallel()
	rounds := "8"
	if *poolLong {
		rounds = "100"
	}
	begin := time.Now()
	phase := func(what string) { t.Logf("%5.1fs %s", time.Since(begin).Seconds(), what) }
	dir, addr := t.TempDir(), testenv.FreeAddr(t)
	srv := poolServer(t, filepath.Join(dir, "srv"), addr)
	sdir := filepath.Join(dir, "srv")
	creds := map[string]string{}
	for _, name := range []string{"w1", "w2", "w3"} {
		creds[name] = filepath.Join(dir, name+".creds")
		arbiterOK(t, "server", "worker", "add", name, "-dir", sdir, "-o", creds[name])
	}
	// No engine benches: hivebot's takes seconds per profile under the race detector (the
	// pool's own tests measure engines).
	w1 := startArbiter(t, "worker", "-creds", creds["w1"], "-bench=false")
	w2 := startArbiter(t, "worker", "-creds", creds["w2"], "-bench=false")
	w3 := startArbiter(t, "worker", "-creds", creds["w3"], "-platform", "plan9/mips", "-bench=false")

	hivebots := []string{"-engine", "builtin=hivebot", "name=strong", "arg=-profile", "arg=strong",
		"-engine", "builtin=hivebot", "name=weak", "arg=-profile", "arg=weak"}
	common := []string{"-each", "depth=1", "-seed", "5", "-openings", "plies=2", "-maxplies", "30", "-rounds", rounds}
	submitter := filepath.Join(sdir, "submitter.creds")
	arbiterOK(t, append(append(append([]string{"submit", "-creds", submitter}, hivebots...), common...),
		"-sprt", "elo0=0", "elo1=2", "alpha=0.001", "beta=0.001")...)
	arbiterOK(t, append(append(append([]string{"submit", "-creds", submitter, "-format", "gauntlet"}, hivebots...),
		"-engine", "builtin=hivebot", "name=medium", "arg=-profile", "arg=medium"), common...)...)
	phase("submitted")
	runs := poolRuns(t, sdir)
	if len(runs) != 2 {
		t.Fatalf("%d runs listed, want 2", len(runs))
	}
	recorded := func() int { return recordedGames(t, runs[0].Records) + recordedGames(t, runs[1].Records) }

	// A worker with credentials the server never made is refused at once.
	seed, _, err := pool.NewUserKey()
	if err != nil {
		t.Fatal(err)
	}
	forged := filepath.Join(dir, "forged.creds")
	if err := (&distributed.Credentials{URL: "nats://" + addr, User: "w1", Seed: seed}).Save(forged); err != nil {
		t.Fatal(err)
	}
	if code := startArbiter(t, "worker", "-creds", forged).wait(t, "a forged worker", 20*time.Second); code != ci.ExitEngines {
		t.Errorf("a worker with forged credentials exited with %d, want %d", code, ci.ExitEngines)
	}

	phase("forged refused")
	waitFor(t, "games recorded", 60*time.Second, func() bool { return recorded() >= 6 })
	phase("6 games")
	w1.kill()
	srv.kill()
	poolServer(t, sdir, addr)
	w1 = startArbiter(t, "worker", "-creds", creds["w1"], "-concurrency", "2", "-bench=false")
	waitFor(t, "more games after the restart", 60*time.Second, func() bool { return recorded() >= 12 })
	phase("restarted, 12 games")
	arbiterOK(t, "server", "worker", "revoke", "w2", "-dir", sdir)
	if code := w2.wait(t, "the revoked worker", 10*time.Second); code != ci.ExitEngines {
		t.Errorf("the revoked worker exited with %d, want %d:\n%s", code, ci.ExitEngines, w2.out)
	}
	if code := startArbiter(t, "worker", "-creds", creds["w2"]).wait(t, "the revoked worker again", 20*time.Second); code != ci.ExitEngines {
		t.Errorf("the revoked worker, started again, exited with %d, want %d", code, ci.ExitEngines)
	}

	phase("revoked")
	waitFor(t, "both runs to finish", 120*time.Second, func() bool {
		for _, r := range poolRuns(t, sdir) {
			if r.State != pool.StateFinished {
				return false
			}
		}
		return true
	})
	phase("finished")
	for _, r := range poolRuns(t, sdir) {
		if got := recordedGames(t, r.Records); got != r.Scheduled {
			t.Errorf("run %s (%s): %d games recorded, want its %d", r.ID, r.Format, got, r.Scheduled)
		}
		if r.Games() != r.Scheduled {
			t.Errorf("run %s: the pool counts %d games, want %d", r.ID, r.Games(), r.Scheduled)
		}
	}
	if strings.Contains(w3.out.String(), "Started game") {
		t.Errorf("the worker of another platform played:\n%s", w3.out)
	}
	// The records are those of a local run: stats reads them, and its exit code is the SPRT's.
	if code := exitCode(run(context.Background(), []string{"stats", runs[1].Records}, new(bytes.Buffer), new(bytes.Buffer)), os.Stderr); code != ci.ExitOK {
		t.Errorf("arbiter stats of the gauntlet exited with %d", code)
	}
}
