package main

import (
	"context"
	"errors"
	"io"

	"hivearbiter/arbiter"
	"hivearbiter/ci"
	"hivearbiter/configs"
	"hivearbiter/distributed"
	"hivearbiter/internal/cli"
	"hivearbiter/pool"
)

// runCoordinator plays a run through workers, and with -concurrency through engines of its own;
// host.Console is the run's console, one of the observers.
func runCoordinator(ctx context.Context, cfg arbiter.Config, host distributed.HostConfig, hint string, stdout io.Writer, observers []arbiter.Observer) error {
	if host.Listen != "" && host.URL != "" {
		return cli.Usage(errors.New("give -listen or -nats, not both"))
	}
	return playTournamentWith(ctx, cfg, hint, stdout, observers, func(ctx context.Context, t *arbiter.Tournament) (*arbiter.Outcome, error) {
		return distributed.Host(ctx, t, host)
	})
}

const workerUsage = `worker -connect URL -creds FILE [-name NAME] [-concurrency N] [-engine name=NAME cmd=PROG ...]...

Plays the game pairs of a run that a coordinator (arbiter match -listen or -nats) serves, with
engines of this machine, until the run ends. With the credentials of a pool's worker (arbiter
server worker add), it stays connected across runs and plays whichever run the server needs it
for, until stopped; a worker revoked exits with code 5. Engines are matched to the run's by name, and a
run's engine is the run's: -engine says only where this machine's build is (cmd, dir, env, and
arguments that are local paths); the run's arguments, options, protocol settings and time
control apply. A worker whose -engine gives other arguments or settings than the run's is
refused, with the difference named, and so is one whose engines differ from the run's (their
id line or the SHA-256 of their program). The worker reconnects by itself when the coordinator
restarts.`

func runWorker(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("worker", workerUsage, stderr)
	var (
		connect     = fs.String("connect", "", "the coordinator's `URL` (default: the one in -creds)")
		credsPath   = fs.String("creds", "", "the credentials `file` the coordinator wrote (RUN.jsonl.nats/worker.creds)")
		name        = fs.String("name", "", "this worker's name in the coordinator's tables (default HOST-PID)")
		concurrency = fs.Int("concurrency", 1, "game pairs played at once, each with its own engine processes")
		transcripts = fs.String("transcripts", "", "write each engine's conversation to a file in this `dir`")
		platform    = fs.String("platform", "", "a pool's worker: the platform it tells the server (default this machine's OS/ARCH)")
		cache       = fs.String("cache", "", "a pool's worker: the `dir` of the engines it fetches (default the user's cache directory)")
		bench       = fs.Bool("bench", true, "a pool's worker: measure each engine once before it first plays it (its own bench, or a depth-3 search), for the server's tables")
	)
	fs.Func("engine", "this machine's build of a run's engine (key=value words, name= required)", func(string) error { return nil })
	if err := cli.Parse(fs, rest); err != nil {
		return err
	}
	creds, err := readCreds(*credsPath, *connect, "-creds FILE is required (the coordinator writes it next to its records file)", distributed.ReadCredentials)
	if err != nil {
		return err
	}
	engines, err := configs.WorkerEngines(groups["each"], groups["engine"], builtinResolver)
	if err != nil {
		return cli.Usage(err)
	}
	if err := locateEngines(engines); err != nil {
		return err
	}
	if creds.Run == "" { // a pool's worker (arbiter server worker add)
		w := &pool.Worker{Name: creds.User, Creds: creds, Concurrency: *concurrency, Platform: *platform,
			Engines: engines, Console: stdout, TranscriptDir: *transcripts, Cache: *cache, SkipBench: !*bench}
		return workerExit(ctx, w.Run(ctx), new(*pool.RefusedError))
	}
	w := &distributed.Worker{Name: *name, Creds: creds, Concurrency: *concurrency, Engines: engines,
		Console: stdout, TranscriptDir: *transcripts}
	return workerExit(ctx, w.Run(ctx), new(*distributed.RefusedError), new(*distributed.EngineMismatchError), new(*arbiter.EngineStartError))
}

// workerExit is the exit status of a worker that ended with err: 5 when it was refused (err
// is one of the kinds that refusals point to), 130 when it was stopped.
func workerExit(ctx context.Context, err error, refusals ...any) error {
	for _, refused := range refusals {
		if errors.As(err, refused) {
			return cli.Exit(ci.ExitEngines, "%v", err)
		}
	}
	if ctx.Err() != nil {
		return cli.Exit(ci.ExitInterrupted, "")
	}
	return err
}

// readCreds reads the credentials file that -creds names with read (missing says what to give
// when it names none), and puts -connect's URL, if given, over the file's.
func readCreds(path, connect, missing string, read func(string) (*distributed.Credentials, error)) (*distributed.Credentials, error) {
	if path == "" {
		return nil, cli.Usage(errors.New(missing))
	}
	creds, err := read(path)
	if err != nil {
		return nil, cli.Usage(err)
	}
	cli.OverrideString(&creds.URL, connect)
	return creds, nil
}

const workersUsage = `workers -creds FILE [-connect URL] [-json]

Shows the workers of the run a coordinator serves: connected or not, games in flight, games
played, score, faults, time losses, rejected results, and the chi-square p-value that flags a
worker whose results are improbable against the others'.`

func runWorkers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("workers", workersUsage, stderr)
	var (
		connect   = fs.String("connect", "", "the coordinator's `URL` (default: the one in -creds)")
		credsPath = fs.String("creds", "", "the credentials `file` the coordinator wrote")
		asJSON    = fs.Bool("json", false, "print the status as JSON")
	)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	creds, err := readCreds(*credsPath, *connect, "-creds FILE is required", distributed.ReadRunCredentials)
	if err != nil {
		return err
	}
	st, err := distributed.FetchStatus(ctx, creds, "arbiter workers")
	return writeStatus(stdout, *asJSON, st, err, distributed.WriteStatus)
}
