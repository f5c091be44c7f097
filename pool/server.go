package pool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/distributed"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/pool/artifact"
)

// DefaultBatch is how long a worker plays a run before it asks the server again where it is
// most needed.
const DefaultBatch = time.Minute

// Config says where a pool's server keeps its state and how it serves.
type Config struct {
	// Dir holds the JetStream store, identities.json, the admin's and the submitter's
	// credentials, the certificate, and the runs' records files (runs/ID.jsonl).
	Dir string
	// Listen is the HOST:PORT of the embedded NATS server (TLS unless loopback).
	Listen string
	// TLS asks for TLS on a loopback listener too.
	TLS bool
	// NATS, if set, is an existing NATS server to use instead of an embedded one, with
	// CredsFile the server's credentials for it; its users are then that server's business.
	NATS, CredsFile string
	// AckWait is how long a silent worker keeps a game pair (distributed.DefaultAckWait if 0).
	AckWait time.Duration
	// Batch is how long a worker plays a run before it asks again (DefaultBatch if 0).
	Batch time.Duration
	// Console receives the server's lines (runs started and ended, workers added).
	Console io.Writer
	// People are the rules of the pool's persons (see people.go).
	People PeopleConfig
}

// DefaultConfig is the Config of "arbiter server" given no flags: the directory
// arbiter-pool, an embedded server on the loopback port of NATS, and the default waits and
// limit of runs.
func DefaultConfig() Config {
	return Config{Dir: "arbiter-pool", Listen: "127.0.0.1:4222", AckWait: distributed.DefaultAckWait, Batch: DefaultBatch,
		People: PeopleConfig{MaxActive: DefaultMaxActive}}
}

// Server is a pool's server: the NATS server (embedded, or a connection to an existing one),
// the runs' state in the key-value bucket, a coordinator for each active run, and the
// scheduling of workers among the runs.
type Server struct {
	cfg  Config
	ns   *server.Server // nil with an existing NATS server
	auth *clientAuth    // who the embedded NATS server lets in
	nc   *nats.Conn
	js   jetstream.JetStream
	kv   jetstream.KeyValue
	url  string
	ca   string
	// The order in which the mutexes below may be taken, and why there are six, is in
	// locksordering.txt.
	idMu sync.Mutex
	ids  *identities
	subs []*nats.Subscription
	// closing, once set (under hmu), keeps messages from starting handlers; handlers counts
	// those running, which Close waits for before it stops what they use.
	hmu      sync.Mutex
	closing  bool
	handlers sync.WaitGroup
	// hctx bounds the handlers' own waits (an artifact's first copy from the bucket); Close
	// cancels it before it waits for them.
	hctx    context.Context
	hcancel context.CancelFunc
	// relaying bounds the artifact requests answered at once (handleConcurrently).
	relaying chan struct{}
	ctx      context.Context
	stop     context.CancelFunc
	runWG    sync.WaitGroup
	con      syncbuf.Printer
	// ctl lets one run command (submit, pause, resume, stop, delete, priority) at a time check
	// a run's state and make the change it allows: two resumes of a paused run at once would
	// start two coordinators on its records.
	ctl sync.Mutex
	// saveMu orders the writes of runs' states to the bucket (saveState).
	saveMu sync.Mutex
	// depot hands the workers their runs' artifacts (relay.go); store is where the server
	// uploads the engines of the lists it keeps (list.go).
	depot *artifact.Depot
	store *artifact.Store
	// people are the pool's persons, their sessions and the runs' audit trails (people.go).
	people *peopleState

	mu      sync.Mutex
	runs    map[string]*run
	workers map[string]*WorkerState
	// lists are the rating lists the server keeps, by ID, for their pages (listsite.go).
	lists map[string]keptList
	// pages keeps the views of runs' records that their pages show (testpage.go).
	pages pageCache
}

