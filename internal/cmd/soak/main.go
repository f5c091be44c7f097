//go:build linux

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"time"

	"hivearbiter/internal/proc"

	"hivearbiter/enginekit/uhpserver/uhpfake"
)

func main() {
	proc.Main()    // on Windows a copy of the soak is its Ctrl-C sender
	uhpfake.Main() // the soak binary is also every fake engine of the run
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil:
	case errors.Is(err, errDefect):
		os.Exit(1)
	case errors.Is(err, flag.ErrHelp):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

// options are the soak's flags.
type options struct {
	dir            string
	bin            string
	games          int
	concurrency    int
	workers        int
	seed           uint64
	killMin        time.Duration
	killMax        time.Duration
	workerKill     time.Duration
	sample         time.Duration
	warmup         time.Duration
	timeout        time.Duration
	maxMoves       int
	commandTimeout time.Duration
	stallOn        string
	pool           bool
	runs           int
	active         int
	runGames       int
}

func parseOptions(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: go run ./internal/cmd/soak [flags]   (from the repository's root)")
		fmt.Fprintln(stderr, "\nA soak of arbiter match (or, with -pool, of arbiter server) under engine faults and SIGKILLs; see internal/cmd/soak/doc.go.")
		fs.PrintDefaults()
	}
	fs.StringVar(&o.dir, "dir", "", "working `directory` for binaries, records, logs (default: a new temporary one)")
	fs.StringVar(&o.bin, "bin", "", "`directory` holding the arbiter and hivebot, built already (default: build them into the working directory)")
	fs.IntVar(&o.games, "games", 5000, "at least this many games (whole rounds of the gauntlet); a pool's runs take -run-games")
	fs.IntVar(&o.concurrency, "concurrency", runtime.NumCPU(), "games at once (locally, or on each worker)")
	fs.IntVar(&o.workers, "workers", 0, "distributed: this many arbiter worker processes serve a match -listen coordinator (0: a local run)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the schedule, the fakes' faults and the kill times")
	fs.DurationVar(&o.killMin, "kill-min", 5*time.Second, "shortest time from a life's first recorded game to the SIGKILL of the arbiter (the coordinator, the pool's server); one life in five is killed while it starts")
	fs.DurationVar(&o.killMax, "kill-max", 45*time.Second, "longest such time; 0: never kill")
	fs.DurationVar(&o.workerKill, "worker-kill", 20*time.Second, "distributed: mean time between two SIGKILLs of a worker; 0: never")
	fs.DurationVar(&o.sample, "sample", time.Second, "time between two samples of the arbiter's memory, goroutines and fds")
	fs.DurationVar(&o.warmup, "warmup", 5*time.Second, "samples of an arbiter process younger than this are not judged for flatness")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Hour, "give up after this long")
	fs.DurationVar(&o.commandTimeout, "command-timeout", defaultCommandTimeout, "the arbiter's -command-timeout: how long a staller holds its game up, and the most a healthy engine may take to answer play or newgame")
	fs.IntVar(&o.maxMoves, "maxmoves", 60, "the arbiter's -maxmoves (a draw after this many moves of each side)")
	fs.BoolVar(&o.pool, "pool", false, "soak a pool instead: arbiter server, -workers long-lived workers (2 if 0), and -runs runs handed to it with arbiter submit")
	fs.IntVar(&o.runs, "runs", 20, "pool: this many runs are submitted in all")
	fs.IntVar(&o.active, "active", 3, "pool: this many runs are queued at once; the next is submitted as one ends")
	fs.IntVar(&o.runGames, "run-games", 14, "pool: at least this many games a run (whole rounds of the gauntlet)")
	fs.StringVar(&o.stallOn, "stall-on", "", "the command on which the staller hangs: play or newgame (default: play locally, newgame distributed)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return nil, fmt.Errorf("soak: unexpected arguments %q", fs.Args())
	}
	if o.games < 1 || o.concurrency < 1 || o.workers < 0 || o.killMin <= 0 || o.killMax < 0 || o.sample <= 0 || o.commandTimeout <= 0 {
		return nil, errors.New("soak: -games, -concurrency, -kill-min, -sample and -command-timeout must be positive")
	}
	if o.pool {
		if o.runs < 1 || o.active < 1 || o.runGames < 1 {
			return nil, errors.New("soak: -runs, -active and -run-games must be positive")
		}
		if o.workers == 0 {
			o.workers = 2
		}
		o.games = o.runGames // the gauntlet of each run
	}
	if o.stallOn == "" {
		o.stallOn = "play"
		if o.workers > 0 {
			o.stallOn = "newgame"
		}
	}
	if _, ok := stallChance[o.stallOn]; !ok {
		return nil, fmt.Errorf("soak: -stall-on %q: want play or newgame", o.stallOn)
	}
	return o, nil
}

// run builds the arbiter and hivebot, plays the soak and prints its audit. It returns
// errDefect when a check fails.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseOptions(args, stderr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if o.dir == "" {
		if o.dir, err = os.MkdirTemp("", "soak-"); err != nil {
			return fmt.Errorf("soak: %w", err)
		}
	}
	s, err := newSoak(ctx, o, stdout)
	if err != nil {
		return err
	}
	return s.play(ctx)
}

