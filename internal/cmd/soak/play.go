//go:build linux

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"hivearbiter/internal/cli"
	"hivearbiter/internal/debugvars"
)

// play runs the soak to the end of its schedule, then audits it.
func (s *soak) play(ctx context.Context) error {
	mode := fmt.Sprintf("locally at concurrency %d", s.o.concurrency)
	if s.o.workers > 0 {
		mode = fmt.Sprintf("through %d workers at concurrency %d each", s.o.workers, s.o.concurrency)
	}
	if s.o.pool {
		return s.playPool(ctx)
	}
	fmt.Fprintf(s.out, "soak: %d games (%d rounds of hivebot against %d fakes, colours swapped) %s, seed %d, in %s\n",
		s.games(), s.rounds, len(fakes(s.o.stallOn)), mode, s.o.seed, s.o.dir)
	command := filepath.Join(s.o.dir, "command.sh")
	if err := os.WriteFile(command, []byte(cli.QuoteArgs(s.matchArgs(s.listenAddr()))+"\n"), 0o644); err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	fmt.Fprintf(s.out, "soak: the arbiter's command, run again after each SIGKILL, is in %s\n", command)
	return s.audit(ctx, s.loop)
}

// audit runs loop, waits for the samplers, and audits what was recorded, whatever time is
// left.
func (s *soak) audit(ctx context.Context, loop func(context.Context) error) error {
	s.begin = time.Now()
	s.sampler.begin = s.begin
	err := loop(ctx)
	s.watchers.Wait()
	if err != nil && ctx.Err() == nil {
		return err
	}
	if err != nil { // out of time: what was recorded is audited all the same
		s.unfinished = err
	}
	// The audit runs whatever time is left: a run that took long must still be judged.
	return s.report(context.WithoutCancel(ctx))
}

// life starts one life of the arbiter (the coordinator, in a distributed soak; the server,
// in a pool soak), with its debug window, and samples it until it ends.
func (s *soak) life(role string, argv []string, life int) (*process, error) {
	addr, err := freePort()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(s.log, "\n== soak: %s life %d at %s\n", role, life, time.Since(s.begin).Round(time.Millisecond))
	p, err := start(role, argv, []string{debugvars.Env + "=" + addr, s.mark()}, s.log)
	if err != nil {
		return nil, err
	}
	s.watchers.Go(func() { s.sampler.watch(p, life, addr, s.o.sample) })
	return p, nil
}

// kill SIGKILLs a process and counts it and the engines it left behind.
func (s *soak) kill(p *process) {
	for kind, n := range p.killTree(2 * time.Second) {
		s.orphans[kind] += n
	}
	s.kills[p.role]++
}

// listen is the coordinator's address, chosen once: the same command restarts it.
func (s *soak) listenAddr() string {
	if s.o.workers == 0 {
		return ""
	}
	if s.listen == "" {
		s.listen, _ = freePort()
	}
	return s.listen
}

// loop starts the arbiter (and the workers), kills and restarts them at random, and returns
// once the arbiter has finished the run.
func (s *soak) loop(ctx context.Context) error {
	setup := func(arb *process, workers []*process) error {
		if s.o.workers > 0 {
			return s.startWorkers(ctx, arb, workers)
		}
		return nil
	}
	step := func(arb *process, workers []*process) (bool, error) {
		if !isDone(arb) {
			return false, nil
		}
		if code := arb.exitCode(); code != 0 {
			return true, fmt.Errorf("soak: the arbiter exited with status %d without being killed; its output is in %s",
				code, filepath.Join(s.o.dir, "processes.log"))
		}
		s.finishedIn = time.Since(s.begin)
		s.endWorkers(workers)
		return true, nil
	}
	return s.drive(ctx, "arbiter", s.matchArgs(s.listenAddr()), fileCounter(s.records), setup, step)
}

