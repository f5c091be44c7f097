package pool

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/pool/people"
)

// StatePending is a run submitted by a user that waits for an approver (PeopleConfig's
// ApproveRuns): it is kept, and no worker plays it until it is approved.
const StatePending = "pending"

// DefaultMaxActive is how many runs a user may have in the pool at once (pending, active or
// paused), unless the server says otherwise.
const DefaultMaxActive = 4

// PeopleConfig are the rules of a pool's persons (package pool/people). A pool with no
// accounts behaves as it did before it had people: whoever holds the submitter's credential
// submits and controls every run. Once accounts exist, a request over NATS may carry a
// person's token (arbiter submit -token-file), which names the person who submits or controls;
// RequireToken makes it required.
type PeopleConfig struct {
	// RequireToken refuses a submission or a control over NATS that names no person by a
	// token: the submitter's credential then carries requests but decides nothing.
	RequireToken bool
	// ApproveRuns makes a user's runs wait for an approver (approvers' and admins' runs start
	// at once; no one approves their own).
	ApproveRuns bool
	// MaxActive is how many runs a user may have in the pool at once (DefaultMaxActive if 0,
	// no limit if negative).
	MaxActive int
	// SecureCookies marks the session cookie Secure over plain HTTP too: for a dashboard
	// behind a proxy that speaks TLS to the browsers.
	SecureCookies bool
	// Options are the people's hashing, clock and limits on failed logins (nil: the
	// defaults; tests make hashing cheap and move the clock).
	Options *people.Options
}

// peopleState are the pool's persons, their browser sessions, and the lock of the runs'
// audit trails.
type peopleState struct {
	dir      *people.Directory
	sessions *people.Sessions
	auditMu  sync.Mutex // a trail is read, appended to and written back under it
}

// openPeople reads the accounts from the runs' bucket.
func (s *Server) openPeople(ctx context.Context) error {
	var opts people.Options
	if s.cfg.People.Options != nil {
		opts = *s.cfg.People.Options
	}
	dir, err := people.Open(ctx, s.kv, opts)
	if err != nil {
		return err
	}
	s.people = &peopleState{dir: dir, sessions: &people.Sessions{Now: opts.Now}}
	return nil
}

// People is the pool's directory of persons.
func (s *Server) People() *people.Directory { return s.people.dir }

// LimitError is a submission refused because its submitter has as many runs in the pool as
// a user may.
type LimitError struct {
	Person string
	Max    int
}

// Error names the user and the limit, and what to do.
func (e *LimitError) Error() string {
	return fmt.Sprintf("pool: %s has %d runs in the pool (pending, active or paused), as many as a user may: stop or wait for one first", e.Person, e.Max)
}

// admitPerson names a new run's submitter in its state, holds a user to the limit of runs,
// and makes a user's run wait for an approver when the server says so. Run commands hold
// s.ctl, so no other run is admitted meanwhile.
func (s *Server) admitPerson(r *run) error {
	name := r.sub.Person
	r.state.Submitter = name
	if name == "" {
		return nil
	}
	a, ok := s.people.dir.Get(name)
	if !ok || a.Status != people.Active {
		return fmt.Errorf("pool: %s may not submit: %w", name, people.ErrNoAccount)
	}
	if a.Role != people.User {
		return nil
	}
	if r.sub.Priority > 0 {
		return fmt.Errorf("%w: only an approver gives a run a priority above 0", ErrControl)
	}
	limit := s.cfg.People.MaxActive
	if limit == 0 {
		limit = DefaultMaxActive
	}
	if limit > 0 {
		n := 0
		s.mu.Lock()
		for _, other := range s.runs {
			if other.state.Submitter == name && !other.state.Over() {
				n++
			}
		}
		s.mu.Unlock()
		if n >= limit {
			return &LimitError{Person: name, Max: limit}
		}
	}
	if s.cfg.People.ApproveRuns {
		r.state.State, r.state.Reason = StatePending, "waits for an approver"
	}
	return nil
}

