package people

import (
	"sync"
	"time"
)

// Throttle counts failed logins by key (an account, a client address) and locks a key out
// once it has failed Free times: each further failure doubles the lockout, from Base to Max.
// A success forgets the key's failures. While a key is locked its logins are refused without
// looking at the password, so that guessing costs the server nothing and the guesser a wait.
type Throttle struct {
	Free      int
	Base, Max time.Duration
	// Now is the clock (time.Now if nil): tests move it instead of sleeping.
	Now func() time.Time

	mu   sync.Mutex
	keys map[string]*failures
}

type failures struct {
	n     int
	until time.Time // locked until then
	last  time.Time
}

// maxKeys bounds the keys a throttle remembers: past it, keys idle for Max are forgotten.
const maxKeys = 1 << 14

func (t *Throttle) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

// Locked reports until when a key is locked out, if it is.
func (t *Throttle) Locked(key string) (time.Time, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.keys[key]
	if f == nil || !t.now().Before(f.until) {
		return time.Time{}, false
	}
	return f.until, true
}

// Fail counts a failure of key, and locks it out past Free failures.
func (t *Throttle) Fail(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if t.keys == nil {
		t.keys = map[string]*failures{}
	}
	if len(t.keys) >= maxKeys {
		for k, f := range t.keys {
			if now.Sub(f.last) > t.Max {
				delete(t.keys, k)
			}
		}
	}
	f := t.keys[key]
	if f == nil {
		f = &failures{}
		t.keys[key] = f
	}
	f.n++
	f.last = now
	if f.n >= t.Free {
		lock := t.Base
		for i := t.Free; i < f.n && lock < t.Max; i++ {
			lock *= 2
		}
		f.until = now.Add(min(lock, t.Max))
	}
}

// Succeed forgets key's failures.
func (t *Throttle) Succeed(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.keys, key)
}
