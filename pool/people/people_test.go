package people

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/internal/testkit/natstest"
)

// cheap is a hashing cost for tests: the same argon2id, at a fraction of the memory.
var cheap = Hashing{Memory: 64, Time: 1, Threads: 1}

// clock is a test's clock, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// bucket is a key-value bucket of a real NATS server, as the pool's.
func bucket(t *testing.T) jetstream.KeyValue {
	t.Helper()
	ns := natstest.Start(t, &server.Options{JetStream: true, StoreDir: t.TempDir()})
	nc, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.CreateKeyValue(context.Background(), jetstream.KeyValueConfig{Bucket: "PEOPLE_TEST"})
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

func open(t *testing.T, kv jetstream.KeyValue, c *clock) *Directory {
	t.Helper()
	d, err := Open(context.Background(), kv, Options{Hashing: cheap, Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestPasswordHash(t *testing.T) {
	stored, err := hashPassword("correct horse battery", cheap)
	if err != nil {
		t.Fatal(err)
	}
	again, err := hashPassword("correct horse battery", cheap)
	if err != nil {
		t.Fatal(err)
	}
	if stored == again {
		t.Error("two hashes of one password are equal: the salt is not fresh")
	}
	if !strings.HasPrefix(stored, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Errorf("stored %q, want argon2id's PHC string with its cost", stored)
	}
	for _, tc := range []struct {
		password, stored string
		ok               bool
		err              error
	}{
		{"correct horse battery", stored, true, nil},
		{"correct horse batterz", stored, false, nil},
		{"", stored, false, nil},
		{"correct horse battery", "$2a$10$bcryptlooking", false, errHashFormat},
		{"correct horse battery", strings.Replace(stored, "v=19", "v=16", 1), false, errHashFormat},
		{"correct horse battery", strings.Replace(stored, "t=1", "t=0", 1), false, errHashFormat},
	} {
		ok, err := checkPassword(tc.password, tc.stored)
		if ok != tc.ok || !errors.Is(err, tc.err) {
			t.Errorf("checkPassword(%q, %q) = %v, %v; want %v, %v", tc.password, tc.stored, ok, err, tc.ok, tc.err)
		}
	}
}

func FuzzCheckPassword(f *testing.F) {
	stored, _ := hashPassword("a password!", cheap)
	f.Add("a password!", stored)
	f.Add("x", "$argon2id$v=19$m=1,t=1,p=1$$")
	f.Add("x", "$argon2id$v=19$m=64,t=1,p=1$AAAA$AAAA")
	f.Fuzz(func(t *testing.T, password, stored string) {
		// Refuse absurd costs before hashing: the fuzzer must not ask for gigabytes.
		if strings.Contains(stored, "m=") && !strings.Contains(stored, "m=64,") {
			return
		}
		ok, err := checkPassword(password, stored)
		if ok && err != nil {
			t.Fatalf("checkPassword(%q, %q) = true with error %v", password, stored, err)
		}
	})
}

func TestThrottle(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	th := &Throttle{Free: 3, Base: time.Minute, Max: 4 * time.Minute, Now: c.Now}
	for _, tc := range []struct {
		fail   bool
		locked time.Duration // how long the key is locked for after this step, 0 if not
	}{
		{true, 0}, {true, 0}, {true, time.Minute}, {true, 2 * time.Minute}, {true, 4 * time.Minute}, {true, 4 * time.Minute},
	} {
		th.Fail("alice")
		until, locked := th.Locked("alice")
		if (tc.locked > 0) != locked || locked && until.Sub(c.Now()) != tc.locked {
			t.Fatalf("after a failure: locked %v until %v (in %v), want locked for %v", locked, until, until.Sub(c.Now()), tc.locked)
		}
	}
	if _, locked := th.Locked("bob"); locked {
		t.Error("bob is locked by alice's failures")
	}
	c.Add(4 * time.Minute)
	if _, locked := th.Locked("alice"); locked {
		t.Error("alice is still locked after her lockout")
	}
	th.Succeed("alice")
	th.Fail("alice")
	if _, locked := th.Locked("alice"); locked {
		t.Error("a success did not forget alice's failures")
	}
}

// TestRegistrationAndRoles: a registered person waits for an approver; a user may not accept
// anyone; an approver accepts; only an admin sets roles; the accounts and tokens are kept in
// the bucket across a new Directory (a restarted server).
func TestRegistrationAndRoles(t *testing.T) {
	ctx := context.Background()
	kv := bucket(t)
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	d := open(t, kv, c)
	if !d.Empty() {
		t.Fatal("a new directory is not empty")
	}
	admin, err := d.Add(ctx, "root", "the admin's password", Admin, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Register(ctx, "root", "another password"); !errors.Is(err, ErrTaken) {
		t.Errorf("a name taken registered again: %v, want ErrTaken", err)
	}
	for _, name := range []string{"", "a/b", "<script>", strings.Repeat("x", 33), "a b"} {
		if _, err := d.Register(ctx, name, "a good password"); !errors.Is(err, ErrName) {
			t.Errorf("registering %q: %v, want ErrName", name, err)
		}
	}
	if _, err := d.Register(ctx, "short", "tiny"); !errors.Is(err, ErrWeakPassword) {
		t.Errorf("a short password: %v, want ErrWeakPassword", err)
	}
	if _, err := d.Register(ctx, "ann", "ann's password"); err != nil {
		t.Fatal(err)
	}
	if err := d.ChangePassword(ctx, "root", "the admin's password", "short", "10.0.0.1"); !errors.Is(err, ErrWeakPassword) {
		t.Errorf("a new password too short: %v, want ErrWeakPassword", err)
	}
	if _, err := d.Register(ctx, "bob", "bob's password"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Login("ann", "ann's password", "10.0.0.1"); !errors.Is(err, ErrPending) {
		t.Errorf("a pending person logging in: %v, want ErrPending", err)
	}
	if _, err := d.Login("ann", "not ann's password", "10.0.0.1"); !errors.Is(err, ErrBadLogin) {
		t.Errorf("a wrong password: %v, want ErrBadLogin", err)
	}
	if _, err := d.Login("nobody", "ann's password", "10.0.0.1"); !errors.Is(err, ErrBadLogin) {
		t.Errorf("an unknown name: %v, want ErrBadLogin (the same as a wrong password)", err)
	}
	if _, err := d.Decide(ctx, admin, "ann", true); err != nil {
		t.Fatal(err)
	}
	ann, err := d.Login("ann", "ann's password", "10.0.0.1")
	if err != nil || ann.Role != User || ann.ApprovedBy != "root" {
		t.Fatalf("ann after her approval: %+v, %v", ann, err)
	}
	if _, err := d.Decide(ctx, ann, "bob", true); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("a user accepting bob: %v, want ErrNotAllowed", err)
	}
	if _, err := d.SetRole(ctx, ann, "ann", Admin); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("a user making herself admin: %v, want ErrNotAllowed", err)
	}
	approver, err := d.SetRole(ctx, admin, "ann", Approver)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.SetRole(ctx, approver, "bob", Admin); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("an approver setting a role: %v, want ErrNotAllowed", err)
	}
	if _, err := d.Decide(ctx, approver, "root", false); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("an approver blocking the admin: %v, want ErrNotAllowed", err)
	}
	if _, err := d.Decide(ctx, approver, "bob", false); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Login("bob", "bob's password", "10.0.0.2"); !errors.Is(err, ErrBlocked) {
		t.Errorf("a blocked person logging in: %v, want ErrBlocked", err)
	}
	if _, err := d.NewToken(ctx, "bob"); err == nil {
		t.Error("a blocked person was given a token")
	}
	token, err := d.NewToken(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	if a, err := d.ByToken(token); err != nil || a.Name != "ann" {
		t.Errorf("ann's token names %+v, %v", a, err)
	}
	for _, bad := range []string{"", token + "x", strings.ToUpper(token)} {
		if _, err := d.ByToken(bad); !errors.Is(err, ErrBadToken) {
			t.Errorf("token %q: %v, want ErrBadToken", bad, err)
		}
	}
	got, _ := d.Get("ann")
	if strings.Contains(got.Tokens[0].SHA256, token) || strings.Contains(got.Password, "ann's password") {
		t.Error("the account keeps a secret in clear")
	}

	// A server started again reads the same people.
	d2 := open(t, kv, c)
	if a, err := d2.ByToken(token); err != nil || a.Name != "ann" || a.Role != Approver {
		t.Errorf("ann's token after a restart: %+v, %v", a, err)
	}
	if _, err := d2.Login("ann", "ann's password", "10.0.0.1"); err != nil {
		t.Errorf("ann's login after a restart: %v", err)
	}
	if len(d2.List()) != 3 {
		t.Errorf("%d accounts after a restart, want 3", len(d2.List()))
	}
	if err := d2.RevokeToken(ctx, "ann", got.Tokens[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := d2.ByToken(token); !errors.Is(err, ErrBadToken) {
		t.Errorf("a revoked token: %v, want ErrBadToken", err)
	}
}

// TestThousandWrongPasswords: a thousand wrong passwords for one account lock it out after a
// few, each refused from then on without its password hashed (so quickly); the right password
// is refused too until the lockout ends, and taken after. Guesses spread over many names from
// one address lock the address out.
func TestThousandWrongPasswords(t *testing.T) {
	ctx := context.Background()
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	d := open(t, bucket(t), c)
	if _, err := d.Add(ctx, "ann", "ann's password", User, ""); err != nil {
		t.Fatal(err)
	}
	var bad, locked int
	for i := range 1000 {
		_, err := d.Login("ann", "guess "+string(rune('a'+i%26)), "10.0.0.9")
		var le *LockedError
		switch {
		case errors.As(err, &le):
			locked++
		case errors.Is(err, ErrBadLogin):
			bad++
		default:
			t.Fatalf("guess %d: %v", i, err)
		}
	}
	if bad != 5 || locked != 995 {
		t.Errorf("%d passwords looked at and %d refused locked, want 5 and 995", bad, locked)
	}
	if _, err := d.Login("ann", "ann's password", "10.0.0.10"); !errors.As(err, new(*LockedError)) {
		t.Errorf("the right password during the lockout: %v, want a *LockedError", err)
	}
	c.Add(time.Hour)
	if _, err := d.Login("ann", "ann's password", "10.0.0.10"); err != nil {
		t.Errorf("the right password after the lockout: %v", err)
	}
	// One address guessing many names.
	for i := range 20 {
		d.Login("name"+string(rune('a'+i)), "a guess at it", "10.0.0.66")
	}
	if _, err := d.Login("ann", "ann's password", "10.0.0.66"); !errors.As(err, new(*LockedError)) {
		t.Errorf("an address that guessed 20 names: %v, want a *LockedError", err)
	}
	if _, err := d.Login("ann", "ann's password", "10.0.0.67"); err != nil {
		t.Errorf("ann from another address: %v", err)
	}
}

func TestSessions(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := &Sessions{Idle: time.Hour, Now: c.Now}
	a, err := s.Start("ann")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Start("ann")
	if a == b || len(a) < 40 {
		t.Fatalf("session IDs %q and %q: want distinct, long random IDs", a, b)
	}
	if name, ok := s.Lookup(a); !ok || name != "ann" {
		t.Errorf("Lookup = %q, %v", name, ok)
	}
	s.End(a)
	if _, ok := s.Lookup(a); ok {
		t.Error("an ended session is still known")
	}
	c.Add(59 * time.Minute)
	if _, ok := s.Lookup(b); !ok {
		t.Error("a session used within its idle time ended")
	}
	c.Add(61 * time.Minute)
	if _, ok := s.Lookup(b); ok {
		t.Error("a session idle for longer than Idle is still known")
	}
	x, _ := s.Start("bob")
	y, _ := s.Start("bob")
	s.EndAll("bob")
	if _, ok := s.Lookup(x); ok {
		t.Error("EndAll left a session")
	}
	if _, ok := s.Lookup(y); ok {
		t.Error("EndAll left a session")
	}
}

func TestLocalPath(t *testing.T) {
	for in, want := range map[string]string{
		"/runs/x/manage": "/runs/x/manage", "": "/", "//evil.example/": "/", "https://evil.example/": "/",
		"/\\evil.example": "/", "/a\r\nSet-Cookie: x": "/", "relative": "/",
	} {
		if got := localPath(in); got != want {
			t.Errorf("localPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzLocalPath(f *testing.F) {
	f.Add("/runs/x")
	f.Add("//x")
	f.Fuzz(func(t *testing.T, next string) {
		got := localPath(next)
		if !strings.HasPrefix(got, "/") || strings.HasPrefix(got, "//") || strings.ContainsAny(got, "\\\r\n") {
			t.Fatalf("localPath(%q) = %q: not a path of this site", next, got)
		}
	})
}

// TestRegistrationQueue: past MaxPending accounts waiting for an approver, registration is
// refused until they are seen to.
func TestRegistrationQueue(t *testing.T) {
	ctx := context.Background()
	d := open(t, bucket(t), &clock{now: time.Now()})
	admin, err := d.Add(ctx, "root", "the admin's password", Admin, "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range MaxPending {
		if _, err := d.Register(ctx, fmt.Sprintf("p%d", i), "a password of theirs"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Register(ctx, "onemore", "a password of theirs"); !errors.Is(err, ErrQueueFull) {
		t.Errorf("registration %d: %v, want ErrQueueFull", MaxPending+1, err)
	}
	if _, err := d.Decide(ctx, admin, "p0", false); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Register(ctx, "onemore", "a password of theirs"); err != nil {
		t.Errorf("a registration once one was seen to: %v", err)
	}
}

// BenchmarkPasswordHash is what a login costs the server at DefaultHashing (the claim of
// DefaultHashing's doc).
func BenchmarkPasswordHash(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := hashPassword("correct horse battery", DefaultHashing); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLockedLogin is what a guess costs the server once its account is locked out.
func BenchmarkLockedLogin(b *testing.B) {
	th := &Throttle{Free: 1, Base: time.Hour, Max: time.Hour}
	d := &Directory{hashing: cheap, perAccount: th, perAddress: &Throttle{Free: 1 << 30, Base: time.Hour, Max: time.Hour},
		now: time.Now, accounts: map[string]*Account{}, tokens: map[string]string{}}
	th.Fail("ann")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Login("ann", "a guess", "10.0.0.1"); err == nil {
			b.Fatal("a locked login passed")
		}
	}
}
