package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go"

	"hivearbiter/arbiter"
	"hivearbiter/distributed"
)

// coordinatorFlags are the flags of "arbiter match" that serve its run to workers.
type coordinatorFlags struct {
	listen, natsURL, creds string
	ackWait                time.Duration
	concurrency            int // -concurrency as given: the coordinator plays games itself only if asked
}

func (f *coordinatorFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.listen, "listen", "", "serve the run to workers (arbiter worker) from an embedded NATS server on `HOST:PORT`; TLS unless loopback")
	fs.StringVar(&f.natsURL, "nats", "", "serve the run to workers through an existing NATS server at `URL` (with -creds)")
	fs.StringVar(&f.creds, "creds", "", "with -nats: the coordinator's credentials `file` for that server")
	fs.DurationVar(&f.ackWait, "ackwait", distributed.DefaultAckWait, "with -listen or -nats: how long a silent worker keeps a game pair before it is played elsewhere")
}

func (f *coordinatorFlags) serving() bool { return f.listen != "" || f.natsURL != "" }

// runCoordinator plays a run through workers, and with -concurrency through engines of its own.
func runCoordinator(ctx context.Context, cfg arbiter.Config, flags *coordinatorFlags, hint string, stdout io.Writer, observers []arbiter.Observer) error {
	if flags.listen != "" && flags.natsURL != "" {
		return usageError{errors.New("give -listen or -nats, not both")}
	}
	return playTournamentWith(ctx, cfg, hint, stdout, observers, func(ctx context.Context, t *arbiter.Tournament) (*arbiter.Outcome, error) {
		cfg := t.Config()
		expect, err := distributed.Identify(ctx, cfg.Engines, cfg.StartTimeout)
		if err != nil {
			return nil, err
		}
		var nc, workerConn *nats.Conn
		var workerCreds *distributed.Credentials
		dir := cfg.Out + ".nats"
		credsPath := filepath.Join(dir, "worker.creds")
		if flags.listen != "" {
			srv, err := distributed.StartServer(distributed.ServerConfig{Listen: flags.listen, Run: t.Run(), Dir: dir})
			if err != nil {
				return nil, err
			}
			defer srv.Shutdown()
			if nc, err = srv.Connect(srv.CoordinatorCredentials()); err != nil {
				return nil, err
			}
			workerCreds = srv.Credentials()
			if flags.concurrency > 0 {
				if workerConn, err = srv.Connect(workerCreds); err != nil {
					return nil, err
				}
				defer workerConn.Close()
			}
		} else {
			own := &distributed.Credentials{URL: flags.natsURL, Run: t.Run()}
			if flags.creds != "" {
				if own, err = distributed.LoadCredentials(flags.creds); err != nil {
					return nil, err
				}
				own.URL, own.Run = flags.natsURL, t.Run()
			}
			if nc, err = distributed.Dial(own, "arbiter coordinator"); err != nil {
				return nil, err
			}
			// Workers get the address and the run; their user is the NATS administrator's to add.
			workerCreds = &distributed.Credentials{URL: flags.natsURL, Run: t.Run(), CA: own.CA}
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return nil, err
			}
			if err := workerCreds.Save(credsPath); err != nil {
				return nil, err
			}
		}
		defer nc.Close()
		fmt.Fprintf(stdout, "Serving run %s to workers at %s: arbiter worker -connect %s -creds %s\n",
			t.Run(), workerCreds.URL, workerCreds.URL, credsPath)
		c := &distributed.Coordinator{Tournament: t, Conn: nc, Expect: expect, AckWait: flags.ackWait,
			Console: t.ConsoleWriter(), ProgressEvery: 10 * time.Second}
		var own chan error
		if flags.concurrency > 0 {
			host, _ := os.Hostname()
			w := &distributed.Worker{Name: workerName(host) + "-coordinator", Creds: workerCreds, Conn: workerConn,
				Concurrency: flags.concurrency, Engines: cfg.Engines, TranscriptDir: cfg.TranscriptDir}
			own = make(chan error, 1)
			wctx, stop := context.WithCancel(ctx)
			defer func() { stop(); <-own }()
			go func() { own <- w.Run(wctx) }()
		}
		return distributed.Serve(ctx, c)
	})
}

const workerUsage = `worker -connect URL -creds FILE [-name NAME] [-concurrency N] [-engine name=NAME cmd=PROG ...]...

Plays the game pairs of a run that a coordinator (arbiter match -listen or -nats) serves, with
engines of this machine, until the run ends. Engines are matched to the run's by name: -engine
says where this machine's build is (cmd, arg, dir, env); the run's options and time control
apply. The coordinator refuses a worker whose engines differ from the run's (their id line or
the SHA-256 of their program). The worker reconnects by itself when the coordinator restarts.`

func runWorker(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("worker", workerUsage, stderr)
	var (
		connect     = fs.String("connect", "", "the coordinator's `URL` (default: the one in -creds)")
		credsPath   = fs.String("creds", "", "the credentials `file` the coordinator wrote (RUN.jsonl.nats/worker.creds)")
		name        = fs.String("name", "", "this worker's name in the coordinator's tables (default HOST-PID)")
		concurrency = fs.Int("concurrency", 1, "game pairs played at once, each with its own engine processes")
		transcripts = fs.String("transcripts", "", "write each engine's conversation to a file in this `dir`")
	)
	fs.Func("engine", "this machine's build of a run's engine (key=value words, name= required)", func(string) error { return nil })
	if err := parseFlags(fs, rest); err != nil {
		return err
	}
	if *credsPath == "" {
		return usageError{errors.New("-creds FILE is required (the coordinator writes it next to its records file)")}
	}
	creds, err := distributed.LoadCredentials(*credsPath)
	if err != nil {
		return usageError{err}
	}
	overrideString(&creds.URL, *connect)
	engines, err := enginesFromFlags(groups, "st=1")
	if err != nil {
		return usageError{err}
	}
	if err := locateEngines(engines); err != nil {
		return err
	}
	if *name == "" {
		host, _ := os.Hostname()
		*name = fmt.Sprintf("%s-%d", workerName(host), os.Getpid())
	}
	w := &distributed.Worker{Name: *name, Creds: creds, Concurrency: *concurrency, Engines: engines,
		Console: stdout, TranscriptDir: *transcripts}
	err = w.Run(ctx)
	var refused *distributed.RefusedError
	var start *arbiter.EngineStartError
	switch {
	case errors.As(err, &refused), errors.As(err, &start):
		return exitWith(exitEngines, "%v", err)
	case ctx.Err() != nil:
		return exitWith(exitInterrupted, "")
	}
	return err
}

// workerName makes a host name one NATS subject token.
func workerName(host string) string {
	b := []byte(host)
	for i, c := range b {
		if c == '.' || c == '*' || c == '>' || c == ' ' {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "worker"
	}
	return string(b)
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
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *credsPath == "" {
		return usageError{errors.New("-creds FILE is required")}
	}
	creds, err := distributed.LoadCredentials(*credsPath)
	if err != nil {
		return usageError{err}
	}
	overrideString(&creds.URL, *connect)
	nc, err := distributed.Dial(creds, "arbiter workers")
	if err != nil {
		return err
	}
	defer nc.Close()
	st, err := distributed.RequestStatus(ctx, nc, creds.Run)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	distributed.WriteStatus(stdout, st, time.Now())
	return nil
}