// admitted writes a new run's first line of audit.
func (s *Server) admitted(r *run, what string) {
	s.audit(r.state.ID, r.sub.Person, "submitted", what)
	s.catalogRun(r)
	if r.state.State == StatePending {
		s.audit(r.state.ID, auditServer, "held", "waits for an approver")
	}
}

// auditServer is the server's own name in audit trails: no person's name has parentheses.
const auditServer = "(server)"

// AuditEntry is one line of a run's audit trail: who did what to it, and when.
type AuditEntry struct {
	Time time.Time `json:"time"`
	// Person is who did it: "" for the submitter's credential with no token, auditServer for
	// the server itself.
	Person string `json:"person,omitempty"`
	Action string `json:"action"` // submitted, approved, paused, resumed, stopped, deleted, reprioritized, excluded
	Detail string `json:"detail,omitempty"`
}

// auditKey is the bucket's key of a run's audit trail, beside its state and submission.
func auditKey(id string) string { return "audit." + id }

// audit appends a line to a run's audit trail in the bucket.
func (s *Server) audit(id, person, action, detail string) {
	s.people.auditMu.Lock()
	defer s.people.auditMu.Unlock()
	trail, err := s.readAudit(id)
	if err != nil {
		s.printf("Run %s: its audit trail: %v\n", id, err)
	}
	trail = append(trail, AuditEntry{Time: time.Now().UTC(), Person: person, Action: action, Detail: detail})
	if err := s.put(auditKey(id), trail); err != nil {
		s.printf("Run %s: its audit trail: %v\n", id, err)
	}
}

// Audit is a run's audit trail, oldest first.
func (s *Server) Audit(id string) ([]AuditEntry, error) {
	s.people.auditMu.Lock()
	defer s.people.auditMu.Unlock()
	return s.readAudit(id)
}

func (s *Server) readAudit(id string) ([]AuditEntry, error) {
	var trail []AuditEntry
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	err := s.get(ctx, auditKey(id), &trail)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil
	}
	return trail, err
}

// ErrControl is a person asking for what their role does not allow on a run.
var ErrControl = errors.New("pool: not allowed")

// mayControl says whether a person may do c to a run: an approver or an admin may do
// anything but approve their own runs; a user may control their own runs only, never
// approve, never take a worker's games out, and never raise a run's priority.
func mayControl(a people.Account, st RunState, c Control) error {
	own := st.Submitter != "" && st.Submitter == a.Name
	switch {
	case a.Status != people.Active:
		return fmt.Errorf("%w: %s's account is %s", ErrControl, a.Name, a.Status)
	case c.Action == "approve" && !a.Role.AtLeast(people.Approver):
		return fmt.Errorf("%w: only an approver approves a run", ErrControl)
	case c.Action == "approve" && own:
		return fmt.Errorf("%w: no one approves their own run", ErrControl)
	case c.Action == "exclude" && !a.Role.AtLeast(people.Approver):
		return fmt.Errorf("%w: only an approver takes a worker's games out of a run", ErrControl)
	case a.Role.AtLeast(people.Approver):
		return nil
	case !own:
		return fmt.Errorf("%w: run %s is not %s's (a user controls their own runs only)", ErrControl, st.ID, a.Name)
	case c.Action == "priority" && c.Priority > st.Priority:
		return fmt.Errorf("%w: only an approver raises a run's priority", ErrControl)
	}
	return nil
}

// ControlAs does what Control does, on behalf of a person (nil: the submitter's credential
// with no token, which may do anything, as before the pool had people), and writes it in the
// run's audit trail. "approve" starts a run that waits for an approver.
func (s *Server) ControlAs(who *people.Account, c Control) (*RunState, error) {
	st, ok := s.lookup(c.ID)
	if !ok {
		return nil, fmt.Errorf("pool: no run %s", c.ID)
	}
	name := ""
	if who != nil {
		if err := mayControl(*who, st, c); err != nil {
			return nil, err
		}
		name = who.Name
	}
	var after *RunState
	var err error
	if c.Action == "approve" {
		after, err = s.approve(c.ID)
	} else {
		after, err = s.controlBy(c, name)
	}
	if err != nil {
		return nil, err
	}
	detail := ""
	if c.Action == "priority" {
		detail = fmt.Sprintf("priority %d (was %d)", c.Priority, st.Priority)
		if c.Share > 0 {
			detail += fmt.Sprintf(", share %g (was %g)", c.Share, st.Share)
		}
	}
	if c.Action == "exclude" {
		detail = exclusionText(after.Excluded[len(after.Excluded)-1])
	}
	s.audit(c.ID, name, pastTense[c.Action], detail)
	return after, nil
}

