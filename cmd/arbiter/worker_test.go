package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/ci"
	"hivearbiter/distributed"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/results"
)

// detConfig is an instant fake engine whose move is a function of the position and a salt
// alone, so that a game is the same whichever process plays it; blunderEvery N makes it answer
// an illegal move in about one position in N.
func detConfig(salt string, blunderEvery uint64, delay time.Duration) uhpfake.Config {
	cfg := fakeConfig("random")
	cfg.Salt, cfg.BlunderEvery, cfg.Delay = salt, blunderEvery, delay
	return cfg
}

// detEngines are two deterministic fake engines, the second blundering now and then; both wait
// delay before each move, and both take the extra -engine words.
func detEngines(delay time.Duration, extra ...string) []string {
	args := append(fakeEngineSpec("strong", detConfig("strong", 0, delay)), extra...)
	args = append(append(args, fakeEngineSpec("weak", detConfig("weak", 40, delay))...), extra...)
	return append(args, "-each", "st=1", "fractional=true", "-seed", "11", "-openings", "plies=2", "-maxplies", "30")
}

// sprtArgs: weak blunders often, and a streak of its blunders would stop a distributed run at
// a point that depends on the order its games finish, which a local run cannot match.
var sprtArgs = []string{"-rounds", "200", "-failure-streak", "0", "-sprt", "elo0=0", "elo1=60", "alpha=0.05", "beta=0.05"}

// process is an arbiter run from the test binary (so that it can be killed outright).
type process struct {
	cmd  *exec.Cmd
	out  *syncbuf.Buffer
	done chan struct{}
	code int
}

func startArbiter(t *testing.T, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(os.Args[0], args...), out: &syncbuf.Buffer{}, done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.cmd.Wait()
		p.code = p.cmd.ProcessState.ExitCode()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			// What each process said is how a failed wait for it is explained.
			t.Logf("arbiter %s:\n%s", strings.Join(args, " "), p.out)
		}
	})
	return p
}

func (p *process) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// wait returns the exit code, failing the test if the process outlives timeout.
func (p *process) wait(t *testing.T, what string, timeout time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.code
	case <-time.After(timeout):
		p.kill()
		t.Fatalf("%s still running after %s:\n%s", what, timeout, p.out)
		return -1
	}
}

// waitFor polls until cond holds, failing the test after timeout.
func waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// coordinator starts "arbiter match -listen" on a free loopback port and waits for the workers'
// credentials file.
func coordinator(t *testing.T, out, addr string, args ...string) (*process, string) {
	t.Helper()
	p := startArbiter(t, append([]string{"match", "-out", out, "-listen", addr, "-ackwait", "2s"}, args...)...)
	creds := out + ".nats/worker.creds"
	waitFor(t, "the coordinator's credentials", 30*time.Second, func() bool {
		_, err := os.Stat(creds)
		return err == nil && strings.Contains(p.out.String(), "Queued")
	})
	return p, creds
}

func worker(t *testing.T, creds, name string, args ...string) *process {
	return startArbiter(t, append([]string{"worker", "-creds", creds, "-name", name}, args...)...)
}

// gamesBefore counts, by the first engine's results, the recorded games of the pairs before
// pair n, and fails the test on a game recorded twice.
func gamesBefore(t *testing.T, path string, n int) [3]int {
	t.Helper()
	recs, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var wdl [3]int
	seen := map[int]bool{}
	for _, r := range recs {
		if seen[r.Game] {
			t.Errorf("%s: game %d recorded twice", path, r.Game)
		}
		seen[r.Game] = true
		if r.Pair < n {
			wdl[int(2-2*r.ScoreOf("strong"))]++
		}
	}
	return wdl
}

var decisionPairs = regexp.MustCompile(`accepted after (\d+) game pairs`)

