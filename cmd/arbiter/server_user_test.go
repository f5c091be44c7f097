package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/testkit/testenv"
)

// TestServerUsers: the first admin and the other persons are added with the admin's
// credential; a person's token given to submit names them as the run's submitter, whose run
// waits for an approver (-approve-runs); a user's token may not approve it, an approver's does;
// and the run's submitter stops it, from the command line as from the browser; a user may not
// take a worker's games out of a run, an approver may (server runs exclude).
func TestServerUsers(t *testing.T) {
	if testing.Short() {
		t.Skip("a server in a separate process: not in -short")
	}
	dir, addr := t.TempDir(), testenv.FreeAddr(t)
	sdir := filepath.Join(dir, "srv")
	srv := startArbiter(t, "server", "-dir", sdir, "-listen", addr, "-approve-runs")
	waitFor(t, "the pool's server", 30*time.Second, func() bool { return strings.Contains(srv.out.String(), "Pool server at") })

	out := arbiterOK(t, "server", "user", "add", "root", "-role", "admin", "-dir", sdir)
	if !strings.Contains(out, "root added (admin). Password, shown once: ") {
		t.Errorf("server user add: %q", out)
	}
	arbiterOK(t, "server", "user", "add", "ann", "-dir", sdir)
	arbiterOK(t, "server", "user", "add", "vic", "-role", "approver", "-dir", sdir)
	token := func(name string) string {
		path := filepath.Join(dir, name+".token")
		if err := os.WriteFile(path, []byte(arbiterOK(t, "server", "user", "token", name, "-dir", sdir)), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	ann, vic := token("ann"), token("vic")
	list := arbiterOK(t, "server", "user", "list", "-dir", sdir)
	var people []string
	for _, line := range strings.Split(strings.TrimSpace(list), "\n")[1:] {
		people = append(people, strings.Join(strings.Fields(line)[:4], " "))
	}
	if got := strings.Join(people, ", "); got != "ann user active 1, root admin active 0, vic approver active 1" {
		t.Errorf("server user list: %s\n%s", got, list)
	}

	arbiterOK(t, "submit", "-creds", filepath.Join(sdir, "submitter.creds"), "-token-file", ann,
		"-engine", "builtin=hivebot", "name=strong", "arg=-profile", "arg=strong",
		"-engine", "builtin=hivebot", "name=weak", "arg=-profile", "arg=weak", "-each", "depth=1", "-rounds", "4")
	runs := poolRuns(t, sdir)
	if len(runs) != 1 || runs[0].Submitter != "ann" || runs[0].State != "pending" {
		t.Fatalf("the runs after ann's submission: %+v, want one of ann's, pending", runs)
	}
	id := runs[0].ID
	var errOut bytes.Buffer
	err := run(context.Background(), []string{"server", "runs", "approve", id, "-dir", sdir, "-token-file", ann}, &bytes.Buffer{}, &errOut)
	if err == nil || !strings.Contains(err.Error(), "not allowed: only an approver approves a run") {
		t.Errorf("ann approving her own run: %v, want refused", err)
	}
	arbiterOK(t, "server", "runs", "approve", id, "-dir", sdir, "-token-file", vic)
	if st := poolRuns(t, sdir)[0]; st.State != "active" && st.State != "finished" {
		t.Errorf("ann's run approved by vic: %s", st.State)
	}
	arbiterOK(t, "server", "runs", "priority", id, "0", "-share", "2", "-dir", sdir, "-token-file", ann)
	if st := poolRuns(t, sdir)[0]; st.Share != 2 {
		t.Errorf("ann's run's share after she set it: %g, want 2", st.Share)
	}
	err = run(context.Background(), []string{"server", "runs", "priority", id, "3", "-dir", sdir, "-token-file", ann}, &bytes.Buffer{}, &errOut)
	if err == nil || !strings.Contains(err.Error(), "only an approver raises a run's priority") {
		t.Errorf("ann raising her run's priority: %v, want refused", err)
	}
	err = run(context.Background(), []string{"server", "runs", "exclude", id, "w9", "-dir", sdir, "-token-file", ann}, &bytes.Buffer{}, &errOut)
	if err == nil || !strings.Contains(err.Error(), "only an approver takes a worker's games out of a run") {
		t.Errorf("ann taking a worker's games out of her run: %v, want refused", err)
	}
	if out := arbiterOK(t, "server", "runs", "exclude", id, "w9", "-dir", sdir, "-token-file", vic); !strings.Contains(out, "Run "+id+": ") || !strings.Contains(out, "Worker w9 taken out: 0 games of 0 pairs") {
		t.Errorf("server runs exclude: %q", out)
	}
	if st := poolRuns(t, sdir)[0]; len(st.Excluded) != 1 || st.Excluded[0].Worker != "w9" || st.Excluded[0].By != "vic" {
		t.Errorf("ann's run after vic took w9 out: %+v, want w9 taken out by vic", st.Excluded)
	}
	audit := arbiterOK(t, "server", "runs", "audit", id, "-dir", sdir)
	var actions []string
	for _, line := range strings.Split(strings.TrimSpace(audit), "\n")[1:] {
		f := strings.Fields(line)
		actions = append(actions, f[2]+" "+f[3])
	}
	if got := strings.Join(actions, ", "); got != "ann submitted, (server) held, vic approved, ann reprioritized, vic excluded" {
		t.Errorf("server runs audit: %s\n%s", got, audit)
	}
}
