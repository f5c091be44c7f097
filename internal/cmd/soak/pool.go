//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"time"

	"hivearbiter/internal/cli"

	"hivearbiter/pool"
)

// poolSoak is a soak of the pool (-pool): one arbiter server, long-lived workers, and runs
// submitted one after another with arbiter submit, each a small gauntlet of hivebot against
// the fakes, its engines uploaded as artifacts. The soak drives the pool only through the
// arbiter's commands, as a user would.
type poolSoak struct {
	dir    string // the server's -dir
	listen string // its NATS address, the same in every life (the workers' credentials name it)

	mu        sync.Mutex
	runs      []*poolRun // submitted, in order
	workersUp int
	failures  map[string]int // commands that failed (the server down), by command
}

// poolRun is one submitted run: its seed (which makes its id, its schedule and its faults),
// and what the server said of it last.
type poolRun struct {
	seed  uint64
	id    string
	state pool.RunState
}

// newPoolSoak picks the server's address; the server makes its directory.
func newPoolSoak(dir string) (*poolSoak, error) {
	listen, err := freePort()
	if err != nil {
		return nil, err
	}
	return &poolSoak{dir: dir, listen: listen, failures: make(map[string]int)}, nil
}

// load is the server's load as the soak knows it, for the samples: runs submitted and not
// over, the worker processes up, and the runs over.
func (p *poolSoak) load() load {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := load{workers: p.workersUp}
	for _, r := range p.runs {
		if r.state.Over() {
			l.finished++
		} else {
			l.runs++
		}
	}
	return l
}

// over reports whether every one of n runs was submitted and the server says it is over.
func (p *poolSoak) over(n int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.runs) < n {
		return false
	}
	for _, r := range p.runs {
		if !r.state.Over() {
			return false
		}
	}
	return true
}

func (p *poolSoak) fail(what string) {
	p.mu.Lock()
	p.failures[what]++
	p.mu.Unlock()
}

// serverArgs is the server's command, the same in every life: it resumes from its directory.
func (s *soak) serverArgs() []string {
	return []string{s.arbiter, "server", "-dir", s.pool.dir, "-listen", s.pool.listen, "-ackwait", "5s"}
}

// runSeed is the seed of the i-th run (from 0): each run's own, so that each has its id.
func (s *soak) runSeed(i int) uint64 { return s.o.seed*1000 + uint64(i) + 1 }

// isSPRT says whether the i-th run is an SPRT: one run in four.
func isSPRT(i int) bool { return i%4 == 3 }

// sprtArgs are an SPRT run's engines and test: hivebot at depth 1 against itself at depth 2
// (deeper), both healthy, so that the test decides, or not, as a user's would, and a run may
// stop before its cap (as many games as a gauntlet's) with pairs still in the workers' hands.
func (s *soak) sprtArgs() []string {
	return []string{"-format", "match",
		"-engine", "name=hivebot", "cmd=" + s.hivebot, healthyTime, "option.MaxDepth=1", "option.TranspositionTableSizeMB=1",
		"-engine", "name=deeper", "cmd=" + s.hivebot, healthyTime, "option.MaxDepth=2", "option.TranspositionTableSizeMB=1",
		"-sprt", "elo0=0", "elo1=100", "alpha=0.1", "beta=0.1", "-rounds", fmt.Sprint(s.games() / 2)}
}

// submitArgs is the i-th run, as arbiter submit hands it to the server.
func (s *soak) submitArgs(i int) []string {
	seed := s.runSeed(i)
	args := []string{s.arbiter, "submit", "-creds", filepath.Join(s.pool.dir, "submitter.creds")}
	if isSPRT(i) {
		args = append(args, s.sprtArgs()...)
	} else {
		args = append(args, "-format", "gauntlet", "-rounds", fmt.Sprint(s.rounds))
		args = append(args, engineArgs(s.hivebot, s.fake, s.faultLog, s.o.stallOn, seed, false)...)
	}
	return append(args, "-seed", fmt.Sprint(seed),
		"-maxmoves", fmt.Sprint(s.o.maxMoves), "-command-timeout", fmt.Sprint(s.o.commandTimeout.Seconds()),
		"-start-timeout", "10")
}

