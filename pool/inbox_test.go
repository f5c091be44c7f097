package pool

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// expectViolation waits for the permission violation the server sends for what, on errs.
func expectViolation(t *testing.T, errs <-chan error, what string) {
	t.Helper()
	select {
	case err := <-errs:
		if !errors.Is(err, nats.ErrPermissionViolation) {
			t.Errorf("%s: %v, want a permission violation", what, err)
		}
	case <-time.After(2 * time.Second):
		t.Errorf("%s: no permission violation within 2 s", what)
	}
}

// TestInboxesArePrivate: a user may subscribe to its own inboxes only. A worker's subscription
// to the whole inbox space or to another worker's inboxes is refused, and receives nothing
// of the server's answers to that worker; its own inboxes work, and so do a submitter's and an
// admin's requests, answered on theirs.
func TestInboxesArePrivate(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	alice, errs := violations(t, p.addWorker("alice"))
	bob, _ := violations(t, p.addWorker("bob"))
	var spies []*nats.Subscription
	for _, subject := range []string{"_INBOX.>", InboxPrefix(RoleWorker, "bob") + ".>", InboxPrefix(RoleSubmitter, RoleSubmitter) + ".>", "_INBOX.*"} {
		sub, err := alice.SubscribeSync(subject)
		if err != nil {
			t.Fatal(err)
		}
		alice.Flush()
		expectViolation(t, errs, "alice subscribing to "+subject)
		spies = append(spies, sub)
	}
	if _, err := bob.Request(assignSubject("bob"), []byte(`{"slots":1}`), 5*time.Second); err != nil {
		t.Fatalf("bob asking for work: %v", err)
	}
	if _, err := p.submitter.Runs(context.Background()); err != nil {
		t.Fatalf("the submitter listing runs: %v", err)
	}
	if _, err := p.admin.Workers(context.Background()); err != nil {
		t.Fatalf("the admin listing workers: %v", err)
	}
	for i, sub := range spies {
		if m, err := sub.NextMsg(200 * time.Millisecond); err == nil {
			t.Errorf("alice's subscription %d received %s: %.80s", i, m.Subject, m.Data)
		}
	}
	if _, err := alice.Request(assignSubject("alice"), []byte(`{"slots":1}`), 5*time.Second); err != nil {
		t.Errorf("alice asking for work, answered on her own inbox: %v", err)
	}
	select {
	case err := <-errs:
		t.Errorf("alice: %v", err)
	default:
	}
}
