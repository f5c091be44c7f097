package pool

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"hivearbiter/pool/artifact"
)

// TestOutdatedWorker: a worker of an arbiter from before private inboxes asks for work with
// its answers on the shared inbox, where the NATS server keeps them from it. The server gives
// it no run (it would count in the run's load while playing nothing), and its table and log
// say why and what to do; the same worker upgraded is assigned as any other.
func TestOutdatedWorker(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	st, err := p.submitter.Submit(t.Context(), fakeSubmission(t, 5, 1, nil))
	if err != nil {
		t.Fatal(err)
	}
	creds := p.addWorker("old")
	old := *creds
	old.Inbox = "" // as an earlier arbiter dials
	nc, _ := violations(t, &old)
	b, _ := json.Marshal(AssignRequest{Worker: "old", Slots: 1, Platform: artifact.ThisPlatform()})
	if err := nc.PublishRequest(assignSubject("old"), "_INBOX.abc.1", b); err != nil {
		t.Fatal(err)
	}
	nc.Flush()
	var ws WorkerState
	waitUntil(t, "the server to note the outdated worker", 10*time.Second, func() bool {
		for _, w := range p.srv.Workers() {
			if w.Name == "old" {
				ws = w
			}
		}
		return ws.Outdated != ""
	})
	if got := ws.StateText(time.Now()); got != "outdated" || !strings.Contains(ws.FlagsText(), "upgrade its arbiter") {
		t.Errorf("the outdated worker shows as %q, flags %q; want outdated, saying to upgrade", got, ws.FlagsText())
	}
	p.srv.mu.Lock()
	_, assigned := p.srv.runs[st.ID].assigned["old"]
	p.srv.mu.Unlock()
	if assigned {
		t.Error("the outdated worker was assigned a run it cannot hear of")
	}
	var table bytes.Buffer
	WriteWorkers(&table, p.srv.Workers(), time.Now())
	if !strings.Contains(table.String(), "outdated") {
		t.Errorf("the workers' table does not show the outdated worker:\n%s", table.String())
	}

	upgraded, _ := violations(t, creds)
	reply, err := upgraded.Request(assignSubject("old"), b, 5*time.Second)
	if err != nil {
		t.Fatalf("the upgraded worker asking for work: %v", err)
	}
	var a Assignment
	if err := json.Unmarshal(reply.Data, &a); err != nil || a.Run != st.ID {
		t.Errorf("the upgraded worker was assigned %+v (%v), want run %s", a, err, st.ID)
	}
	for _, w := range p.srv.Workers() {
		if w.Name == "old" && w.Outdated != "" {
			t.Errorf("the upgraded worker is still noted outdated: %q", w.Outdated)
		}
	}
}