// pastTense names the audit trail's actions.
var pastTense = map[string]string{"approve": "approved", "pause": "paused", "resume": "resumed", "stop": "stopped",
	"delete": "deleted", "priority": "reprioritized", "exclude": "excluded"}

// approve starts a run that waits for an approver.
func (s *Server) approve(id string) (*RunState, error) {
	s.ctl.Lock()
	defer s.ctl.Unlock()
	s.mu.Lock()
	r := s.runs[id]
	s.mu.Unlock()
	if r == nil {
		return nil, fmt.Errorf("pool: no run %s", id)
	}
	if st := s.runState(id); st.State != StatePending {
		return nil, fmt.Errorf("pool: run %s is %s, not waiting for approval", id, st.State)
	}
	if err := s.startRun(r); err != nil {
		s.ended(r, StateFailed, err.Error(), nil)
		return nil, err
	}
	s.saveState(r)
	st := s.runState(id)
	return &st, nil
}

// tokenPerson is the person a request's token names: nil with no token, unless the server
// requires one.
func (s *Server) tokenPerson(token string) (*people.Account, error) {
	if token == "" {
		if s.cfg.People.RequireToken {
			return nil, errors.New("pool: this server wants a person's token with each submission and control (arbiter submit -token-file FILE, made on the dashboard's account page)")
		}
		return nil, nil
	}
	a, err := s.people.dir.ByToken(token)
	if err != nil {
		return nil, fmt.Errorf("pool: %w", err)
	}
	return &a, nil
}

// onSubmitAs checks a submission's token and hands it on to onSubmit naming its person, and
// without the token, which is not kept. The submission is read into its type and written
// again, so that a person the request names itself, in any spelling encoding/json would take
// for "person", is not believed: only a token names one.
func (s *Server) onSubmitAs(m *nats.Msg) {
	var sub Submission
	if err := json.Unmarshal(m.Data, &sub); err != nil {
		respondError(m, fmt.Errorf("pool: unreadable submission: %w", err))
		return
	}
	who, err := s.tokenPerson(sub.Token)
	if err != nil {
		respondError(m, err)
		return
	}
	sub.Token, sub.Person = "", ""
	if who != nil {
		sub.Person = who.Name
	}
	data, err := json.Marshal(&sub)
	if err != nil {
		respondError(m, err)
		return
	}
	m.Data = data
	s.onSubmit(m)
}

// onControlAs is onControl for the person a control's token names.
func (s *Server) onControlAs(m *nats.Msg) {
	var c Control
	if err := json.Unmarshal(m.Data, &c); err != nil {
		respondError(m, fmt.Errorf("pool: unreadable request: %w", err))
		return
	}
	who, err := s.tokenPerson(c.Token)
	if err != nil {
		respondError(m, err)
		return
	}
	c.Token = ""
	// A pause or a stop waits for the coordinator: not in the subscription's goroutine.
	s.runWG.Go(func() {
		st, err := s.ControlAs(who, c)
		if err != nil {
			respondError(m, err)
			return
		}
		respond(m, Reply{Run: st})
	})
}

// subjectPeople is the admin's subject for the pool's persons.
const subjectPeople = "arbiterpool.people"

// PeopleRequest is an admin's word on the pool's persons (arbiter server user ...).
type PeopleRequest struct {
	Op       string `json:"op"` // add, list, accept, block, role, token
	Name     string `json:"name,omitempty"`
	Role     string `json:"role,omitempty"`
	Password string `json:"password,omitempty"` // for add
}