// TestWorkersFinishSPRTAsLocal plays one SPRT locally and with a coordinator and three worker
// processes on loopback: the exit code, the decision, the pair it is taken at and the games it
// is taken on are the same.
func TestWorkersFinishSPRTAsLocal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	local := filepath.Join(dir, "local.jsonl")
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), append(append([]string{"match", "-out", local}, detEngines(0)...), sprtArgs...), &stdout, &stderr)
	localCode := exitCode(err, &stderr)
	localAt := decisionPairs.FindStringSubmatch(stdout.String())
	if localAt == nil {
		t.Fatalf("the local SPRT did not decide (exit %d):\n%s%s", localCode, stdout.String(), stderr.String())
	}

	dist := filepath.Join(dir, "dist.jsonl")
	coord, creds := coordinator(t, dist, testenv.FreeAddr(t), append(detEngines(0), sprtArgs...)...)
	var workers []*process
	for i := range 3 {
		workers = append(workers, worker(t, creds, fmt.Sprintf("w%d", i+1)))
	}
	code := coord.wait(t, "the coordinator", 120*time.Second)
	for i, w := range workers {
		if c := w.wait(t, "a worker", 20*time.Second); c != 0 {
			t.Errorf("worker %d exited with %d:\n%s", i+1, c, w.out)
		}
	}
	output := coord.out.String()
	distAt := decisionPairs.FindStringSubmatch(output)
	if code != localCode || distAt == nil || distAt[0] != localAt[0] {
		t.Fatalf("distributed: exit %d, %q; local: exit %d, %q\n%s", code, distAt, localCode, localAt[0], output)
	}
	n, _ := strconv.Atoi(localAt[1])
	if l, d := gamesBefore(t, local, n), gamesBefore(t, dist, n); l != d {
		t.Errorf("wins/draws/losses of the games decided on: distributed %v, local %v", d, l)
	}
	for _, w := range []string{"w1", "w2", "w3"} {
		if !strings.Contains(output, "Worker "+w+" joined") {
			t.Errorf("worker %s never joined:\n%s", w, output)
		}
	}
	if !strings.Contains(output, "workers connected") {
		t.Errorf("no workers table in the coordinator's output:\n%s", output)
	}
}

// startedGames lists the games a worker's output says it started.
var startedPattern = regexp.MustCompile(`Started game (\d+) of`)

func startedGames(out string) []int {
	var games []int
	for _, m := range startedPattern.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		games = append(games, n-1)
	}
	return games
}

// exactlyScheduled fails the test unless the records hold each of n games once.
func exactlyScheduled(t *testing.T, path string, n int) {
	t.Helper()
	recs, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, r := range recs {
		if seen[r.Game] {
			t.Errorf("game %d recorded twice", r.Game)
		}
		seen[r.Game] = true
	}
	if len(seen) != n || len(recs) != n {
		t.Errorf("%d records of %d games, want the %d scheduled", len(recs), len(seen), n)
	}
}

// TestWorkerKilledMidPair kills a worker outright in the middle of a pair: nothing is lost, and
// the pair is played again, once, by the others after the AckWait.
func TestWorkerKilledMidPair(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "games.jsonl")
	coord, creds := coordinator(t, out, testenv.FreeAddr(t), append(detEngines(15*time.Millisecond), "-rounds", "4")...)
	doomed := worker(t, creds, "doomed")
	waitFor(t, "the first worker to start a game", 30*time.Second, func() bool { return len(startedGames(doomed.out.String())) > 0 })
	doomed.kill()
	started := startedGames(doomed.out.String())
	pair := started[len(started)-1] / 2
	a, b := worker(t, creds, "a"), worker(t, creds, "b")
	if code := coord.wait(t, "the coordinator", 90*time.Second); code != 0 {
		t.Fatalf("coordinator exit %d:\n%s", code, coord.out)
	}
	a.wait(t, "worker a", 20*time.Second)
	b.wait(t, "worker b", 20*time.Second)
	exactlyScheduled(t, out, 8)
	replays := map[int]int{}
	for _, g := range append(startedGames(a.out.String()), startedGames(b.out.String())...) {
		replays[g]++
	}
	for g := 2 * pair; g < 2*pair+2; g++ {
		if replays[g] != 1 {
			t.Errorf("game %d of the killed worker's pair %d was started %d times by the others, want once", g+1, pair, replays[g])
		}
	}
}