// soak is one soak run: its binaries, files and counters.
type soak struct {
	o        *options
	out      io.Writer
	begin    time.Time
	rng      *rand.Rand
	arbiter  string // the arbiter binary, built once
	hivebot  string
	fake     string // a copy of this binary, the fakes' program
	records  string
	faultLog string
	log      *os.File // every process's output
	rounds   int
	listen   string // the coordinator's address, in a distributed soak
	pool     *poolSoak

	kills       map[string]int // SIGKILLs by role
	orphans     map[string]int // engines that outlived a killed arbiter, by kind
	unexpected  []string       // processes that ended when not killed and not done
	sampler     *sampler
	watchers    sync.WaitGroup
	notes       []string // what the soak saw that is not a failed check
	finishedIn  time.Duration
	unfinished  error // why the run was cut short, if it was
	statsResult string
}

func newSoak(ctx context.Context, o *options, stdout io.Writer) (*soak, error) {
	bin := filepath.Join(o.dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return nil, fmt.Errorf("soak: %w", err)
	}
	s := &soak{
		o: o, out: stdout, begin: time.Now(),
		rng:      rand.New(rand.NewPCG(o.seed, 0x50a4)),
		arbiter:  filepath.Join(bin, "arbiter"),
		hivebot:  filepath.Join(bin, "hivebot"),
		fake:     filepath.Join(bin, "uhpfake"),
		records:  filepath.Join(o.dir, "records.jsonl"),
		faultLog: filepath.Join(o.dir, "faults.log"),
		rounds:   (o.games + 2*len(fakes(o.stallOn)) - 1) / (2 * len(fakes(o.stallOn))),
		kills:    make(map[string]int),
		orphans:  make(map[string]int),
	}
	s.sampler = &sampler{begin: s.begin, games: fileCounter(s.records)}
	if o.bin != "" {
		s.arbiter, s.hivebot = filepath.Join(o.bin, "arbiter"), filepath.Join(o.bin, "hivebot")
	} else {
		// One go build for both: it links them at once.
		fmt.Fprintf(stdout, "soak: building the arbiter and hivebot into %s\n", bin)
		build := exec.CommandContext(ctx, "go", "build", "-o", bin+string(filepath.Separator), "./cmd/arbiter", "./cmd/hivebot")
		build.Stdout, build.Stderr = stdout, stdout
		if err := build.Run(); err != nil {
			return nil, fmt.Errorf("soak: go build ./cmd/arbiter ./cmd/hivebot (run the soak from the repository's root): %w", err)
		}
	}
	if err := copySelf(s.fake); err != nil {
		return nil, err
	}
	log, err := os.OpenFile(filepath.Join(o.dir, "processes.log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("soak: %w", err)
	}
	s.log = log
	if o.pool {
		if s.pool, err = newPoolSoak(filepath.Join(o.dir, "pool")); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// copySelf copies the running binary to path: the fakes' program must outlive go run's
// temporary one, and keep one SHA-256 for a distributed run's workers.
func copySelf(path string) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	if err := os.WriteFile(path, data, 0o755); err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	return nil
}

// games is the number of games the gauntlet schedules.
func (s *soak) games() int { return s.rounds * len(fakes(s.o.stallOn)) * 2 }

// matchArgs is the arbiter's command, the same for every start: the run resumes from its
// records file.
func (s *soak) matchArgs(listen string) []string {
	args := []string{s.arbiter, "match", "-format", "gauntlet"}
	args = append(args, engineArgs(s.hivebot, s.fake, s.faultLog, s.o.stallOn, s.o.seed, false)...)
	args = append(args, "-rounds", fmt.Sprint(s.rounds), "-seed", fmt.Sprint(s.o.seed),
		"-out", s.records, "-maxmoves", fmt.Sprint(s.o.maxMoves),
		"-command-timeout", fmt.Sprint(s.o.commandTimeout.Seconds()), "-start-timeout", "10",
		// The fakes fail on purpose, and some of them game after game: a streak that stops the
		// run would end the run the soak measures.
		"-failure-streak", "0")
	if listen != "" {
		// No -concurrency: a coordinator plays no game of its own unless given one.
		return append(args, "-listen", listen, "-ackwait", "5s")
	}
	return append(args, "-concurrency", fmt.Sprint(s.o.concurrency))
}

// killer decides when the arbiter (the coordinator) is killed. One life in five is killed
// within two seconds of its start, while it reads the records and starts its engines; the
// others once they have recorded a game, after a random gap from -kill-min to -kill-max. A
// clock started at the process's start instead starves a run on a loaded machine: there,
// resuming took 15 to 25 s (the arbiter's own CPU was 0.6 s of it), and a run with kills
// every 3 to 30 s stopped making progress after 1,700 games.
type killer struct {
	s       *soak
	counter func() int // the records written so far
	games   int        // records when this life began
	at      time.Time  // when to kill; zero while waiting for a game
}

func newKiller(s *soak, counter func() int) *killer {
	k := &killer{s: s, counter: counter}
	k.newLife()
	return k
}

func (k *killer) newLife() {
	k.games, k.at = k.counter(), time.Time{}
	if k.s.o.killMax > 0 && k.s.rng.IntN(5) == 0 {
		k.at = time.Now().Add(time.Duration(k.s.rng.Int64N(int64(2 * time.Second))))
	}
}

// due reports whether the time to kill has come.
func (k *killer) due() bool {
	if k.s.o.killMax <= 0 {
		return false
	}
	if k.at.IsZero() && k.counter() > k.games {
		span := max(k.s.o.killMax-k.s.o.killMin, 1)
		k.at = time.Now().Add(k.s.o.killMin + time.Duration(k.s.rng.Int64N(int64(span))))
	}
	return !k.at.IsZero() && time.Now().After(k.at)
}
