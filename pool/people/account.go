package people

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Role is what a person may do; roles rank user < approver < admin.
type Role string

// The roles.
const (
	User     Role = "user"     // submits runs, and controls its own
	Approver Role = "approver" // approves accounts and runs, and controls any run
	Admin    Role = "admin"    // sets roles too
)

func (r Role) rank() int {
	switch r {
	case User:
		return 1
	case Approver:
		return 2
	case Admin:
		return 3
	}
	return 0
}

// AtLeast reports whether r ranks at least as high as o.
func (r Role) AtLeast(o Role) bool { return r.rank() >= o.rank() && r.rank() > 0 }

// ParseRole reads a role's name.
func ParseRole(s string) (Role, error) {
	if r := Role(s); r.rank() > 0 {
		return r, nil
	}
	return "", fmt.Errorf("people: role %q: want user, approver or admin", s)
}

// Status is where an account stands.
type Status string

// The statuses of an account.
const (
	Pending Status = "pending" // registered, waiting for an approver
	Active  Status = "active"
	Blocked Status = "blocked" // rejected or shut out by an approver
)

// Account is one person of the pool.
type Account struct {
	Name     string    `json:"name"`
	Role     Role      `json:"role"`
	Status   Status    `json:"status"`
	Password string    `json:"password"` // argon2id, PHC string
	Tokens   []Token   `json:"tokens,omitempty"`
	Created  time.Time `json:"created"`
	// ApprovedBy is who accepted the account (or added it).
	ApprovedBy string    `json:"approved_by,omitempty"`
	Approved   time.Time `json:"approved,omitzero"`
}

// Token is a person's token for the command line, as the server keeps it: its hash only.
type Token struct {
	ID      string    `json:"id"`     // the first characters of the token, to tell tokens apart
	SHA256  string    `json:"sha256"` // of the whole token, hex
	Created time.Time `json:"created"`
}

// The errors of accounts.
var (
	ErrName      = errors.New("people: a name is 1 to 32 letters, digits, '-' or '_'")
	ErrTaken     = errors.New("people: that name is taken")
	ErrNoAccount = errors.New("people: no such account")
	// ErrBadLogin is a wrong name or password: the same for both, so that names cannot be
	// probed.
	ErrBadLogin   = errors.New("people: wrong name or password")
	ErrPending    = errors.New("people: the account waits for an approver")
	ErrBlocked    = errors.New("people: the account is blocked")
	ErrBadToken   = errors.New("people: the token is not one the server gave (or it was revoked)")
	ErrNotAllowed = errors.New("people: not allowed for this role")
)

// LockedError is a login refused, without its password looked at, while its account or its
// client address is locked out after failed logins.
type LockedError struct{ Until time.Time }

// Error says until when the logins are locked out, in UTC.
func (e *LockedError) Error() string {
	return "people: too many failed logins: try again after " + e.Until.UTC().Format(time.RFC3339)
}

var namePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// keyPrefix is the prefix of the accounts' keys in the bucket.
const keyPrefix = "person."

// Options tune a Directory; the zero Options are the defaults.
type Options struct {
	Hashing Hashing // DefaultHashing if zero
	// PerAccount and PerAddress limit failed logins (defaults: 5 and 20 free failures, a
	// lockout from a minute doubling up to an hour).
	PerAccount, PerAddress *Throttle
	// Now is the clock (time.Now if nil).
	Now func() time.Time
}

// Directory is the pool's accounts, read from the bucket at its start and written through.
type Directory struct {
	kv         jetstream.KeyValue
	hashing    Hashing
	perAccount *Throttle
	perAddress *Throttle
	now        func() time.Time
	dummy      string // a hash checked for unknown names, so that they cost what a known one does

	mu       sync.Mutex
	accounts map[string]*Account
	tokens   map[string]string // token SHA-256 -> account name
}

