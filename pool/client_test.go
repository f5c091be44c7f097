package pool

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/enginekit/uhpserver/uhpfake"
)

// TestWorkerCredentialsToSubmit: a worker's credentials given where a submitter's or an
// admin's are wanted end at once in an error that says whose they are and which to give, not
// in a permissions violation after a timeout; the submitter's own connect.
func TestWorkerCredentialsToSubmit(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	path := filepath.Join(t.TempDir(), "w1.creds")
	if err := p.addWorker("w1").Save(path); err != nil {
		t.Fatal(err)
	}
	for _, role := range []string{RoleSubmitter, RoleAdmin} {
		c, err := ConnectAs(p.dir, role, path)
		var ce *CredentialsError
		if !errors.As(err, &ce) {
			if c != nil {
				c.Close()
			}
			t.Fatalf("%s with a worker's credentials: %v, want a *CredentialsError", role, err)
		}
		for _, want := range []string{"credentials of worker w1", "may only play runs", "give the " + role + "'s credentials, " + role + ".creds in the server's directory"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q does not say %q", role, err, want)
			}
		}
	}
	c, err := ConnectAs(p.dir, RoleSubmitter, "")
	if err != nil {
		t.Fatalf("the submitter's own credentials: %v", err)
	}
	c.Close()
}

// TestRestartKnowsPlayingWorker: a worker playing a run when the server is started again asks
// again as soon as its connection is back, so that the server shows it playing with its slots
// within seconds, not "gone, 0 slots" until its batch ends (30 s here); until it has asked,
// the server shows it "unknown", not "gone".
func TestRestartKnowsPlayingWorker(t *testing.T) {
	// Not in parallel: it holds a restarted server to seconds.
	p := newTestPoolBatch(t, 30*time.Second)
	ctx := context.Background()
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1"), Concurrency: 2, SkipBench: true})
	slow := fakeSubmission(t, 200, 41, func(c *arbiter.Config) {
		for i := range c.Engines { // a move every 300 ms: a game outlasts the restart
			argv, env := uhpfake.Command(uhpfake.Config{ID: "slow-" + c.Engines[i].Name, Play: "random", Seed: 41, Delay: 300 * time.Millisecond})
			c.Engines[i].Command, c.Engines[i].Env = argv, env
		}
	})
	st, err := p.submitter.Submit(ctx, slow)
	if err != nil {
		t.Fatal(err)
	}
	playing := func() bool {
		ws, err := p.admin.Workers(ctx)
		return err == nil && len(ws) == 1 && ws[0].Run == st.ID && ws[0].Slots == 2 && ws[0].StateText(time.Now()) == "playing"
	}
	waitUntil(t, "the worker to play the run", 30*time.Second, playing)
	p.stop()
	p.start()
	if ws := p.srv.Workers(); len(ws) != 1 || ws[0].StateText(time.Now()) == "gone" {
		t.Errorf("just after the restart the worker is %+v, want it unknown, not gone", ws)
	}
	waitUntil(t, "the worker playing again in the restarted server's eyes", 4*time.Second, playing)
}

// TestFollowAcrossRestart: a submitter following a run waits for a server that is started
// again, and sees the run to its end.
func TestFollowAcrossRestart(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	ctx := context.Background()
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1"), SkipBench: true})
	sub := fakeSubmission(t, 6, 61, func(c *arbiter.Config) {
		for i := range c.Engines { // a move every 20 ms: the run outlasts the restart
			argv, env := uhpfake.Command(uhpfake.Config{ID: "slow-" + c.Engines[i].Name, Play: "random", Seed: 61, Delay: 20 * time.Millisecond})
			c.Engines[i].Command, c.Engines[i].Env = argv, env
		}
	})
	st, err := p.submitter.Submit(ctx, sub)
	if err != nil {
		t.Fatal(err)
	}
	follower := p.client(RoleSubmitter)
	defer follower.Close()
	type followed struct {
		st      *RunState
		err     error
		updates int
	}
	done := make(chan followed, 1)
	seen := make(chan struct{}, 100)
	go func() {
		var f followed
		f.st, f.err = follower.Follow(ctx, st.ID, 50*time.Millisecond, func(RunState) {
			f.updates++
			seen <- struct{}{}
		})
		done <- f
	}()
	<-seen
	p.stop()
	time.Sleep(3 * time.Second) // longer than the client's reconnects
	p.start()
	select {
	case f := <-done:
		if f.err != nil || f.st == nil || f.st.State != StateFinished || f.st.Games() != st.Scheduled {
			t.Errorf("following across a restart: %+v, %v; want the run finished with its %d games", f.st, f.err, st.Scheduled)
		}
		if f.updates < 2 {
			t.Errorf("%d progress updates, want more than the first", f.updates)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the follower did not see the run end")
	}
}