// command runs one of the arbiter's short commands (submit, server runs, server worker add)
// and returns its output; its own output goes to the processes' log too.
func (s *soak) command(ctx context.Context, timeout time.Duration, argv []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Env = append(os.Environ(), s.mark())
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	fmt.Fprintf(s.log, "== soak: %s %s: %v\n%s", filepath.Base(argv[0]), argv[1], err, out.Bytes())
	if err != nil {
		return out.Bytes(), fmt.Errorf("soak: %s: %w", cli.QuoteArgs(argv[1:3]), err)
	}
	return out.Bytes(), nil
}

var (
	submittedLine = regexp.MustCompile(`Run ([0-9a-f]+) submitted`)
	alreadyLine   = regexp.MustCompile(`run ([0-9a-f]+) is in the pool already`)
)

// submit hands the next run to the server and reports whether it took it. A submission the
// server took without the soak hearing it (killed as it answered) is in the pool already
// when it is handed again: the answer names it, as it would to a user who tried again.
func (s *soak) submit(ctx context.Context) bool {
	p := s.pool
	i := len(p.runs)
	out, err := s.command(ctx, time.Minute, s.submitArgs(i))
	m := submittedLine.FindSubmatch(out)
	if err != nil {
		m = alreadyLine.FindSubmatch(out)
	}
	if m == nil {
		p.fail("submit")
		return false
	}
	p.mu.Lock()
	p.runs = append(p.runs, &poolRun{seed: s.runSeed(i), id: string(m[1])})
	p.mu.Unlock()
	return true
}

// list asks the server for its runs (arbiter server runs -json) and keeps what it says of
// the soak's; it returns false when the server did not answer.
func (s *soak) list(ctx context.Context) bool {
	p := s.pool
	out, err := s.command(ctx, 20*time.Second, []string{s.arbiter, "server", "runs", "-json", "-dir", p.dir})
	var runs []pool.RunState
	if err == nil {
		err = json.Unmarshal(out, &runs)
	}
	if err != nil {
		p.fail("server runs")
		return false
	}
	byID := make(map[string]pool.RunState)
	for _, r := range runs {
		byID[r.ID] = r
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range p.runs {
		if st, ok := byID[r.id]; ok {
			r.state = st
		}
	}
	return true
}

// topUp submits runs until -active of them are not over (as the last listing said, a run
// just submitted counting as active), or every run is submitted.
func (s *soak) topUp(ctx context.Context) {
	for s.pool.load().runs < s.o.active && len(s.pool.runs) < s.o.runs {
		if !s.submit(ctx) {
			return // again after the next listing
		}
	}
}

// addWorkers adds the workers to the pool (arbiter server worker add) once the server
// answers, and returns their credentials files.
func (s *soak) addWorkers(ctx context.Context, server *process) ([]string, error) {
	var creds []string
	for i := range s.o.workers {
		name := fmt.Sprintf("soak-%d", i+1)
		path := filepath.Join(s.o.dir, name+".creds")
		deadline := time.Now().Add(20 * time.Second)
		for {
			_, err := s.command(ctx, 10*time.Second, []string{s.arbiter, "server", "worker", "add", name, "-dir", s.pool.dir, "-o", path})
			if err == nil {
				break
			}
			if isDone(server) || time.Now().After(deadline) {
				return nil, fmt.Errorf("soak: the server did not let worker %s in within 20 s (its output is in %s): %w",
					name, filepath.Join(s.o.dir, "processes.log"), err)
			}
			time.Sleep(200 * time.Millisecond)
		}
		creds = append(creds, path)
	}
	return creds, nil
}

// poolWorkerArgs is the i-th worker's command: its credentials, and a cache of its own, into
// which it fetches the runs' engines as a machine of its own would.
func (s *soak) poolWorkerArgs(i int) []string {
	name := fmt.Sprintf("soak-%d", i+1)
	return []string{s.arbiter, "worker", "-creds", filepath.Join(s.o.dir, name+".creds"), "-name", name,
		"-concurrency", fmt.Sprint(s.o.concurrency), "-cache", filepath.Join(s.o.dir, "cache-"+strconv.Itoa(i+1)), "-bench=false"}
}

// poolLoop starts the server and the workers, submits the runs, kills and restarts the
// server and the workers at random, and returns once every run is over.
func (s *soak) poolLoop(ctx context.Context) error {
	p := s.pool
	records := filepath.Join(p.dir, "runs", "*.jsonl")
	s.sampler.games = globCounter(records)
	s.sampler.load = p.load
	setup := func(srv *process, workers []*process) error {
		if _, err := s.addWorkers(ctx, srv); err != nil {
			return err
		}
		for i := range workers {
			var err error
			if workers[i], err = s.startWorker(i); err != nil {
				return err
			}
		}
		return nil
	}
	nextList := time.Now()
	step := func(srv *process, workers []*process) (bool, error) {
		if isDone(srv) {
			return true, fmt.Errorf("soak: the server exited with status %d without being killed; its output is in %s",
				srv.exitCode(), filepath.Join(s.o.dir, "processes.log"))
		}
		p.mu.Lock()
		p.workersUp = countUp(workers)
		p.mu.Unlock()
		if time.Now().Before(nextList) {
			return false, nil
		}
		ok := s.list(ctx)
		nextList = time.Now().Add(time.Second)
		if ok && p.over(s.o.runs) {
			s.finishedIn = time.Since(s.begin)
			return true, s.stopPool(srv, workers)
		}
		if ok {
			s.topUp(ctx)
		}
		return false, nil
	}
	return s.drive(ctx, "server", s.serverArgs(), globCounter(records), setup, step)
}

func countUp(ps []*process) int {
	n := 0
	for _, p := range ps {
		if p != nil && !isDone(p) {
			n++
		}
	}
	return n
}

// stopPool stops the workers and then the server as a user would, with SIGTERM, and gives
// each 20 s to exit; one that does not is noted and killed, and so is an exit status other
// than 0 or 130 (the arbiter's for an interrupted command).
func (s *soak) stopPool(srv *process, workers []*process) error {
	for _, w := range append(workers, srv) {
		if isDone(w) {
			continue
		}
		w.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-w.done:
			if code := w.exitCode(); code != 0 && code != 130 {
				s.notes = append(s.notes, fmt.Sprintf("the %s exited with status %d on SIGTERM", w.role, code))
			}
		case <-time.After(20 * time.Second):
			s.notes = append(s.notes, fmt.Sprintf("the %s was still running 20 s after SIGTERM; killed", w.role))
			s.kill(w)
		}
	}
	return nil
}