// Open reads the accounts from kv.
func Open(ctx context.Context, kv jetstream.KeyValue, opts Options) (*Directory, error) {
	d := &Directory{kv: kv, hashing: opts.Hashing, perAccount: opts.PerAccount, perAddress: opts.PerAddress, now: opts.Now,
		accounts: map[string]*Account{}, tokens: map[string]string{}}
	if d.hashing == (Hashing{}) {
		d.hashing = DefaultHashing
	}
	if d.now == nil {
		d.now = time.Now
	}
	if d.perAccount == nil {
		d.perAccount = &Throttle{Free: 5, Base: time.Minute, Max: time.Hour}
	}
	if d.perAddress == nil {
		d.perAddress = &Throttle{Free: 20, Base: time.Minute, Max: time.Hour}
	}
	for _, t := range []*Throttle{d.perAccount, d.perAddress} {
		if t.Now == nil {
			t.Now = d.now
		}
	}
	var err error
	if d.dummy, err = hashPassword("not anyone's password", d.hashing); err != nil {
		return nil, err
	}
	lister, err := kv.ListKeysFiltered(ctx, keyPrefix+">")
	if err != nil {
		return nil, fmt.Errorf("people: listing accounts: %w", err)
	}
	for key := range lister.Keys() {
		e, err := kv.Get(ctx, key)
		if err != nil {
			return nil, fmt.Errorf("people: reading %s: %w", key, err)
		}
		a := new(Account)
		if err := json.Unmarshal(e.Value(), a); err != nil {
			return nil, fmt.Errorf("people: reading %s: %w", key, err)
		}
		d.accounts[a.Name] = a
		for _, t := range a.Tokens {
			d.tokens[t.SHA256] = a.Name
		}
	}
	return d, nil
}

// save writes a to the bucket; d.mu is held.
func (d *Directory) save(ctx context.Context, a *Account) error {
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	if _, err := d.kv.Put(ctx, keyPrefix+a.Name, b); err != nil {
		return fmt.Errorf("people: writing %s: %w", a.Name, err)
	}
	return nil
}

// Empty reports whether there are no accounts: the pool then runs as it did before it had
// people (its submitter credential does everything).
func (d *Directory) Empty() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.accounts) == 0
}

// Get returns a copy of an account.
func (d *Directory) Get(name string) (Account, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.accounts[name]
	if a == nil {
		return Account{}, false
	}
	return *a, true
}

