package people

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"sync"
	"time"
)

// CookieName is the name of the session cookie.
const CookieName = "arbiter_session"

// Sessions are the browsers logged in: a random ID each, known only to the server's memory,
// so that a logout ends a session for good (a copy of its cookie is refused after) and a
// restart of the server ends them all.
type Sessions struct {
	// Idle is how long a session lasts unused (DefaultIdle if 0).
	Idle time.Duration
	// Now is the clock (time.Now if nil).
	Now func() time.Time

	mu   sync.Mutex
	byID map[string]*session
}

// DefaultIdle is how long an unused session lasts.
const DefaultIdle = 7 * 24 * time.Hour

type session struct {
	name    string
	expires time.Time
}

func (s *Sessions) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Sessions) idle() time.Duration {
	if s.Idle > 0 {
		return s.Idle
	}
	return DefaultIdle
}

// Start opens a session for a person and returns its ID.
func (s *Sessions) Start(name string) (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	id := base64.RawURLEncoding.EncodeToString(raw)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byID == nil {
		s.byID = map[string]*session{}
	}
	now := s.now()
	for k, old := range s.byID { // the expired go as new ones come: the map stays the live ones
		if now.After(old.expires) {
			delete(s.byID, k)
		}
	}
	s.byID[id] = &session{name: name, expires: now.Add(s.idle())}
	return id, nil
}

// Lookup returns the person of a live session, and extends it.
func (s *Sessions) Lookup(id string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	se := s.byID[id]
	if se == nil {
		return "", false
	}
	now := s.now()
	if now.After(se.expires) {
		delete(s.byID, id)
		return "", false
	}
	se.expires = now.Add(s.idle())
	return se.name, true
}

// End ends a session.
func (s *Sessions) End(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.byID, id)
}

// EndAll ends every session of a person (after a new password, or a block).
func (s *Sessions) EndAll(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, se := range s.byID {
		if se.name == name {
			delete(s.byID, id)
		}
	}
}

type personKey struct{}

// Person is the person logged in on a request that went through Web.Handler.
func Person(r *http.Request) (Account, bool) {
	a, ok := r.Context().Value(personKey{}).(Account)
	return a, ok
}

// withPerson returns r carrying a.
func withPerson(r *http.Request, a Account) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), personKey{}, a))
}
