package distributed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"

	"hivearbiter/arbiter"
)

// HostConfig says where a coordinator serves its run: from a NATS server of its own, or
// through one run by someone else.
type HostConfig struct {
	// Listen is the HOST:PORT of an embedded NATS server (TLS unless loopback).
	Listen string
	// URL is an existing NATS server's, with CredsFile the coordinator's credentials for it.
	URL, CredsFile string
	// AckWait is how long a silent worker keeps a game pair (DefaultAckWait if 0).
	AckWait time.Duration
	// Slots, if above 0, are game pairs the coordinator plays at once itself, as a worker.
	Slots int
	// Console receives the address workers connect to and the coordinator's lines: the run's
	// console (a console.Observer among the tournament's observers), so that they are written
	// under its live line.
	Console io.Writer
}

// Serving reports whether the run is served to workers (Listen or URL given).
func (hc *HostConfig) Serving() bool { return hc.Listen != "" || hc.URL != "" }

// Host plays a tournament through workers: it serves the run from HostConfig's server, writes
// the workers' credentials file next to the records file (RUN.jsonl.nats/worker.creds), and
// plays games itself if asked. The outcome is the run's, as for a local run.
func Host(ctx context.Context, t *arbiter.Tournament, hc HostConfig) (*arbiter.Outcome, error) {
	if hc.Listen != "" && hc.URL != "" {
		return nil, errors.New("distributed: serve from an embedded server or an existing one, not both")
	}
	cfg := t.Config()
	expect, err := Identify(ctx, cfg.Engines, cfg.GameType, cfg.StartTimeout)
	if err != nil {
		return nil, err
	}
	dir := cfg.Out + ".nats"
	credsPath := filepath.Join(dir, "worker.creds")
	l, err := hc.connect(t.Run(), dir, credsPath)
	if err != nil {
		return nil, err
	}
	defer l.close()
	if hc.Console != nil {
		fmt.Fprintf(hc.Console, "Serving run %s to workers at %s: arbiter worker -connect %s -creds %s\n",
			t.Run(), l.workerCreds.URL, l.workerCreds.URL, credsPath)
	}
	c := &Coordinator{Tournament: t, Conn: l.nc, Expect: expect, AckWait: hc.AckWait,
		Console: hc.Console, ProgressEvery: 10 * time.Second}
	if hc.Slots > 0 {
		w := &Worker{Name: DefaultName("coordinator"), Creds: l.workerCreds, Conn: l.workerConn,
			Concurrency: hc.Slots, Engines: cfg.Engines, TranscriptDir: cfg.TranscriptDir}
		own := make(chan error, 1)
		wctx, stop := context.WithCancel(ctx)
		defer func() { stop(); <-own }()
		go func() { own <- w.Run(wctx) }()
	}
	return Serve(ctx, c)
}

// link is a coordinator's connection to its server, with what its workers need.
type link struct {
	nc          *nats.Conn
	workerConn  *nats.Conn // the coordinator's own worker's, on an embedded server
	workerCreds *Credentials
	closers     []func()
}

// close closes all the link opened, last first.
func (l *link) close() {
	for i := len(l.closers) - 1; i >= 0; i-- {
		l.closers[i]()
	}
}

// connect connects the coordinator to its server: the embedded one it starts (which writes the
// workers' credentials, and through which its own worker connects when it plays), or an
// existing one (whose address and run it writes to credsPath for workers: their users are the
// server's administrator's to add).
func (hc HostConfig) connect(run, dir, credsPath string) (l *link, err error) {
	l = &link{}
	defer func() {
		if err != nil {
			l.close()
		}
	}()
	if hc.Listen != "" {
		srv, err := StartServer(ServerConfig{Listen: hc.Listen, Run: run, Dir: dir})
		if err != nil {
			return l, err
		}
		l.closers = append(l.closers, srv.Shutdown)
		if l.nc, err = srv.Connect(srv.CoordinatorCredentials()); err != nil {
			return l, err
		}
		l.closers = append(l.closers, l.nc.Close)
		l.workerCreds = srv.Credentials()
		if hc.Slots > 0 {
			if l.workerConn, err = srv.Connect(l.workerCreds); err != nil {
				return l, err
			}
			l.closers = append(l.closers, l.workerConn.Close)
		}
		return l, nil
	}
	own := &Credentials{URL: hc.URL, Run: run}
	if hc.CredsFile != "" {
		if own, err = ReadRunCredentials(hc.CredsFile); err != nil {
			return l, err
		}
		own.URL, own.Run = hc.URL, run
	}
	if l.nc, err = Dial(own, "arbiter coordinator"); err != nil {
		return l, err
	}
	l.closers = append(l.closers, l.nc.Close)
	l.workerCreds = &Credentials{URL: hc.URL, Run: run, CA: own.CA}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return l, err
	}
	return l, l.workerCreds.Save(credsPath)
}

// DefaultName is a worker name made of this machine's host name and a suffix, as one NATS
// subject token: "host-suffix".
func DefaultName(suffix string) string {
	host, _ := os.Hostname()
	b := []byte(host)
	for i, c := range b {
		if c == '.' || c == '*' || c == '>' || c == ' ' {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		b = []byte("worker")
	}
	return string(b) + "-" + suffix
}

// DefaultWorkerName is the name of a worker that is given none: host and process id.
func DefaultWorkerName() string { return DefaultName(strconv.Itoa(os.Getpid())) }