// drive is the soak's loop, the same for a match and a pool: it starts the main process
// (the arbiter, the coordinator or the server: role, argv) and, through setup, the workers;
// then, every tenth of a second until step says the soak is over, it lets step look at them,
// restarts the workers that exited, and SIGKILLs the main process (on the killer's schedule,
// which counts the records written) and the workers at random, starting each again.
func (s *soak) drive(ctx context.Context, role string, argv []string, records func() int,
	setup func(main *process, workers []*process) error, step func(main *process, workers []*process) (bool, error)) error {
	life := 0
	main, err := s.life(role, argv, life)
	if err != nil {
		return err
	}
	workers := make([]*process, s.o.workers)
	defer func() {
		for _, p := range append(workers, main) {
			if p != nil && !isDone(p) {
				s.kill(p)
			}
		}
	}()
	if err := setup(main, workers); err != nil {
		return err
	}
	killer := newKiller(s, records)
	nextWorkerKill := time.Now().Add(s.workerGap())
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	watchdog := newWatchdog(s, time.Minute)
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("soak: stopped before the run ended: %w", ctx.Err())
		case <-tick.C:
		}
		watchdog.check(main)
		if done, err := step(main, workers); done || err != nil {
			return err
		}
		if err := s.restartExited(workers); err != nil {
			return err
		}
		if killer.due() {
			s.kill(main)
			life++
			if main, err = s.life(role, argv, life); err != nil {
				return err
			}
			killer.newLife()
		}
		if err := s.killWorker(workers, &nextWorkerKill); err != nil {
			return err
		}
	}
}

// restartExited notes and restarts the workers that exited when not killed. A worker of a run
// exits with 0 when the run ends, which it may see before the soak sees the coordinator's
// exit; any other exit, and any exit of a pool's worker (which stays for the next run), is
// noted.
func (s *soak) restartExited(workers []*process) error {
	for i, w := range workers {
		if isDone(w) && (w.exitCode() != 0 || s.o.pool) && !w.noted {
			w.noted = true
			s.notes = append(s.notes, fmt.Sprintf("worker %d exited with status %d at %s without being killed; restarted",
				i+1, w.exitCode(), time.Since(s.begin).Round(time.Second)))
			var err error
			if workers[i], err = s.startWorker(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// killWorker SIGKILLs a worker at random once its time has come, starts it again, and draws
// the next time.
func (s *soak) killWorker(workers []*process, next *time.Time) error {
	if len(workers) == 0 || time.Now().Before(*next) {
		return nil
	}
	i := s.rng.IntN(len(workers))
	if isDone(workers[i]) {
		return nil // it ended with the run
	}
	s.kill(workers[i])
	var err error
	if workers[i], err = s.startWorker(i); err != nil {
		return err
	}
	*next = time.Now().Add(s.workerGap())
	return nil
}

func isDone(p *process) bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// workerGap is a random time until the next SIGKILL of a worker: uniform around the mean.
func (s *soak) workerGap() time.Duration {
	if s.o.workerKill <= 0 {
		return 1<<63 - 1
	}
	return s.o.workerKill/4 + time.Duration(s.rng.Int64N(int64(s.o.workerKill*3/2)))
}

// startWorkers waits for the coordinator's credentials and starts every worker.
func (s *soak) startWorkers(ctx context.Context, coordinator *process, workers []*process) error {
	creds := s.records + ".nats/worker.creds"
	for {
		if _, err := os.Stat(creds); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("soak: waiting for %s: %w", creds, ctx.Err())
		case <-coordinator.done:
			return fmt.Errorf("soak: the coordinator exited with status %d before it wrote %s; its output is in %s",
				coordinator.exitCode(), creds, filepath.Join(s.o.dir, "processes.log"))
		case <-time.After(100 * time.Millisecond):
		}
	}
	for i := range workers {
		var err error
		if workers[i], err = s.startWorker(i); err != nil {
			return err
		}
	}
	return nil
}

func (s *soak) startWorker(i int) (*process, error) {
	argv := []string{s.arbiter, "worker", "-creds", s.records + ".nats/worker.creds",
		"-name", fmt.Sprintf("soak-%d", i+1), "-concurrency", fmt.Sprint(s.o.concurrency)}
	argv = append(argv, engineArgs(s.hivebot, s.fake, s.faultLog, s.o.stallOn, s.o.seed, true)...)
	if s.o.pool {
		argv = s.poolWorkerArgs(i) // the runs' engines are artifacts
	}
	fmt.Fprintf(s.log, "\n== soak: worker %d starts at %s\n", i+1, time.Since(s.begin).Round(time.Millisecond))
	return start("worker", argv, []string{s.mark()}, s.log)
}

// endWorkers gives the workers the time to see that the run ended and exit with 0, as
// docs/distributed.md says they do; one that does not is noted and killed.
func (s *soak) endWorkers(workers []*process) {
	deadline := time.Now().Add(30 * time.Second)
	for i, w := range workers {
		select {
		case <-w.done:
			if code := w.exitCode(); code != 0 && !w.noted {
				s.notes = append(s.notes, fmt.Sprintf("worker %d exited with status %d after the run ended", i+1, code))
			}
		case <-time.After(time.Until(deadline)):
			s.notes = append(s.notes, fmt.Sprintf("worker %d was still running 30 s after the run ended; killed", i+1))
			s.kill(w)
		}
	}
}
