package pool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/pool/artifact"
)

// Client is a submitter's or an admin's connection to a pool's server.
type Client struct {
	nc    *nats.Conn
	creds *distributed.Credentials
}

// Connect connects to the server the credentials name (admin.creds or submitter.creds from the
// server's directory). Credentials written before users had inboxes of their own get the
// inbox of their role.
func Connect(creds *distributed.Credentials, name string) (*Client, error) {
	if creds.Inbox == "" && (creds.User == RoleAdmin || creds.User == RoleSubmitter) {
		c := *creds
		c.Inbox = InboxPrefix(c.User, c.User)
		creds = &c
	}
	nc, err := distributed.Dial(creds, name, nats.MaxReconnects(3))
	if err != nil {
		return nil, err
	}
	return &Client{nc: nc, creds: creds}, nil
}

// CredsPath is where a pool's server keeps the credentials of a role (RoleAdmin,
// RoleSubmitter) in its directory: the files "arbiter server" writes at its start.
func CredsPath(dir, role string) string { return filepath.Join(dir, role+".creds") }

// CredentialsError is a credentials file that cannot be read: the path given is wrong.
type CredentialsError struct{ Err error }

// Error is the file's error, which names the path.
func (e *CredentialsError) Error() string { return e.Err.Error() }

// Unwrap returns the file's error, for errors.Is(err, fs.ErrNotExist).
func (e *CredentialsError) Unwrap() error { return e.Err }

// ConnectAs connects as a role with the credentials in the file at path, or when path is "",
// with those the server wrote for the role in its directory (CredsPath).
func ConnectAs(dir, role, path string) (*Client, error) {
	if path == "" {
		path = CredsPath(dir, role)
	}
	creds, err := distributed.ReadCredentials(path)
	if err != nil {
		return nil, &CredentialsError{err}
	}
	if role != RoleWorker && creds.User != "" && creds.Inbox == InboxPrefix(RoleWorker, creds.User) {
		// The server would refuse each request as a permissions violation, after a wait.
		return nil, &CredentialsError{fmt.Errorf("pool: %s holds the credentials of worker %s, which may only play runs (arbiter worker -creds %s): give the %s's credentials, %s in the server's directory",
			path, creds.User, path, role, filepath.Base(CredsPath("", role)))}
	}
	return Connect(creds, "arbiter "+role)
}

// Close closes the connection.
func (c *Client) Close() { c.nc.Close() }

func (c *Client) request(ctx context.Context, subject string, v any) (*Reply, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	m, err := c.nc.RequestWithContext(rctx, subject, b)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) {
			return nil, fmt.Errorf("pool: no pool server answers at %s (or these credentials may not ask that)", c.creds.URL)
		}
		return nil, fmt.Errorf("pool: %w", err)
	}
	var r Reply
	if err := json.Unmarshal(m.Data, &r); err != nil {
		return nil, fmt.Errorf("pool: unreadable reply: %w", err)
	}
	if r.Error != "" {
		return nil, errors.New(r.Error)
	}
	return &r, nil
}

// Submit hands a run to the server.
func (c *Client) Submit(ctx context.Context, sub *Submission) (*RunState, error) {
	r, err := c.request(ctx, subjectSubmit, sub)
	if err != nil {
		return nil, err
	}
	return r.Run, nil
}

// Runs lists the pool's runs.
func (c *Client) Runs(ctx context.Context) ([]RunState, error) {
	r, err := c.request(ctx, subjectRuns, struct{}{})
	if err != nil {
		return nil, err
	}
	return r.Runs, nil
}

// Control pauses, resumes, stops, deletes or reprioritizes a run.
func (c *Client) Control(ctx context.Context, ctl Control) (*RunState, error) {
	r, err := c.request(ctx, subjectControl, ctl)
	if err != nil {
		return nil, err
	}
	return r.Run, nil
}

// Workers lists the pool's workers (admin).
func (c *Client) Workers(ctx context.Context) ([]WorkerState, error) {
	r, err := c.request(ctx, subjectWorkers, struct{}{})
	if err != nil {
		return nil, err
	}
	return r.Workers, nil
}

// AddWorker makes a worker's key on this machine, lets its public half in (admin), and returns
// the worker's credentials: the server's address and certificate, and the key's seed, which
// never leaves this machine but in the file written from them.
func (c *Client) AddWorker(ctx context.Context, name string) (*distributed.Credentials, error) {
	seed, pub, err := NewUserKey()
	if err != nil {
		return nil, err
	}
	if _, err := c.request(ctx, subjectAdd, AddWorker{Name: name, NKey: pub}); err != nil {
		return nil, err
	}
	return &distributed.Credentials{URL: c.creds.URL, User: name, Seed: seed, CA: c.creds.CA, Inbox: InboxPrefix(RoleWorker, name)}, nil
}

// RevokeWorker shuts a worker out (admin).
func (c *Client) RevokeWorker(ctx context.Context, name string) error {
	_, err := c.request(ctx, subjectRevoke, AddWorker{Name: name})
	return err
}

// UploadEngines uploads a run's engines to the pool's artifacts (an engine already there is
// not sent again) and returns their manifests and the engines as the run carries them (see
// artifact.Store.UploadEngines).
func (c *Client) UploadEngines(ctx context.Context, engines []driver.EngineConfig) ([]artifact.Manifest, []driver.EngineConfig, error) {
	js, err := jetstream.New(c.nc)
	if err != nil {
		return nil, nil, fmt.Errorf("pool: %w", err)
	}
	bucket, err := js.ObjectStore(ctx, artifact.DefaultBucket)
	if err != nil {
		return nil, nil, fmt.Errorf("pool: the artifacts' bucket: %w", err)
	}
	return artifact.NewStore(bucket, artifact.Limits{}).UploadEngines(ctx, engines)
}

// Follow asks for the run's state every interval until the run is over, calls progress with
// it whenever its games, its state or why it waits change (and once at first), and returns its
// last state.
// A run no longer in the pool (deleted) is an error; so is a server that does not answer for
// followPatience, a while longer than a restart takes.
func (c *Client) Follow(ctx context.Context, id string, interval time.Duration, progress func(RunState)) (*RunState, error) {
	var last *RunState
	failing := time.Time{}
	for {
		runs, err := c.Runs(ctx)
		switch {
		case ctx.Err() != nil:
			return last, ctx.Err()
		case err != nil:
			if failing.IsZero() {
				failing = time.Now()
			}
			if time.Since(failing) > followPatience {
				return last, fmt.Errorf("pool: following run %s: %w", id, err)
			}
			if c.nc.IsClosed() {
				// A restart outlasted the connection's reconnects: connect again.
				if nc, err := distributed.Dial(c.creds, "arbiter submitter", nats.MaxReconnects(3)); err == nil {
					c.nc = nc
				}
			}
		default:
			failing = time.Time{}
			i := slices.IndexFunc(runs, func(r RunState) bool { return r.ID == id })
			if i < 0 {
				return last, fmt.Errorf("pool: run %s is no longer in the pool (deleted)", id)
			}
			st := runs[i]
			if last == nil || st.Games() != last.Games() || st.State != last.State || st.Unplayable != last.Unplayable {
				progress(st)
			}
			last = &st
			if st.Over() {
				return last, nil
			}
		}
		select {
		case <-time.After(interval):
		case <-ctx.Done():
			return last, ctx.Err()
		}
	}
}

// followPatience is how long Follow waits for a server that does not answer (a restart).
const followPatience = 2 * time.Minute