// TestCoordinatorKilledAndRestarted kills the coordinator outright and runs the same command
// again: the workers reconnect by themselves, and the records hold exactly the scheduled games.
func TestCoordinatorKilledAndRestarted(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "games.jsonl")
	addr := testenv.FreeAddr(t)
	args := append(detEngines(10*time.Millisecond), "-rounds", "6")
	coord, creds := coordinator(t, out, addr, args...)
	a, b := worker(t, creds, "a"), worker(t, creds, "b")
	waitFor(t, "two recorded games", 60*time.Second, func() bool {
		recs, _ := results.ReadFile(out)
		return len(recs) >= 2
	})
	coord.kill()
	if recs, _ := results.ReadFile(out); len(recs) >= 12 {
		t.Fatalf("the run finished before the coordinator was killed (%d games)", len(recs))
	}
	again, _ := coordinator(t, out, addr, args...)
	if code := again.wait(t, "the restarted coordinator", 90*time.Second); code != 0 {
		t.Fatalf("restarted coordinator exit %d:\n%s", code, again.out)
	}
	if !strings.Contains(again.out.String(), "Resuming run") {
		t.Errorf("the restarted coordinator did not resume:\n%s", again.out)
	}
	for _, w := range []*process{a, b} {
		if code := w.wait(t, "a worker", 20*time.Second); code != 0 {
			t.Errorf("worker exit %d:\n%s", code, w.out)
		}
	}
	exactlyScheduled(t, out, 12)
}

// TestWorkersRefused: wrong credentials are refused by the server, and an engine binary other
// than the run's by the coordinator; a good worker then plays the run.
func TestWorkersRefused(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "games.jsonl")
	coord, creds := coordinator(t, out, testenv.FreeAddr(t), append(detEngines(0), "-rounds", "1")...)

	c, err := distributed.ReadRunCredentials(creds)
	if err != nil {
		t.Fatal(err)
	}
	c.Password = "guessed"
	wrong := filepath.Join(dir, "wrong.creds")
	if err := c.Save(wrong); err != nil {
		t.Fatal(err)
	}
	w := worker(t, wrong, "intruder")
	if code := w.wait(t, "the worker with wrong credentials", 20*time.Second); code == 0 || !strings.Contains(strings.ToLower(w.out.String()), "authorization") {
		t.Errorf("wrong credentials: exit %d:\n%s", code, w.out)
	}

	// Another build of the weak engine: the same program with a byte more.
	binary, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "weak-other-build")
	if err := os.WriteFile(other, append(binary, 0), 0o755); err != nil {
		t.Fatal(err)
	}
	w = worker(t, creds, "otherbuild", "-engine", "name=weak", "cmd="+other, "env="+uhpfake.Env(detConfig("weak", 40, 0)))
	if code := w.wait(t, "the worker with another build", 20*time.Second); code != ci.ExitEngines || !strings.Contains(w.out.String(), "another build") {
		t.Errorf("another build: exit %d, want %d:\n%s", code, ci.ExitEngines, w.out)
	}
	// The coordinator prints the refusal before it answers, but its output reaches the test
	// through a pipe and a copying goroutine, which may lag behind the worker's exit.
	waitFor(t, "the coordinator's report of the refused worker", 10*time.Second, func() bool {
		return strings.Contains(coord.out.String(), "Refused worker otherbuild")
	})

	goodWorkerFinishes(t, coord, creds, out, 2)
}

// goodWorkerFinishes starts a worker that takes the run's engines as they are, and checks that
// the run ends with its n games recorded once each.
func goodWorkerFinishes(t *testing.T, coord *process, creds, out string, n int) {
	t.Helper()
	good := worker(t, creds, "good")
	if code := coord.wait(t, "the coordinator", 60*time.Second); code != 0 {
		t.Fatalf("coordinator exit %d:\n%s", code, coord.out)
	}
	good.wait(t, "the good worker", 20*time.Second)
	exactlyScheduled(t, out, n)
}

