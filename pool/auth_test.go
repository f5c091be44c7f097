package pool

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
)

// connecting is a client in the middle of its CONNECT, as the NATS server shows it to an
// authenticator.
type connecting struct {
	opts  server.ClientOpts
	nonce []byte
	user  *server.User // what the authenticator registered
}

func (c *connecting) GetOpts() *server.ClientOpts                 { return &c.opts }
func (c *connecting) GetTLSConnectionState() *tls.ConnectionState { return nil }
func (c *connecting) RegisterUser(u *server.User)                 { c.user = u }
func (c *connecting) RemoteAddress() net.Addr                     { return &net.TCPAddr{} }
func (c *connecting) GetNonce() []byte                            { return c.nonce }
func (c *connecting) Kind() int                                   { return server.CLIENT }
func (c *connecting) GetID() uint64                               { return 1 }
func (c *connecting) signedBy(t *testing.T, kp nkeys.KeyPair, nonce []byte) *connecting {
	t.Helper()
	pub, err := kp.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	sig, err := kp.Sign(nonce)
	if err != nil {
		t.Fatal(err)
	}
	c.opts.Nkey, c.opts.Sig = pub, base64.RawURLEncoding.EncodeToString(sig)
	return c
}

// The embedded NATS server lets in the pool server's own connection by its password and each
// user of the identities by its key's signature of the nonce, with its role's permissions;
// nothing else: a wrong password, an unknown or revoked key, a signature of another nonce or by
// another key.
func TestClientAuth(t *testing.T) {
	t.Parallel()
	key := func() nkeys.KeyPair {
		kp, err := nkeys.CreateUser()
		if err != nil {
			t.Fatal(err)
		}
		return kp
	}
	alice, bob, mallory := key(), key(), key()
	pub := func(kp nkeys.KeyPair) string { p, _ := kp.PublicKey(); return p }
	ids := &identities{Users: map[string]*Identity{
		"alice": {Role: RoleWorker, NKey: pub(alice)},
		"bob":   {Role: RoleWorker, NKey: pub(bob), Revoked: time.Now()},
	}}
	auth := newClientAuth("secret", ids)
	nonce := []byte("the server's nonce")
	tests := []struct {
		name string
		c    *connecting
		user string // "" when refused
	}{
		{"the server", &connecting{opts: server.ClientOpts{Username: serverUser, Password: "secret"}}, serverUser},
		{"the server's name, a wrong password", &connecting{opts: server.ClientOpts{Username: serverUser, Password: "guess"}}, ""},
		{"no credentials", &connecting{}, ""},
		{"a worker", (&connecting{nonce: nonce}).signedBy(t, alice, nonce), "alice"},
		{"a worker's key, another nonce signed", (&connecting{nonce: nonce}).signedBy(t, alice, []byte("an old nonce")), ""},
		{"a worker's key, no signature", &connecting{nonce: nonce, opts: server.ClientOpts{Nkey: pub(alice)}}, ""},
		{"a worker's key, signed by another", func() *connecting {
			c := (&connecting{nonce: nonce}).signedBy(t, mallory, nonce)
			c.opts.Nkey = pub(alice)
			return c
		}(), ""},
		{"a revoked worker", (&connecting{nonce: nonce}).signedBy(t, bob, nonce), ""},
		{"an unknown key", (&connecting{nonce: nonce}).signedBy(t, mallory, nonce), ""},
		{"the server's password with a key", func() *connecting {
			c := (&connecting{nonce: nonce}).signedBy(t, mallory, nonce)
			c.opts.Username, c.opts.Password = serverUser, "secret"
			return c
		}(), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok := auth.Check(tt.c)
			switch {
			case ok != (tt.user != ""):
				t.Fatalf("Check = %v, want %v", ok, tt.user != "")
			case !ok && tt.c.user != nil:
				t.Errorf("a refused client was registered as %+v", tt.c.user)
			case ok && (tt.c.user == nil || tt.c.user.Username != tt.user):
				t.Errorf("registered as %+v, want %s", tt.c.user, tt.user)
			case tt.user == "alice" && tt.c.user.Permissions == nil:
				t.Error("a worker registered without its permissions")
			case tt.user == serverUser && tt.c.user.Permissions != nil:
				t.Error("the server's own connection registered with permissions")
			}
		})
	}
	// A worker added later is let in; one revoked since is not.
	ids.Users["mallory"] = &Identity{Role: RoleWorker, NKey: pub(mallory)}
	ids.Users["alice"].Revoked = time.Now()
	auth.set(ids)
	if !auth.Check((&connecting{nonce: nonce}).signedBy(t, mallory, nonce)) {
		t.Error("a worker added later is refused")
	}
	if auth.Check((&connecting{nonce: nonce}).signedBy(t, alice, nonce)) {
		t.Error("a worker revoked later is let in")
	}
}

// Workers added while JetStream traffic flows: the server let users in by reloading the NATS
// server's options, which wrote the accounts' service imports while the connections read them
// (the race detector found it in CI now and then, nats-server issue 8499). Under -race this
// fails if a reload comes back.
func TestWorkersAddedDuringJetStreamTraffic(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if _, err := p.srv.js.AccountInfo(ctx); err != nil && ctx.Err() == nil {
					t.Errorf("JetStream during the adds: %v", err)
					return
				}
			}
		}()
	}
	for i := range 20 {
		p.addWorker(fmt.Sprintf("w%d", i))
	}
	cancel()
	wg.Wait()
}