// ParsePeople reads the words of "server user": "add NAME" (a person of role, with a random
// password to hand them), "list", "accept NAME", "block NAME", "token NAME" or "role NAME ROLE".
func ParsePeople(words []string, role string) (PeopleRequest, error) {
	if len(words) == 0 {
		return PeopleRequest{}, errors.New("want: server user add|list|accept|block|role|token ...")
	}
	req := PeopleRequest{Op: words[0]}
	switch {
	case words[0] == "list" && len(words) == 1:
	case words[0] == "add" && len(words) == 2:
		raw := make([]byte, 15)
		if _, err := rand.Read(raw); err != nil {
			return req, err
		}
		req.Name, req.Role, req.Password = words[1], role, base64.RawURLEncoding.EncodeToString(raw)
	case (words[0] == "accept" || words[0] == "block" || words[0] == "token") && len(words) == 2:
		req.Name = words[1]
	case words[0] == "role" && len(words) == 3:
		req.Name, req.Role = words[1], words[2]
	default:
		return req, fmt.Errorf("want: server user add NAME [-role ROLE], list, accept NAME, block NAME, token NAME or role NAME ROLE (not %q)", words)
	}
	return req, nil
}

// PeopleReply answers a PeopleRequest.
type PeopleReply struct {
	Error  string   `json:"error,omitempty"`
	People []Person `json:"people,omitempty"`
	// Token is a token made for the person (op token): shown once.
	Token string `json:"token,omitempty"`
}

// Person is an account as the admin's listing shows it: no password hash, no tokens' hashes.
type Person struct {
	Name       string    `json:"name"`
	Role       string    `json:"role"`
	Status     string    `json:"status"`
	Tokens     int       `json:"tokens"`
	Created    time.Time `json:"created"`
	ApprovedBy string    `json:"approved_by,omitempty"`
}

func personOf(a people.Account) Person {
	return Person{Name: a.Name, Role: string(a.Role), Status: string(a.Status), Tokens: len(a.Tokens), Created: a.Created, ApprovedBy: a.ApprovedBy}
}

// serverAdmin is the account the admin's credential acts as on the pool's persons.
var serverAdmin = people.Account{Name: "(admin credential)", Role: people.Admin, Status: people.Active}

// PeopleRequest answers an admin's request on the pool's persons.
func (s *Server) PeopleRequest(ctx context.Context, req PeopleRequest) (*PeopleReply, error) {
	dir := s.people.dir
	var err error
	switch req.Op {
	case "list":
	case "add":
		role := people.User
		if req.Role != "" {
			if role, err = people.ParseRole(req.Role); err != nil {
				return nil, err
			}
		}
		_, err = dir.Add(ctx, req.Name, req.Password, role, serverAdmin.Name)
	case "accept", "block":
		_, err = dir.Decide(ctx, serverAdmin, req.Name, req.Op == "accept")
		if req.Op == "block" {
			s.people.sessions.EndAll(req.Name)
		}
	case "role":
		var role people.Role
		if role, err = people.ParseRole(req.Role); err == nil {
			_, err = dir.SetRole(ctx, serverAdmin, req.Name, role)
		}
	case "token":
		var token string
		if token, err = dir.NewToken(ctx, req.Name); err == nil {
			return &PeopleReply{Token: token}, nil
		}
	default:
		err = fmt.Errorf("pool: unknown people request %q (add, list, accept, block, role, token)", req.Op)
	}
	if err != nil {
		return nil, err
	}
	var out PeopleReply
	for _, a := range dir.List() {
		if req.Op == "list" || a.Name == req.Name {
			out.People = append(out.People, personOf(a))
		}
	}
	return &out, nil
}

func (s *Server) onPeople(m *nats.Msg) {
	var req PeopleRequest
	if err := json.Unmarshal(m.Data, &req); err != nil {
		respond(m, PeopleReply{Error: fmt.Sprintf("pool: unreadable request: %v", err)})
		return
	}
	ctx, cancel := context.WithTimeout(s.hctx, 30*time.Second)
	defer cancel()
	out, err := s.PeopleRequest(ctx, req)
	if err != nil {
		respond(m, PeopleReply{Error: err.Error()})
		return
	}
	respond(m, out)
}