// leftovers are the processes of the soak (see ours) still running 2 s after it stopped
// everything: none may outlive the soak. They are killed, and counted by kind and
// parent ("hivebot of 1" is an orphan).
func (s *soak) leftovers() map[string]int {
	ours := s.ours()
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) && len(alive(ours)) > 0 {
		time.Sleep(50 * time.Millisecond)
	}
	left := make(map[string]int)
	for _, d := range alive(ours) {
		parent, _, _ := statOf(d.pid)
		left[fmt.Sprintf("%s of %s", kindOf(d.pid), kindOf(parent))]++
		syscall.Kill(d.pid, syscall.SIGKILL)
	}
	return left
}

// markVar names the soak in the environment of every process it starts, which hands it down
// to theirs (the arbiter starts its engines with its own environment): a process that outlived
// the soak is known by it, though its parent is gone. Another soak beside it (.ci/soak runs
// three) may run the same hivebot program, so a program's path does not tell.
const markVar = "ARBITER_SOAK_DIR"

// mark is this soak's entry in markVar.
func (s *soak) mark() string {
	dir, _ := filepath.Abs(s.o.dir)
	return markVar + "=" + dir
}

// ours lists the running processes that carry this soak's mark, or whose program is in its
// directory (the engines the workers fetched into their caches).
func (s *soak) ours() []descendant {
	var out []descendant
	entries, _ := os.ReadDir("/proc")
	dir, _ := filepath.Abs(s.o.dir)
	mark := []byte(s.mark() + "\x00")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() || zombie(pid) {
			continue
		}
		exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if isUnder(exe, dir) || bytes.HasPrefix(env, mark) || bytes.Contains(env, append([]byte{0}, mark...)) {
			if _, start, ok := statOf(pid); ok {
				out = append(out, descendant{pid: pid, start: start})
			}
		}
	}
	return out
}

func isUnder(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}