// Start starts a pool's server and the runs it had when it stopped. It serves until Close.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Batch <= 0 {
		cfg.Batch = DefaultBatch
	}
	if err := os.MkdirAll(filepath.Join(cfg.Dir, "runs"), 0o700); err != nil {
		return nil, fmt.Errorf("pool: %w", err)
	}
	s := &Server{cfg: cfg, runs: map[string]*run{}, workers: map[string]*WorkerState{}}
	s.ctx, s.stop = context.WithCancel(context.WithoutCancel(ctx))
	s.hctx, s.hcancel = context.WithCancel(s.ctx)
	s.relaying = make(chan struct{}, relayers)
	var err error
	if cfg.NATS != "" {
		err = s.dialExisting()
	} else {
		err = s.startEmbedded()
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	if err := s.open(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// startEmbedded starts the embedded NATS server with the pool's users, and writes the admin's
// and the submitter's credentials (made on first start, kept after).
func (s *Server) startEmbedded() error {
	ids, err := loadIdentities(s.cfg.Dir)
	if err != nil {
		return err
	}
	s.ids = ids
	emb, err := distributed.NewEmbedded(s.cfg.Listen, s.cfg.Dir, s.cfg.TLS)
	if err != nil {
		return err
	}
	own := distributed.Secret(24)
	opts := emb.Options
	opts.ServerName = "arbiter-pool"
	creds := map[string]*distributed.Credentials{}
	for _, role := range []string{RoleAdmin, RoleSubmitter} {
		c, err := s.ownCredentials(role)
		if err != nil {
			return err
		}
		creds[role] = c
	}
	s.auth = newClientAuth(own, ids)
	opts.CustomClientAuthentication, opts.AlwaysEnableNonce = s.auth, true
	ns, url, err := emb.Start()
	if err != nil {
		return err
	}
	s.ns, s.url, s.ca = ns, url, emb.CA
	for role, c := range creds {
		c.URL, c.CA, c.Inbox = url, emb.CA, InboxPrefix(role, role)
		if err := c.Save(CredsPath(s.cfg.Dir, role)); err != nil {
			return err
		}
	}
	s.nc, err = nats.Connect("", nats.InProcessServer(ns), nats.UserInfo(serverUser, own), nats.Name("arbiter pool server"))
	if err != nil {
		return fmt.Errorf("pool: %w", err)
	}
	return nil
}

// ownCredentials are the credentials of the pool's admin or submitter: read again from the
// server's directory, or made (and their key added to the identities) on first start.
func (s *Server) ownCredentials(role string) (*distributed.Credentials, error) {
	path := CredsPath(s.cfg.Dir, role)
	if c, err := distributed.ReadCredentials(path); err == nil && c.Seed != "" && s.ids.Users[role] != nil {
		return c, nil
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	seed, pub, err := NewUserKey()
	if err != nil {
		return nil, err
	}
	s.ids.Users[role] = &Identity{Role: role, NKey: pub, Added: time.Now().UTC()}
	if err := s.ids.save(); err != nil {
		return nil, err
	}
	return &distributed.Credentials{User: role, Seed: seed}, nil
}

// dialExisting connects to an existing NATS server.
func (s *Server) dialExisting() error {
	own := &distributed.Credentials{URL: s.cfg.NATS}
	if s.cfg.CredsFile != "" {
		c, err := distributed.ReadCredentials(s.cfg.CredsFile)
		if err != nil {
			return err
		}
		own = c
		own.URL = s.cfg.NATS // the server -nats names, whatever the file says
	}
	nc, err := distributed.Dial(own, "arbiter pool server")
	if err != nil {
		return err
	}
	s.nc, s.url, s.ca = nc, s.cfg.NATS, own.CA
	return nil
}

// open opens the runs' bucket, answers submitters, admins and workers, and starts the runs
// that were active when the server stopped.
func (s *Server) open(ctx context.Context) error {
	js, err := jetstream.New(s.nc)
	if err != nil {
		return fmt.Errorf("pool: %w", err)
	}
	s.js = js
	s.kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucket, Storage: jetstream.FileStorage,
		Description: "the runs of an arbiter pool"})
	if err != nil {
		return fmt.Errorf("pool: the runs' bucket: %w", err)
	}
	store, err := artifact.CreateStore(ctx, js, artifact.DefaultBucket, artifact.Limits{})
	if err != nil {
		return err
	}
	s.store, s.depot = store, artifact.NewDepot(store, filepath.Join(s.cfg.Dir, "artifacts"))
	if err := s.openPeople(ctx); err != nil {
		return err
	}
	if err := s.loadRuns(ctx); err != nil {
		return err
	}
	for subject, h := range map[string]nats.MsgHandler{
		subjectSubmit: s.onSubmitAs, subjectRuns: s.onRuns, subjectControl: s.onControlAs, subjectPeople: s.onPeople,
		subjectAudit:   s.onAudit,
		subjectWorkers: s.onWorkers, subjectAdd: s.onAddWorker, subjectRevoke: s.onRevokeWorker,
		assignSubject("*"): s.onAssign, tuneSubject(verbTake, "*"): s.onTuneTake, tuneSubject(verbRenew, "*"): s.onTuneRenew,
		tuneSubject(verbResult, "*"): s.onTuneResult, artifactSubject("*"): s.handleConcurrently(s.onArtifact, s.relaying),
	} {
		sub, err := s.nc.Subscribe(subject, s.handle(h))
		if err != nil {
			return fmt.Errorf("pool: %w", err)
		}
		s.subs = append(s.subs, sub)
	}
	return s.nc.Flush()
}

// URL is the address workers and submitters dial.
func (s *Server) URL() string { return s.url }

// CA is the certificate clients trust, when the server speaks TLS.
func (s *Server) CA() string { return s.ca }

// Close stops serving: the runs stop where they are (their games in flight are played again
// when the server starts again), and the NATS server shuts down. It first stops taking
// requests and waits for the handlers of those under way, which use the runs, the bucket and
// the connection Close then stops. It may be called more than once.
func (s *Server) Close() {
	s.hmu.Lock()
	s.closing = true
	s.hmu.Unlock()
	if s.hcancel != nil {
		s.hcancel()
	}
	for _, sub := range s.subs {
		sub.Unsubscribe()
	}
	s.handlers.Wait()
	if s.stop != nil {
		s.stop()
	}
	s.runWG.Wait()
	if s.nc != nil {
		s.nc.Close()
	}
	if s.ns != nil {
		s.ns.Shutdown()
		s.ns.WaitForShutdown()
	}
}

// handle runs h for each message until Close, which waits for it: a message that arrives
// as the server closes is not answered (its requester's wait ends it).
func (s *Server) handle(h nats.MsgHandler) nats.MsgHandler {
	return func(m *nats.Msg) {
		if !s.enter() {
			return
		}
		defer s.handlers.Done()
		h(m)
	}
}

// enter counts a handler about to run, unless the server is closing: then it reports false and
// the message is not handled. A handler entered ends with s.handlers.Done.
func (s *Server) enter() bool {
	s.hmu.Lock()
	defer s.hmu.Unlock()
	if s.closing {
		return false
	}
	s.handlers.Add(1)
	return true
}

// relayers is how many artifact requests the server answers at once: a first copy of one
// artifact from the bucket does not hold up the pieces of others.
const relayers = 4

// handleConcurrently is handle for up to cap(slots) messages at once: a message that finds
// them all taken waits in the subscription (NATS delivers its messages one at a time). Its
// handlers are counted, as handle's are, from before they start.
func (s *Server) handleConcurrently(h nats.MsgHandler, slots chan struct{}) nats.MsgHandler {
	return func(m *nats.Msg) {
		slots <- struct{}{}
		if !s.enter() {
			<-slots
			return
		}
		go func() {
			defer func() { <-slots }()
			defer s.handlers.Done()
			h(m)
		}()
	}
}

func (s *Server) printf(format string, args ...any) {
	s.con.Printf(s.cfg.Console, format, args...)
}

func respond(m *nats.Msg, v any) {
	b, _ := json.Marshal(v)
	m.Respond(b)
}

// respondError answers with err, or with an empty reply (success) when err is nil.
func respondError(m *nats.Msg, err error) {
	if err == nil {
		respond(m, Reply{})
		return
	}
	respond(m, Reply{Error: err.Error()})
}

// onAddWorker lets a worker in: its public key is kept, and the NATS server lets it in from then on.
func (s *Server) onAddWorker(m *nats.Msg) {
	var req AddWorker
	if err := json.Unmarshal(m.Data, &req); err != nil {
		respondError(m, fmt.Errorf("pool: unreadable request: %w", err))
		return
	}
	respondError(m, s.AddWorker(req.Name, req.NKey))
}

// onRevokeWorker shuts a worker out.
func (s *Server) onRevokeWorker(m *nats.Msg) {
	var req AddWorker
	if err := json.Unmarshal(m.Data, &req); err != nil {
		respondError(m, fmt.Errorf("pool: unreadable request: %w", err))
		return
	}
	respondError(m, s.RevokeWorker(req.Name))
}

// ErrExternal is asked of a server that uses an existing NATS server, whose users are not its.
var ErrExternal = errors.New("pool: the NATS server is not the pool's own: its users are managed there")

// AddWorker lets a worker in with the public key of its NKey (a name revoked before may come
// back with a new key).
func (s *Server) AddWorker(name, nkey string) error {
	if !workerName.MatchString(name) || name == RoleAdmin || name == RoleSubmitter {
		return ErrName
	}
	if s.ns == nil {
		return ErrExternal
	}
	s.idMu.Lock()
	defer s.idMu.Unlock()
	if u := s.ids.Users[name]; u != nil && u.Revoked.IsZero() {
		return fmt.Errorf("pool: worker %s exists (revoke it first to give it a new key)", name)
	}
	s.ids.Users[name] = &Identity{Role: RoleWorker, NKey: nkey, Added: time.Now().UTC()}
	if err := s.ids.save(); err != nil {
		delete(s.ids.Users, name)
		return err
	}
	s.auth.set(s.ids)
	s.printf("Worker %s added\n", name)
	return nil
}

// RevokeWorker shuts a worker out: its key goes from the NATS server's users, which closes its
// connection, and it is refused from then on.
func (s *Server) RevokeWorker(name string) error {
	if s.ns == nil {
		return ErrExternal
	}
	s.idMu.Lock()
	defer s.idMu.Unlock()
	u := s.ids.Users[name]
	if u == nil || u.Role != RoleWorker {
		return fmt.Errorf("pool: no worker %s", name)
	}
	if u.Revoked.IsZero() {
		u.Revoked = time.Now().UTC()
	}
	if err := s.ids.save(); err != nil {
		return err
	}
	s.mu.Lock()
	if w := s.workers[name]; w != nil {
		w.Revoked, w.Run = true, ""
	}
	s.mu.Unlock()
	s.auth.set(s.ids)
	s.printf("Worker %s revoked\n", name)
	return s.disconnect(u.NKey)
}

// disconnect closes the NATS connections of the user whose public key is nkey (one no longer
// let in, so it is refused when it connects again).
func (s *Server) disconnect(nkey string) error {
	conns, err := s.ns.Connz(&server.ConnzOptions{User: nkey, Limit: 1 << 16})
	if err != nil {
		return fmt.Errorf("pool: the NATS server's connections: %w", err)
	}
	for _, c := range conns.Conns {
		s.ns.DisconnectClientByID(c.Cid) // it may have gone by itself since
	}
	return nil
}