// People asks the server about its persons, or changes them (admin).
func (c *Client) People(ctx context.Context, req PeopleRequest) (*PeopleReply, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	m, err := c.nc.RequestWithContext(rctx, subjectPeople, b)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) {
			return nil, fmt.Errorf("pool: no pool server answers at %s (or these credentials may not ask that: the admin's may)", c.creds.URL)
		}
		return nil, fmt.Errorf("pool: %w", err)
	}
	var out PeopleReply
	if err := json.Unmarshal(m.Data, &out); err != nil {
		return nil, fmt.Errorf("pool: unreadable reply: %w", err)
	}
	if out.Error != "" {
		return nil, errors.New(out.Error)
	}
	return &out, nil
}

// subjectAudit is the submitters' subject for a run's audit trail (arbiter server runs audit).
const subjectAudit = "arbiterpool.runs.audit"

// AuditRequest asks for a run's audit trail.
type AuditRequest struct {
	ID string `json:"id"`
}

// AuditReply answers an AuditRequest.
type AuditReply struct {
	Error string       `json:"error,omitempty"`
	Trail []AuditEntry `json:"trail,omitempty"`
}

func (s *Server) onAudit(m *nats.Msg) {
	var req AuditRequest
	if err := json.Unmarshal(m.Data, &req); err != nil {
		respond(m, AuditReply{Error: fmt.Sprintf("pool: unreadable request: %v", err)})
		return
	}
	trail, err := s.Audit(req.ID)
	if err != nil {
		respond(m, AuditReply{Error: err.Error()})
		return
	}
	// A deleted run keeps its trail (who deleted it), asked for by its id as well.
	if _, ok := s.lookup(req.ID); !ok && len(trail) == 0 {
		respond(m, AuditReply{Error: fmt.Sprintf("pool: no run %s", req.ID)})
		return
	}
	respond(m, AuditReply{Trail: trail})
}

// Audit asks the server for a run's audit trail.
func (c *Client) Audit(ctx context.Context, id string) ([]AuditEntry, error) {
	b, err := json.Marshal(AuditRequest{ID: id})
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	m, err := c.nc.RequestWithContext(rctx, subjectAudit, b)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) {
			return nil, fmt.Errorf("pool: no pool server answers at %s (or these credentials may not ask that)", c.creds.URL)
		}
		return nil, fmt.Errorf("pool: %w", err)
	}
	var out AuditReply
	if err := json.Unmarshal(m.Data, &out); err != nil {
		return nil, fmt.Errorf("pool: unreadable reply: %w", err)
	}
	if out.Error != "" {
		return nil, errors.New(out.Error)
	}
	return out.Trail, nil
}

// WriteAudit writes a run's audit trail as "arbiter server runs audit" prints it.
func WriteAudit(w io.Writer, trail []AuditEntry) error {
	rows := [][]string{{"WHEN", "WHO", "WHAT", ""}}
	for _, e := range trail {
		who := e.Person
		if who == "" {
			who = "(the submitter's credential)"
		}
		rows = append(rows, []string{e.Time.UTC().Format("2006-01-02 15:04:05"), who, e.Action, e.Detail})
	}
	return writeColumns(w, rows)
}

// WritePeople writes the pool's persons as "arbiter server user list" prints them.
func WritePeople(w io.Writer, list []Person) error {
	rows := [][]string{{"NAME", "ROLE", "STATUS", "TOKENS", "SINCE", "ACCEPTED BY"}}
	for _, p := range list {
		rows = append(rows, []string{p.Name, p.Role, p.Status, strconv.Itoa(p.Tokens), p.Created.UTC().Format("2006-01-02"), p.ApprovedBy})
	}
	return writeColumns(w, rows)
}

// writeColumns writes rows in columns two spaces apart, with no space at the ends of lines.
func writeColumns(w io.Writer, rows [][]string) error {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, row := range rows {
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for line := range strings.Lines(b.String()) {
		if _, err := fmt.Fprintln(w, strings.TrimRight(line, " \n")); err != nil {
			return err
		}
	}
	return nil
}
