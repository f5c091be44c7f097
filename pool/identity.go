package pool

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"

	"hivearbiter/distributed"
	"hivearbiter/pool/artifact"
)

// Identity is one NATS user of the pool: the public key of its NKey, and its role.
type Identity struct {
	Role    string    `json:"role"` // admin, submitter or worker
	NKey    string    `json:"nkey"`
	Added   time.Time `json:"added"`
	Revoked time.Time `json:"revoked,omitzero"`
}

// The roles of the pool's users.
const (
	RoleAdmin     = "admin"
	RoleSubmitter = "submitter"
	RoleWorker    = "worker"
)

// identities are the pool's users by name, kept in identities.json in the server's directory:
// read before the NATS server starts, so that a restarted server knows every worker at once.
type identities struct {
	path  string
	Users map[string]*Identity `json:"users"`
}

var workerName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ErrName is a worker name that cannot be one NATS subject token.
var ErrName = errors.New("pool: a worker name is 1 to 64 letters, digits, '-' or '_'")

func loadIdentities(dir string) (*identities, error) {
	ids := &identities{path: filepath.Join(dir, "identities.json"), Users: map[string]*Identity{}}
	b, err := os.ReadFile(ids.path)
	if errors.Is(err, os.ErrNotExist) {
		return ids, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pool: %w", err)
	}
	if err := json.Unmarshal(b, ids); err != nil {
		return nil, fmt.Errorf("pool: %s: %w", ids.path, err)
	}
	return ids, nil
}

func (ids *identities) save() error {
	b, err := json.MarshalIndent(ids, "", "  ")
	if err != nil {
		return err
	}
	tmp := ids.path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("pool: %w", err)
	}
	if err := os.Rename(tmp, ids.path); err != nil {
		return fmt.Errorf("pool: %w", err)
	}
	return nil
}

// InboxPrefix is the prefix of a user's reply subjects (its credentials' Inbox): a worker's
// names it, the admin's and the submitter's their role. Every user may subscribe below its own
// prefix only, so that none reads the replies the server sends another: another worker's
// assignments, tune pairs and artifacts, or a submitter's runs.
func InboxPrefix(role, name string) string {
	if role == RoleWorker {
		return "_INBOX.worker." + name
	}
	return "_INBOX." + role
}

// permissions are a role's rights. A worker's are its own: it publishes results and
// heartbeats and asks for work and artifacts under its name only, so its name is what its key
// says. No one but the server reads the artifacts' bucket: a worker is handed a run's
// artifacts by the server (see relay.go), and a submitter may write to the bucket.
func permissions(role, name string) *server.Permissions {
	inbox := &server.SubjectPermission{Allow: []string{InboxPrefix(role, name) + ".>"}}
	switch role {
	case RoleAdmin:
		return &server.Permissions{Publish: &server.SubjectPermission{Allow: []string{"arbiterpool.>"}}, Subscribe: inbox}
	case RoleSubmitter:
		allow := append([]string{subjectSubmit, "arbiterpool.runs.>"}, artifact.WriteSubjects(artifact.DefaultBucket)...)
		return &server.Permissions{Publish: &server.SubjectPermission{Allow: allow}, Subscribe: inbox}
	}
	// In every run it is assigned, a worker has a run's worker's rights under its own name
	// (distributed writes those), and the pool's own subjects beside them.
	publish, subscribe := distributed.WorkerSubjects(distributed.AnyRun, name)
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: append(publish, assignSubject(name), tuneSubject("*", name), artifactSubject(name))},
		Subscribe: &server.SubjectPermission{Allow: append([]string{inbox.Allow[0]}, subscribe...)},
	}
}

// NewUserKey makes a user NKey: the seed for the holder's credentials file, the public key
// for the server.
func NewUserKey() (seed, public string, err error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return "", "", fmt.Errorf("pool: %w", err)
	}
	s, err := kp.Seed()
	if err != nil {
		return "", "", fmt.Errorf("pool: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return "", "", fmt.Errorf("pool: %w", err)
	}
	return string(s), pub, nil
}
