package distributed

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Server is an embedded NATS server with JetStream that serves one run: its store is under the
// run's directory, and it knows two users, the coordinator (every subject) and the workers
// (their run's subjects only).
type Server struct {
	ns    *server.Server
	creds *Credentials // the workers'
	coord *Credentials // the coordinator's own, never written for workers
}

// ServerConfig says where an embedded server listens and keeps its state.
type ServerConfig struct {
	Listen string // HOST:PORT
	Run    string
	// Dir holds the JetStream store, the credentials and the certificate; reused on restart so
	// that workers' credentials stay valid.
	Dir string
	// TLS asks for TLS on a loopback listener too (off loopback it is always on).
	TLS bool
}

// StartServer starts an embedded server. Its credentials and certificate are generated on first
// start and reused afterwards, so a restarted coordinator is the same server to its workers. Off
// loopback the server speaks TLS only.
func StartServer(cfg ServerConfig) (*Server, error) {
	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("distributed: %w", err)
	}
	workers, err := loadOrCreate(filepath.Join(cfg.Dir, "worker.creds"), cfg.Run, "worker")
	if err != nil {
		return nil, err
	}
	coord, err := loadOrCreate(filepath.Join(cfg.Dir, "coordinator.creds"), cfg.Run, "coordinator")
	if err != nil {
		return nil, err
	}
	emb, err := NewEmbedded(cfg.Listen, cfg.Dir, cfg.TLS)
	if err != nil {
		return nil, err
	}
	emb.Options.ServerName = "arbiter-" + cfg.Run
	emb.Options.Users = []*server.User{
		{Username: coord.User, Password: coord.Password},
		{Username: workers.User, Password: workers.Password, Permissions: WorkerPermissions(cfg.Run)},
	}
	ns, url, err := emb.Start()
	if err != nil {
		return nil, err
	}
	workers.URL, coord.URL, workers.CA, coord.CA = url, url, emb.CA, emb.CA
	if err := workers.Save(filepath.Join(cfg.Dir, "worker.creds")); err != nil {
		ns.Shutdown()
		return nil, err
	}
	if err := coord.Save(filepath.Join(cfg.Dir, "coordinator.creds")); err != nil {
		ns.Shutdown()
		return nil, err
	}
	return &Server{ns: ns, creds: workers, coord: coord}, nil
}

// Embedded is the configuration of an embedded NATS server with JetStream, before its users
// are added: where it listens, where it keeps its store, and its TLS. A run's server and a
// pool's share it.
type Embedded struct {
	Options *server.Options
	// CA is the PEM certificate clients trust, when the server speaks TLS.
	CA     string
	host   string
	scheme string
}

// NewEmbedded lays out an embedded server listening on listen (HOST:PORT) with its store and
// its certificate under dir. Off loopback (or with tls) it speaks TLS only, with a self-signed
// certificate made on first start and reused afterwards.
func NewEmbedded(listen, dir string, tls bool) (*Embedded, error) {
	host, portText, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("distributed: -listen %q: want HOST:PORT: %w", listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return nil, fmt.Errorf("distributed: -listen %q: bad port", listen)
	}
	if port == 0 {
		port = server.RANDOM_PORT // NATS reads port 0 as its default, 4222
	}
	e := &Embedded{host: host, scheme: "nats", Options: &server.Options{
		Host: host, Port: port,
		JetStream: true, StoreDir: filepath.Join(dir, "jetstream"),
		NoSigs: true, NoLog: true,
	}}
	if tls || !isLoopback(host) {
		cert, pemText, err := selfSignedCert(dir)
		if err != nil {
			return nil, fmt.Errorf("distributed: certificate: %w", err)
		}
		e.Options.TLSConfig = tlsServerConfig(cert)
		e.Options.TLS, e.Options.TLSTimeout = true, 5
		e.CA, e.scheme = pemText, "tls"
	}
	return e, nil
}

// Start starts the server and returns it with the URL clients dial: the address asked for,
// with the port the server got (port 0 picks one); a wildcard host is replaced by this
// machine's name.
func (e *Embedded) Start() (*server.Server, string, error) {
	listen := net.JoinHostPort(e.host, strconv.Itoa(e.Options.Port))
	if e.Options.Port != server.RANDOM_PORT {
		// NATS reports a port it cannot listen on only by not becoming ready: say it at once.
		l, err := net.Listen("tcp", listen)
		if err != nil {
			return nil, "", fmt.Errorf("distributed: cannot listen on %s (another program, or another arbiter server, holds it? give -listen another address): %w", listen, err)
		}
		l.Close()
	}
	ns, err := server.NewServer(e.Options)
	if err != nil {
		return nil, "", fmt.Errorf("distributed: %w", err)
	}
	ns.Start()
	// JetStream reads its store before the server is ready: on a loaded machine with a large
	// store that takes seconds.
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, "", fmt.Errorf("distributed: the NATS server on %s did not start within 30 s", listen)
	}
	addr := ns.Addr().(*net.TCPAddr)
	dialHost := e.host
	if ip := net.ParseIP(e.host); e.host == "" || (ip != nil && ip.IsUnspecified()) {
		dialHost, _ = os.Hostname()
	}
	return ns, e.scheme + "://" + net.JoinHostPort(dialHost, strconv.Itoa(addr.Port)), nil
}

// Secret returns n random bytes as hex: a password no one types.
func Secret(n int) string { return secret(n) }

// loadOrCreate reuses the credentials at path if they are for this run, or makes new ones.
func loadOrCreate(path, run, user string) (*Credentials, error) {
	if c, err := ReadRunCredentials(path); err == nil && c.Run == run && c.User == user {
		return c, nil
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return &Credentials{Run: run, User: user, Password: secret(24)}, nil
}

// WorkerPermissions are a worker's rights on a run: pull and acknowledge the run's work, publish
// its results, greet the coordinator, send heartbeats, ask for status, and hear the
// coordinator's control messages. Nothing else: not another run's subjects, not the JetStream
// API beyond its run's work consumer.
func WorkerPermissions(run string) *server.Permissions {
	publish, subscribe := WorkerSubjects(run, "*") // the run's workers share one user
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: append(publish, statusSubject(run))},
		Subscribe: &server.SubjectPermission{Allow: append([]string{"_INBOX.>"}, subscribe...)},
	}
}

// Credentials are the workers' credentials; CoordinatorCredentials the coordinator's own.
func (s *Server) Credentials() *Credentials { return s.creds }

// CoordinatorCredentials are the credentials of the coordinator's own connection.
func (s *Server) CoordinatorCredentials() *Credentials { return s.coord }

// Connect opens a connection to the server with the given credentials, in process (no socket).
func (s *Server) Connect(c *Credentials, opts ...nats.Option) (*nats.Conn, error) {
	copts, err := c.options()
	if err != nil {
		return nil, err
	}
	opts = append(append(copts, nats.InProcessServer(s.ns)), opts...)
	nc, err := nats.Connect("", opts...)
	if err != nil {
		return nil, fmt.Errorf("distributed: %w", err)
	}
	return nc, nil
}

// Shutdown stops the server and waits until it has.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}
