package pool

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/distributed"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/results"
)

// The environment that makes the test binary a pool's server (see TestMain).
const (
	serverDirEnv  = "POOL_TEST_SERVER_DIR"
	serverAddrEnv = "POOL_TEST_SERVER_ADDR"
)

// serveUntilKilled runs a pool's server in this process until it is killed.
func serveUntilKilled(dir, addr string) int {
	srv, err := Start(context.Background(), Config{Dir: dir, Listen: addr, Batch: 2 * time.Second, AckWait: 3 * time.Second, Console: os.Stdout})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("Pool server at %s\n", srv.URL())
	select {}
}

// serverProcess is a pool's server in a process of its own, to be killed with SIGKILL.
type serverProcess struct {
	cmd  *exec.Cmd
	out  *syncbuf.Buffer
	done chan struct{}
}

func startServerProcess(t *testing.T, dir, addr string) *serverProcess {
	t.Helper()
	p := &serverProcess{cmd: exec.Command(os.Args[0], "-test.run=^$"), out: &syncbuf.Buffer{}, done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), serverDirEnv+"="+dir, serverAddrEnv+"="+addr, uhpfake.NoExitSleep())
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(p.kill)
	waitUntil(t, "the pool's server process to serve", 15*time.Second, func() bool { return strings.Contains(p.out.String(), "Pool server at") })
	return p
}

func (p *serverProcess) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// clientOf connects to a server process with the credentials it wrote for a role.
func clientOf(t *testing.T, dir, role string) *Client {
	t.Helper()
	creds, err := distributed.ReadCredentials(filepath.Join(dir, role+".creds"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Connect(creds, "test "+role)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// TestTakenOutAndWorkersSurviveSIGKILL: a pair taken out of a run (its results rejected three
// times) stays out, and the workers' statistics stay counted, across a server killed with
// SIGKILL and started again. Both used to live in the server's memory only: the pair was
// played after a restart, and a finished run's workers lost their games.
func TestTakenOutAndWorkersSurviveSIGKILL(t *testing.T) {
	t.Parallel()
	dir, addr := t.TempDir(), testenv.FreeAddr(t)
	ctx := context.Background()
	srv := startServerProcess(t, dir, addr)
	admin := clientOf(t, dir, RoleAdmin)
	honest, err := admin.AddWorker(ctx, "honest")
	if err != nil {
		t.Fatal(err)
	}
	forger, err := admin.AddWorker(ctx, "forger")
	if err != nil {
		t.Fatal(err)
	}
	st, err := clientOf(t, dir, RoleSubmitter).Submit(ctx, fakeSubmission(t, 3, 6, nil))
	if err != nil {
		t.Fatal(err)
	}

	// Three results of game 0 the referee refuses take pair 0 (games 0 and 1) out.
	nc, err := distributed.Dial(forger, "forger")
	if err != nil {
		t.Fatal(err)
	}
	js, _ := jetstream.New(nc)
	forged, _ := json.Marshal(distributed.Result{Worker: "forger", Record: &results.Record{Run: st.ID, Game: 0, Result: results.WhiteWins}})
	for range distributed.DefaultMaxRejections {
		if _, err := js.Publish(ctx, "arbiter."+st.ID+".results.forger", forged); err != nil {
			t.Fatal(err)
		}
	}
	nc.Close()
	runLog := filepath.Join(dir, "runs", st.ID+".log")
	waitUntil(t, "pair 0 taken out (the run's log says so once it is kept)", 15*time.Second, func() bool {
		b, _ := os.ReadFile(runLog)
		return strings.Contains(string(b), "pair 0 is taken out")
	})
	srv.kill()

	srv = startServerProcess(t, dir, addr)
	startWorkers(t, &Worker{Name: "honest", Creds: honest})
	waitUntil(t, "the run to finish after the restart", 20*time.Second, func() bool {
		return strings.Contains(srv.out.String(), "Run "+st.ID+" finished")
	})
	recs, err := results.ReadFile(st.Records)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Game < 2 {
			t.Errorf("game %d of the pair taken out was played after the restart", r.Game)
		}
	}
	if len(recs) != 4 {
		t.Errorf("%d games recorded, want the 4 of pairs 1 and 2", len(recs))
	}
	srv.kill()

	startServerProcess(t, dir, addr)
	runs, err := clientOf(t, dir, RoleSubmitter).Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 {
		t.Fatalf("%d runs after a second SIGKILL, want 1", len(runs))
	}
	if len(runs[0].TakenOut) != 1 || runs[0].TakenOut[0].Pair != 0 {
		t.Errorf("after a second SIGKILL the run lists taken out %+v, want pair 0", runs[0].TakenOut)
	}
	workers, err := clientOf(t, dir, RoleAdmin).Workers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]WorkerState{}
	for _, w := range workers {
		got[w.Name] = w
	}
	if got["honest"].Games != 4 || got["forger"].Rejected != distributed.DefaultMaxRejections {
		t.Errorf("after a second SIGKILL: honest played %d games (want 4), forger had %d results rejected (want %d)",
			got["honest"].Games, got["forger"].Rejected, distributed.DefaultMaxRejections)
	}
}