// List returns the accounts by name.
func (d *Directory) List() []Account {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Account, 0, len(d.accounts))
	for _, a := range d.accounts {
		out = append(out, *a)
	}
	slices.SortFunc(out, func(a, b Account) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func (d *Directory) newAccount(name, password string, role Role, status Status) (*Account, error) {
	if !namePattern.MatchString(name) {
		return nil, ErrName
	}
	if len(password) < MinPassword || len(password) > MaxPassword {
		return nil, ErrWeakPassword
	}
	hash, err := hashPassword(password, d.hashing)
	if err != nil {
		return nil, err
	}
	return &Account{Name: name, Role: role, Status: status, Password: hash, Created: d.now().UTC()}, nil
}

// Register makes a pending user account, which an approver accepts (Approve) before it may
// do anything.
func (d *Directory) Register(ctx context.Context, name, password string) (Account, error) {
	d.mu.Lock()
	pending := 0
	for _, a := range d.accounts {
		if a.Status == Pending {
			pending++
		}
	}
	d.mu.Unlock()
	if pending >= MaxPending {
		return Account{}, ErrQueueFull
	}
	return d.create(ctx, name, password, User, Pending, "")
}

// MaxPending bounds the accounts that wait for an approver: a script registering names by
// the thousand fills the queue, not the bucket.
const MaxPending = 100

// ErrQueueFull is a registration refused while MaxPending accounts wait for an approver.
var ErrQueueFull = errors.New("people: too many accounts wait for an approver: try again once they have been seen to")

// Add makes an active account of a role at once: the first admin, added on the server's
// machine, or a person added by an admin.
func (d *Directory) Add(ctx context.Context, name, password string, role Role, by string) (Account, error) {
	if role.rank() == 0 {
		return Account{}, fmt.Errorf("people: role %q: want user, approver or admin", role)
	}
	return d.create(ctx, name, password, role, Active, by)
}

func (d *Directory) create(ctx context.Context, name, password string, role Role, status Status, by string) (Account, error) {
	a, err := d.newAccount(name, password, role, status)
	if err != nil {
		return Account{}, err
	}
	if status == Active {
		a.ApprovedBy, a.Approved = by, a.Created
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.accounts[name] != nil {
		return Account{}, ErrTaken
	}
	if err := d.save(ctx, a); err != nil {
		return Account{}, err
	}
	d.accounts[name] = a
	return *a, nil
}

// Decide accepts (accept) or blocks a pending account; by must be an active approver or
// admin. Blocking an active account shuts it out too (its tokens no longer name it).
func (d *Directory) Decide(ctx context.Context, by Account, name string, accept bool) (Account, error) {
	if by.Status != Active || !by.Role.AtLeast(Approver) {
		return Account{}, ErrNotAllowed
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.accounts[name]
	if a == nil {
		return Account{}, ErrNoAccount
	}
	if a.Role.AtLeast(by.Role) && a.Name != by.Name && a.Status == Active && !accept {
		return Account{}, fmt.Errorf("%w: only an admin blocks an approver", ErrNotAllowed)
	}
	next := *a
	if accept {
		next.Status, next.ApprovedBy, next.Approved = Active, by.Name, d.now().UTC()
	} else {
		next.Status = Blocked
	}
	if err := d.save(ctx, &next); err != nil {
		return Account{}, err
	}
	*a = next
	return next, nil
}

// SetRole gives an account a role; by must be an admin.
func (d *Directory) SetRole(ctx context.Context, by Account, name string, role Role) (Account, error) {
	if by.Status != Active || by.Role != Admin {
		return Account{}, ErrNotAllowed
	}
	if role.rank() == 0 {
		return Account{}, fmt.Errorf("people: role %q: want user, approver or admin", role)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.accounts[name]
	if a == nil {
		return Account{}, ErrNoAccount
	}
	next := *a
	next.Role = role
	if err := d.save(ctx, &next); err != nil {
		return Account{}, err
	}
	*a = next
	return next, nil
}

// Login checks a person's name and password, from a client address. While the account or
// the address is locked out after failed logins, it is refused with a *LockedError and the
// password is not looked at. A pending or blocked account is refused after its password is
// right (ErrPending, ErrBlocked).
func (d *Directory) Login(name, password, addr string) (Account, error) {
	for _, lock := range []struct {
		t   *Throttle
		key string
	}{{d.perAccount, name}, {d.perAddress, addr}} {
		if until, locked := lock.t.Locked(lock.key); locked {
			return Account{}, &LockedError{Until: until}
		}
	}
	d.mu.Lock()
	a := d.accounts[name]
	stored := d.dummy
	var acc Account
	if a != nil {
		stored, acc = a.Password, *a
	}
	d.mu.Unlock()
	ok := false
	if len(password) <= MaxPassword {
		ok, _ = checkPassword(password, stored)
	}
	if !ok || a == nil {
		d.perAccount.Fail(name)
		d.perAddress.Fail(addr)
		return Account{}, ErrBadLogin
	}
	d.perAccount.Succeed(name)
	d.perAddress.Succeed(addr)
	switch acc.Status {
	case Pending:
		return Account{}, ErrPending
	case Blocked:
		return Account{}, ErrBlocked
	}
	return acc, nil
}

// ChangePassword sets a new password after checking the old one (as a login does, with its
// limits).
func (d *Directory) ChangePassword(ctx context.Context, name, old, password, addr string) error {
	if _, err := d.Login(name, old, addr); err != nil {
		return err
	}
	if len(password) < MinPassword || len(password) > MaxPassword {
		return ErrWeakPassword
	}
	hash, err := hashPassword(password, d.hashing)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.accounts[name]
	if a == nil {
		return ErrNoAccount
	}
	next := *a
	next.Password = hash
	if err := d.save(ctx, &next); err != nil {
		return err
	}
	*a = next
	return nil
}

// tokenPrefix marks a pool token, so that one pasted in the wrong place is recognised.
const tokenPrefix = "hapt_"

// NewToken makes a token for an active account's command line and returns it: it is shown
// once, and the server keeps only its hash.
func (d *Directory) NewToken(ctx context.Context, name string) (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	token := tokenPrefix + base64.RawURLEncoding.EncodeToString(raw)
	sum := tokenHash(token)
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.accounts[name]
	if a == nil {
		return "", ErrNoAccount
	}
	if a.Status != Active {
		return "", ErrPending
	}
	next := *a
	next.Tokens = append(slices.Clone(a.Tokens), Token{ID: token[:len(tokenPrefix)+6], SHA256: sum, Created: d.now().UTC()})
	if err := d.save(ctx, &next); err != nil {
		return "", err
	}
	*a = next
	d.tokens[sum] = name
	return token, nil
}

// RevokeToken forgets one of an account's tokens, by its ID.
func (d *Directory) RevokeToken(ctx context.Context, name, id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.accounts[name]
	if a == nil {
		return ErrNoAccount
	}
	next := *a
	next.Tokens = slices.DeleteFunc(slices.Clone(a.Tokens), func(t Token) bool { return t.ID == id })
	if len(next.Tokens) == len(a.Tokens) {
		return fmt.Errorf("people: %s has no token %s", name, id)
	}
	if err := d.save(ctx, &next); err != nil {
		return err
	}
	for _, t := range a.Tokens {
		if t.ID == id {
			delete(d.tokens, t.SHA256)
		}
	}
	*a = next
	return nil
}

// ByToken returns the active account whose token this is.
func (d *Directory) ByToken(token string) (Account, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.accounts[d.tokens[tokenHash(token)]]
	if a == nil || token == "" {
		return Account{}, ErrBadToken
	}
	switch a.Status {
	case Pending:
		return Account{}, ErrPending
	case Blocked:
		return Account{}, ErrBlocked
	}
	return *a, nil
}

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