// TestWorkerGivenFewerArguments: a coordinator runs an engine with arguments and a worker
// names that engine without them. The worker would play another engine under the run's name:
// it is refused before any game, naming the difference, and a worker that takes the run's
// engine as it is plays the run.
func TestWorkerGivenFewerArguments(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	coord, creds := coordinator(t, out, testenv.FreeAddr(t), append(detEngines(0, "arg=-profile", "arg=medium"), "-rounds", "1")...)
	w := worker(t, creds, "noargs", "-engine", "name=strong", "cmd="+os.Args[0], "env="+uhpfake.Env(detConfig("strong", 0, 0)))
	want := `engine "strong": the run passes arg -profile medium; this worker's -engine has none`
	if code := w.wait(t, "the worker without the arguments", 20*time.Second); code != ci.ExitEngines || !strings.Contains(w.out.String(), want) {
		t.Errorf("exit %d, want %d and %q:\n%s", code, ci.ExitEngines, want, w.out)
	}
	if started := startedGames(w.out.String()); len(started) > 0 {
		t.Errorf("the refused worker started games %v", started)
	}
	waitFor(t, "the coordinator's report of the worker that cannot play", 10*time.Second, func() bool {
		return strings.Contains(coord.out.String(), "Worker noargs cannot play the run: distributed: "+want)
	})
	goodWorkerFinishes(t, coord, creds, out, 2)
}

// TestCoordinatorPlaysItself: with -concurrency the coordinator plays pairs itself, through the
// same queue as its workers.
func TestCoordinatorPlaysItself(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "games.jsonl")
	coord, _ := coordinator(t, out, testenv.FreeAddr(t), append(detEngines(0), "-rounds", "2", "-concurrency", "1")...)
	if code := coord.wait(t, "the coordinator", 60*time.Second); code != 0 {
		t.Fatalf("coordinator exit %d:\n%s", code, coord.out)
	}
	if !strings.Contains(coord.out.String(), "-coordinator ") {
		t.Errorf("the coordinator's own worker does not appear:\n%s", coord.out)
	}
	exactlyScheduled(t, out, 4)
}

// TestWorkersCommand: "arbiter workers" shows the connected workers and their games in flight.
// The run is what the test can see the worker busy in: its engines take 0.1 s a move, so that
// it lasts seconds, long enough for a loaded machine to ask more than once (at 20 ms a move it
// lasted 1.5 s, and the run had ended, with its coordinator, before a second ask).
func TestWorkersCommand(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "games.jsonl")
	coord, creds := coordinator(t, out, testenv.FreeAddr(t), append(detEngines(100*time.Millisecond), "-rounds", "2")...)
	w := worker(t, creds, "busy")
	var status string
	waitFor(t, "arbiter workers to show the busy worker", 30*time.Second, func() bool {
		var stdout, stderr bytes.Buffer
		if err := run(t.Context(), []string{"workers", "-creds", creds}, &stdout, &stderr); err != nil {
			t.Fatalf("arbiter workers: %v\n%s", err, stderr.String())
		}
		status = stdout.String()
		return strings.Contains(status, "1 workers connected") && regexp.MustCompile(`busy +connected +1 +1 `).MatchString(status)
	})
	if code := coord.wait(t, "the coordinator", 60*time.Second); code != 0 {
		t.Fatalf("coordinator exit %d:\n%s", code, coord.out)
	}
	w.wait(t, "the worker", 20*time.Second)
}

// TestCoordinatorOnExistingServer: with -nats the coordinator and its workers meet on a NATS
// server run by someone else (here one started by the test, with its own users).
func TestCoordinatorOnExistingServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "games.jsonl")
	args := append(detEngines(0), "-rounds", "2")
	cfg, err := matchConfig(append([]string{"-out", out}, args...), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	tour, err := arbiter.NewTournament(cfg, arbiter.TournamentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := distributed.StartServer(distributed.ServerConfig{Listen: "127.0.0.1:0", Run: tour.Run(), Dir: filepath.Join(dir, "server")})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	url := srv.Credentials().URL
	coord := startArbiter(t, append([]string{"match", "-out", out, "-nats", url, "-creds", filepath.Join(dir, "server", "coordinator.creds")}, args...)...)
	w := worker(t, filepath.Join(dir, "server", "worker.creds"), "w")
	if code := coord.wait(t, "the coordinator", 60*time.Second); code != 0 {
		t.Fatalf("coordinator exit %d:\n%s", code, coord.out)
	}
	if code := w.wait(t, "the worker", 20*time.Second); code != 0 {
		t.Fatalf("worker exit %d:\n%s", code, w.out)
	}
	exactlyScheduled(t, out, 4)
}
