package pool

import (
	"crypto/subtle"
	"encoding/base64"
	"sync"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
)

// clientAuth lets clients into the embedded NATS server: the pool server's own connection by
// its password, every other user by the NKey the identities hold, its signature of the nonce
// checked as nats-server checks it, with its role's permissions. Users are added and removed
// here, under a lock, and not by reloading the server's options: nats-server v2.15 writes an
// account's service imports on a reload while the connections' read loops read them (a data
// race under -race whenever a worker was added while JetStream traffic flowed, nats-server
// issue 8499).
type clientAuth struct {
	password string // the pool server's own connection's (serverUser)
	mu       sync.RWMutex
	users    map[string]*server.User // by public key: the user's name and permissions
}

// serverUser is the name of the pool server's own connection.
const serverUser = "server"

// newClientAuth is the authenticator of the pool server's password and the identities' users.
func newClientAuth(password string, ids *identities) *clientAuth {
	a := &clientAuth{password: password}
	a.set(ids)
	return a
}

// set makes the identities' users (less the revoked) the users let in from now on.
func (a *clientAuth) set(ids *identities) {
	users := map[string]*server.User{}
	for name, u := range ids.Users {
		if u.Revoked.IsZero() {
			users[u.NKey] = &server.User{Username: name, Permissions: permissions(u.Role, name)}
		}
	}
	a.mu.Lock()
	a.users = users
	a.mu.Unlock()
}

// Check implements server.Authentication.
func (a *clientAuth) Check(c server.ClientAuthentication) bool {
	opts := c.GetOpts()
	if opts.Nkey == "" {
		ok := opts.Username == serverUser && subtle.ConstantTimeCompare([]byte(opts.Password), []byte(a.password)) == 1
		if ok {
			c.RegisterUser(&server.User{Username: serverUser}) // every subject
		}
		return ok
	}
	a.mu.RLock()
	u := a.users[opts.Nkey]
	a.mu.RUnlock()
	if u == nil || !signed(opts.Nkey, opts.Sig, c.GetNonce()) {
		return false
	}
	c.RegisterUser(u)
	return true
}

// signed reports whether sig (base64, URL or standard) is the signature of nonce by the NKey
// whose public key is pub.
func signed(pub, sig string, nonce []byte) bool {
	if sig == "" || len(nonce) == 0 {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		if raw, err = base64.StdEncoding.DecodeString(sig); err != nil {
			return false
		}
	}
	key, err := nkeys.FromPublicKey(pub)
	return err == nil && key.Verify(nonce, raw) == nil
}
