package pool

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/tune"
)

// The environment of a pool's worker in a process of its own (see workUntilKilled).
const (
	workerCredsEnv   = "POOL_TEST_WORKER_CREDS"
	workerEnginesEnv = "POOL_TEST_WORKER_ENGINES"
)

// workUntilKilled runs the pool's worker whose credentials are in the file credsPath, with the
// engines (JSON) of workerEnginesEnv, until it is killed.
func workUntilKilled(credsPath string) int {
	creds, err := distributed.ReadCredentials(credsPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var engines []driver.EngineConfig
	if err := json.Unmarshal([]byte(os.Getenv(workerEnginesEnv)), &engines); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// No bench: the engines of these workers think for seconds a move, and a depth-3 search
	// before the first pair would hold the worker back from what its test is about.
	w := &Worker{Name: creds.User, Creds: creds, Engines: engines, Console: os.Stdout, SkipBench: true}
	if err := w.Run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// startWorkerProcess runs a pool's worker with the engines in a process of its own, and
// returns the function that kills it with SIGKILL (the test's end kills it too).
func startWorkerProcess(t *testing.T, creds *distributed.Credentials, engines []driver.EngineConfig) (kill func()) {
	t.Helper()
	path := filepath.Join(t.TempDir(), creds.User+".creds")
	if err := creds.Save(path); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(engines)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerCredsEnv+"="+path, workerEnginesEnv+"="+string(b), uhpfake.NoExitSleep())
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	kill = func() {
		cmd.Process.Kill()
		<-done
	}
	t.Cleanup(func() {
		kill()
		if t.Failed() {
			t.Logf("worker %s said:\n%s", creds.User, out.String())
		}
	})
	return kill
}

// TestTuneWorkerKilled: a worker that plays a tune's pair longer than the ack wait (its engine
// thinks for 15 s on each move) renews it, and the pair is not handed to another worker while
// it plays on; killed with SIGKILL, it says nothing more: the pair it held is handed out again
// once the ack wait passes from its last renewal, another worker plays it, and the tune
// finishes with every iteration recorded once, the chain of theta unbroken.
func TestTuneWorkerKilled(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	sub, st := submitTune(t, p, 8, 6)
	var takes, renewals atomic.Int64
	for verb, n := range map[string]*atomic.Int64{verbTake: &takes, verbRenew: &renewals} {
		watch, err := p.srv.nc.Subscribe(tuneSubject(verb, "doomed"), func(*nats.Msg) { n.Add(1) })
		if err != nil {
			t.Fatal(err)
		}
		defer watch.Unsubscribe()
	}
	skill := uhpserver.Option{Name: "Skill", Type: "int", Value: "50", Default: "50", Extra: []string{"0", "100"}}
	argv, env := uhpfake.Command(uhpfake.Config{ID: "tunable", Play: "random", Options: []uhpserver.Option{skill}, Delay: 15 * time.Second})
	kill := startWorkerProcess(t, p.addWorker("doomed"), []driver.EngineConfig{{Name: "tunable", Command: argv, Env: env}})
	// The first pair handed out, iteration 1, is the doomed worker's.
	waitUntil(t, "the doomed worker to take a pair", 15*time.Second, func() bool { return takes.Load() > 0 })
	startWorkers(t, &Worker{Name: "w2", Creds: p.addWorker("w2")})
	recorded := func() map[int]bool {
		_, recs, _, _ := tune.ReadRecords(st.Records)
		done := map[int]bool{}
		for _, r := range recs {
			done[r.Iteration] = true
		}
		return done
	}
	// Renewed every second, past the ack wait of 3 s, while the other worker plays the rest.
	waitUntil(t, "the doomed worker to renew its pair 4 times", 15*time.Second, func() bool { return renewals.Load() >= 4 })
	done := recorded()
	kill()
	if done[1] {
		t.Error("iteration 1 was handed to another worker while the doomed worker played it and renewed it")
	}
	if n := takes.Load(); n != 1 {
		t.Errorf("the doomed worker took %d pairs, want 1 (its engine still thinks on the first)", n)
	}
	waitFinished(t, p, st.ID, 20*time.Second)
	checkTuneRecords(t, st, sub)
}
