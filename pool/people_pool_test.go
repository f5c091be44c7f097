package pool

import (
	"bytes"
	"context"
	"encoding/json"
	"hivearbiter/internal/syncbuf"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/textproto"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/pool/artifact"
	"hivearbiter/pool/people"
)

// testClock is a clock the tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// newPeoplePool is a test pool with persons under rules, their passwords hashed cheaply and
// their clock the test's.
func newPeoplePool(t *testing.T, rules PeopleConfig, clock *testClock) *testPool {
	t.Helper()
	rules.Options = &people.Options{Hashing: people.Hashing{Memory: 64, Time: 1, Threads: 1}, Now: clock.Now}
	p := &testPool{t: t, dir: t.TempDir(), addr: "127.0.0.1:0", console: new(syncbuf.Buffer), people: rules}
	p.start()
	p.addr = strings.TrimPrefix(p.srv.URL(), "nats://")
	t.Cleanup(p.stop)
	return p
}

// addPerson adds an active person of a role with the admin's credential, as "arbiter server
// user add" does, and makes them a token.
func addPerson(t *testing.T, p *testPool, name string, role people.Role) (password, token string) {
	t.Helper()
	ctx := context.Background()
	password = name + "'s password"
	if _, err := p.admin.People(ctx, PeopleRequest{Op: "add", Name: name, Role: string(role), Password: password}); err != nil {
		t.Fatal(err)
	}
	out, err := p.admin.People(ctx, PeopleRequest{Op: "token", Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return password, out.Token
}

func trailOf(t *testing.T, p *testPool, id string) []string {
	t.Helper()
	trail, err := p.srv.Audit(id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range trail {
		out = append(out, e.Person+" "+e.Action)
	}
	return out
}

// TestTokensNamePersons: over NATS, a person's token names who submits and controls; a user's
// run waits for an approver; a user may not approve, nor touch another's run, nor exceed the
// limit of runs; a person named by the request itself is not believed; the audit trail says
// who did what, and the accounts and trails outlive a restart of the server.
func TestTokensNamePersons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &testClock{now: time.Now()}
	p := newPeoplePool(t, PeopleConfig{ApproveRuns: true, MaxActive: 2}, clock)
	_, annToken := addPerson(t, p, "ann", people.User)
	_, bobToken := addPerson(t, p, "bob", people.User)
	_, vicToken := addPerson(t, p, "vic", people.Approver)

	// The submitter's credential alone still submits (no token required), as before people.
	legacy, err := p.submitter.Submit(ctx, fakeSubmission(t, 2, 1, nil))
	if err != nil {
		t.Fatal(err)
	}
	if legacy.Submitter != "" || legacy.State != StateActive {
		t.Errorf("a run of the credential alone: submitter %q, state %s; want none and active", legacy.Submitter, legacy.State)
	}
	forged := fakeSubmission(t, 2, 2, nil)
	forged.Person = "vic"
	st, err := p.submitter.Submit(ctx, forged)
	if err != nil {
		t.Fatal(err)
	}
	if st.Submitter != "" {
		t.Errorf("a submission naming vic without a token was taken as vic's (%q)", st.Submitter)
	}
	// Nor in a spelling of its own: encoding/json matches names without regard to case.
	raw, err := json.Marshal(fakeSubmission(t, 2, 9, nil))
	if err != nil {
		t.Fatal(err)
	}
	raw = append(raw[:len(raw)-1], []byte(`,"PERSON":"vic","perſon":"vic"}`)...)
	reply, err := p.submitter.nc.Request(subjectSubmit, raw, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var answer Reply
	if err := json.Unmarshal(reply.Data, &answer); err != nil || answer.Run == nil || answer.Run.Submitter != "" {
		t.Errorf("a submission naming vic as PERSON without a token: %s, want taken as the credential's", reply.Data)
	}
	bad := fakeSubmission(t, 2, 3, nil)
	bad.Token = "hapt_not-a-token"
	if _, err := p.submitter.Submit(ctx, bad); err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("a submission with a wrong token: %v, want refused for its token", err)
	}

	sub := fakeSubmission(t, 2, 4, nil)
	sub.Token = annToken
	ann, err := p.submitter.Submit(ctx, sub)
	if err != nil {
		t.Fatal(err)
	}
	if ann.Submitter != "ann" || ann.State != StatePending {
		t.Fatalf("ann's run: submitter %q, state %s; want ann and pending", ann.Submitter, ann.State)
	}
	high := fakeSubmission(t, 2, 5, nil)
	high.Token, high.Priority = annToken, 3
	if _, err := p.submitter.Submit(ctx, high); !errorsContain(err, "priority") {
		t.Errorf("a user's run of priority 3: %v, want refused", err)
	}
	second := fakeSubmission(t, 2, 6, nil)
	second.Token = annToken
	if _, err := p.submitter.Submit(ctx, second); err != nil {
		t.Fatal(err)
	}
	third := fakeSubmission(t, 2, 7, nil)
	third.Token = annToken
	if _, err := p.submitter.Submit(ctx, third); !errorsContain(err, "as many as a user may") {
		t.Errorf("ann's third run with a limit of 2: %v, want refused", err)
	}

	for _, tc := range []struct {
		who   string
		token string
		c     Control
	}{
		{"ann approving her own run", annToken, Control{ID: ann.ID, Action: "approve"}},
		{"bob approving ann's run", bobToken, Control{ID: ann.ID, Action: "approve"}},
		{"bob stopping ann's run", bobToken, Control{ID: ann.ID, Action: "stop"}},
		{"bob pausing the credential's run", bobToken, Control{ID: legacy.ID, Action: "pause"}},
		{"ann raising her run's priority", annToken, Control{ID: ann.ID, Action: "priority", Priority: 5}},
	} {
		tc.c.Token = tc.token
		if _, err := p.submitter.Control(ctx, tc.c); !errorsContain(err, "not allowed") {
			t.Errorf("%s: %v, want not allowed", tc.who, err)
		}
	}
	if st := p.srv.runState(ann.ID); st.State != StatePending {
		t.Fatalf("ann's run after the refused controls: %s, want pending", st.State)
	}
	if _, err := p.submitter.Control(ctx, Control{ID: ann.ID, Action: "approve", Token: vicToken}); err != nil {
		t.Fatal(err)
	}
	if st := p.srv.runState(ann.ID); st.State != StateActive {
		t.Errorf("ann's run approved: %s, want active", st.State)
	}
	if _, err := p.submitter.Control(ctx, Control{ID: ann.ID, Action: "priority", Priority: -1, Token: annToken}); err != nil {
		t.Errorf("ann lowering her run's priority: %v", err)
	}
	if _, err := p.submitter.Control(ctx, Control{ID: ann.ID, Action: "stop", Token: annToken}); err != nil {
		t.Errorf("ann stopping her own run: %v", err)
	}
	want := []string{"ann submitted", "(server) held", "vic approved", "ann reprioritized", "ann stopped"}
	if got := trailOf(t, p, ann.ID); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("ann's run's audit trail: %q, want %q", got, want)
	}

	if trail, err := p.submitter.Audit(ctx, ann.ID); err != nil || len(trail) != len(want) || trail[2].Person != "vic" {
		t.Errorf("ann's run's audit trail asked over NATS: %+v, %v", trail, err)
	}
	if _, err := p.submitter.Audit(ctx, "000000000000"); !errorsContain(err, "no run") {
		t.Errorf("the audit trail of no run: %v", err)
	}

	// A restart keeps the people, their tokens, and the trails.
	p.stop()
	p.start()
	if got := trailOf(t, p, ann.ID); len(got) != len(want) {
		t.Errorf("the audit trail after a restart: %q, want %q", got, want)
	}
	if _, err := p.submitter.Control(ctx, Control{ID: legacy.ID, Action: "pause", Token: vicToken}); err != nil {
		t.Errorf("vic pausing a run after a restart: %v", err)
	}
	if got := trailOf(t, p, legacy.ID); strings.Join(got, "|") != " submitted|vic paused" {
		t.Errorf("the credential's run's audit trail: %q", got)
	}

	// A server that requires tokens refuses the credential alone.
	p.stop()
	p.people.RequireToken = true
	p.start()
	if _, err := p.submitter.Submit(ctx, fakeSubmission(t, 2, 8, nil)); !errorsContain(err, "token") {
		t.Errorf("a submission with no token to a server that requires one: %v", err)
	}
	if _, err := p.submitter.Control(ctx, Control{ID: legacy.ID, Action: "resume"}); !errorsContain(err, "token") {
		t.Errorf("a control with no token to a server that requires one: %v", err)
	}
}

func errorsContain(err error, text string) bool {
	return err != nil && strings.Contains(err.Error(), text)
}

// webClient is a browser's conversation with the dashboard, as a plain HTTP client: its
// cookies kept, redirects not followed (the tests look at them).
type webClient struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newWebClient(t *testing.T, base string) *webClient {
	jar, _ := cookiejar.New(nil)
	return &webClient{t: t, base: base, c: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends a request and returns its status and body.
func (w *webClient) do(req *http.Request) (int, string) {
	w.t.Helper()
	resp, err := w.c.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (w *webClient) get(path string) (int, string) {
	w.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, w.base+path, nil)
	return w.do(req)
}

func (w *webClient) post(path string, form url.Values, header ...string) (int, string) {
	w.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return w.do(req)
}

func (w *webClient) login(name, password string) {
	w.t.Helper()
	if status, body := w.post("/login", url.Values{"name": {name}, "password": {password}}); status != http.StatusSeeOther {
		w.t.Fatalf("%s logging in: %d %s", name, status, body)
	}
}

func (w *webClient) session() string {
	u, _ := url.Parse(w.base)
	for _, c := range w.c.Jar.Cookies(u) {
		if c.Name == people.CookieName {
			return c.Value
		}
	}
	return ""
}

// TestWebAttacks: the attacks on the write side a public pool meets, each refused: a
// cross-site form post; a session cookie used after its logout; a user approving or stopping
// another's run; script in an engine's name, the event, an option's value and the note; a path
// in an uploaded engine's name; a thousand wrong passwords.
func TestWebAttacks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &testClock{now: time.Now()}
	p := newPeoplePool(t, PeopleConfig{ApproveRuns: true}, clock)
	vicPassword, _ := addPerson(t, p, "vic", people.Approver)
	dash, err := ServeDashboard(ctx, p.srv, "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer dash.Close()
	base := "http://" + dash.Addr()

	// ann registers; vic accepts her.
	ann := newWebClient(t, base)
	if status, body := ann.post("/register", url.Values{"name": {"ann"}, "password": {"ann's password"}, "again": {"ann's password"}}); status != http.StatusOK || !strings.Contains(body, "waits for an approver") {
		t.Fatalf("registering: %d %s", status, body)
	}
	if status, _ := ann.post("/login", url.Values{"name": {"ann"}, "password": {"ann's password"}}); status != http.StatusUnauthorized {
		t.Errorf("ann logging in before her approval: %d, want 401", status)
	}
	vic := newWebClient(t, base)
	vic.login("vic", vicPassword)
	if status, body := vic.post("/people/ann/decide", url.Values{"accept": {"1"}}); status != http.StatusSeeOther {
		t.Fatalf("vic accepting ann: %d %s", status, body)
	}
	ann.login("ann", "ann's password")

	script := `<script>alert(1)</script>`
	vicRun := webRun(t, p, "vic", 11, nil)
	annRun := webRun(t, p, "ann", 12, func(sub *Submission) {
		sub.Config.Engines[0].Name = "a" + script
		sub.Config.Engines[0].Options = []driver.EngineOption{{Name: "Profile", Value: script}}
		sub.Config.Event = "event " + script
		sub.Note = "note " + script
	})

	t.Run("cross-site post", func(t *testing.T) {
		for _, header := range [][]string{{"Sec-Fetch-Site", "cross-site"}, {"Origin", "http://evil.example"}} {
			if status, _ := vic.post("/runs/"+vicRun.ID+"/manage", url.Values{"action": {"stop"}}, header...); status != http.StatusForbidden {
				t.Errorf("a stop posted with %s: %s: %d, want 403", header[0], header[1], status)
			}
		}
		if st := p.srv.runState(vicRun.ID); st.State != StateActive {
			t.Errorf("vic's run after cross-site posts: %s, want active", st.State)
		}
		if status, _ := vic.post("/runs/"+vicRun.ID+"/manage", url.Values{"action": {"pause"}}, "Sec-Fetch-Site", "same-origin"); status != http.StatusSeeOther {
			t.Errorf("vic pausing his run from his own page: %d, want 303", status)
		}
	})

	t.Run("a user on another's run", func(t *testing.T) {
		for _, action := range []string{"resume", "stop", "priority"} {
			if status, _ := ann.post("/runs/"+vicRun.ID+"/manage", url.Values{"action": {action}, "priority": {"0"}}); status != http.StatusForbidden {
				t.Errorf("ann's %s of vic's run: %d, want 403", action, status)
			}
		}
		if status, _ := ann.post("/runs/"+annRun.ID+"/manage", url.Values{"action": {"approve"}}); status != http.StatusForbidden {
			t.Errorf("ann approving her own run: %d, want 403", status)
		}
		if st := p.srv.runState(vicRun.ID); st.State != StatePaused {
			t.Errorf("vic's run after ann's tries: %s, want paused", st.State)
		}
		if st := p.srv.runState(annRun.ID); st.State != StatePending {
			t.Errorf("ann's run after her approval of it: %s, want pending", st.State)
		}
		_, page := ann.get("/runs/" + vicRun.ID + "/manage")
		if strings.Contains(page, `id="stop"`) || strings.Contains(page, `id="resume"`) {
			t.Error("vic's run's page offers ann its controls")
		}
		if status, _ := vic.post("/runs/"+annRun.ID+"/manage", url.Values{"action": {"approve"}}); status != http.StatusSeeOther {
			t.Errorf("vic approving ann's run: %d, want 303", status)
		}
	})

	t.Run("script escaped", func(t *testing.T) {
		_, page := vic.get("/runs/" + annRun.ID + "/manage")
		if strings.Contains(page, script) {
			t.Errorf("the run's page holds the script unescaped:\n%s", page)
		}
		if n := strings.Count(page, "&lt;script&gt;alert(1)&lt;/script&gt;"); n < 4 {
			t.Errorf("the run's page shows the script escaped %d times, want 4 (name, option, event, note):\n%s", n, page)
		}
		// The catalog lists the engine by its name, escaped.
		_, catalog := ann.get("/submit")
		if strings.Contains(catalog, script) || !strings.Contains(catalog, "a&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("the submission page's catalog holds the engine's name unescaped, or not at all:\n%s", catalog)
		}
		// The form shows what it was given again, escaped.
		_, form := ann.post("/submit", url.Values{"name1": {script}, "event": {script}, "note": {script}, "options1": {"X=" + script}})
		if strings.Contains(form, script) || !strings.Contains(form, "&lt;script&gt;") {
			t.Errorf("the submission form holds the script unescaped:\n%s", form)
		}
	})

	t.Run("path in an artifact's name", func(t *testing.T) {
		for _, name := range []string{"../../evil", "dir/engine", `..\evil`, ".hidden", "/etc/passwd"} {
			status, body := uploadAs(t, vic, name, []byte("#!/bin/sh\nexit 0\n"))
			if status != http.StatusBadRequest || !strings.Contains(body, "plain name") {
				t.Errorf("an engine uploaded as %q: %d, want 400 for its name", name, status)
			}
		}
		if status, _ := uploadAs(t, ann, "engine", []byte("#!/bin/sh\nexit 0\n")); status != http.StatusForbidden {
			t.Errorf("a user uploading an engine: %d, want 403", status)
		}
	})

	t.Run("roles on the people's pages", func(t *testing.T) {
		if status, _ := ann.get("/people"); status != http.StatusForbidden {
			t.Errorf("a user seeing the people: %d, want 403", status)
		}
		if status, _ := ann.post("/people/vic/decide", url.Values{"accept": {"0"}}); status != http.StatusForbidden {
			t.Errorf("a user blocking an approver: %d, want 403", status)
		}
		if status, _ := vic.post("/people/ann/role", url.Values{"role": {"admin"}}); status != http.StatusForbidden {
			t.Errorf("an approver making ann an admin: %d, want 403", status)
		}
		if a, _ := p.srv.People().Get("ann"); a.Role != people.User || a.Status != people.Active {
			t.Errorf("ann after the refused changes: %s, %s", a.Role, a.Status)
		}
	})

	t.Run("an approver's upload, a user's submission", func(t *testing.T) {
		argv, env := uhpfake.Command(uhpfake.Config{ID: "instant-up", Play: "random"})
		// sh's export and exec alone: a machine with only Go has no env on PATH.
		script := "#!/bin/sh\n"
		for _, kv := range env {
			script += "export '" + kv + "'\n"
		}
		script += "exec '" + argv[0] + "'\n"
		status, body := uploadAs(t, vic, "fake-engine", []byte(script))
		if status != http.StatusOK {
			t.Fatalf("vic's upload: %d\n%s", status, body)
		}
		catalog, err := p.srv.Catalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var key string
		for _, c := range catalog {
			if c.Name == "uploaded" && c.ID == "instant-up" && c.By == "vic" {
				key = c.Key
			}
		}
		if key == "" {
			t.Fatalf("the catalog after vic's upload: %+v, want his engine with its id", catalog)
		}
		form := url.Values{"engine1": {key}, "engine2": {key}, "name1": {"patch"}, "name2": {"base"}, "options1": {"Speed=2"},
			"limit": {"depth=1"}, "gametype": {"Base+MLP"}, "test": {"games"}, "pairs": {"3"}, "randomplies": {"2"}, "maxplies": {"20"},
			"priority": {"0"}, "note": {"a note"}, "event": {"an event"}}
		status, body = ann.post("/submit", form)
		if status != http.StatusOK || !strings.Contains(body, "6 games (3 game pairs)") || !strings.Contains(body, `id="confirm"`) {
			t.Fatalf("ann's preview: %d\n%s", status, body)
		}
		form.Set("confirm", "1")
		status, _ = ann.post("/submit", form)
		runs := p.srv.Runs()
		last := runs[len(runs)-1]
		if status != http.StatusSeeOther || last.Submitter != "ann" || last.State != StatePending || last.Scheduled != 6 {
			t.Errorf("ann's submission: %d; the last run %+v, want ann's, pending, of 6 games", status, last)
		}
		form.Set("priority", "2")
		form.Set("pairs", "4")
		if status, body := ann.post("/submit", form); status != http.StatusBadRequest || !strings.Contains(body, "priority above 0") {
			t.Errorf("ann submitting a run of priority 2: %d, want refused", status)
		}
	})

	t.Run("session after logout", func(t *testing.T) {
		stolen := ann.session()
		if status, _ := ann.post("/logout", nil); status != http.StatusSeeOther {
			t.Fatalf("logout: %d", status)
		}
		replay := newWebClient(t, base)
		u, _ := url.Parse(base)
		replay.c.Jar.SetCookies(u, []*http.Cookie{{Name: people.CookieName, Value: stolen}})
		if status, _ := replay.get("/account"); status != http.StatusSeeOther {
			t.Errorf("the account page with a cookie from before the logout: %d, want a redirect to the login", status)
		}
		if status, _ := replay.post("/runs/"+annRun.ID+"/manage", url.Values{"action": {"stop"}}); status != http.StatusUnauthorized {
			t.Errorf("a stop with a cookie from before the logout: %d, want 401", status)
		}
		if st := p.srv.runState(annRun.ID); st.Over() {
			t.Errorf("ann's run was stopped with a dead session's cookie")
		}
	})

	t.Run("a thousand wrong passwords", func(t *testing.T) {
		mallory := newWebClient(t, base)
		refused := 0
		start := time.Now()
		for i := range 1000 {
			status, _ := mallory.post("/login", url.Values{"name": {"vic"}, "password": {"guess " + string(rune('a'+i%26))}})
			switch status {
			case http.StatusTooManyRequests:
				refused++
			case http.StatusUnauthorized:
			default:
				t.Fatalf("guess %d: %d", i, status)
			}
		}
		if refused != 995 {
			t.Errorf("%d of 1000 wrong passwords refused as locked out, want 995 (5 looked at)", refused)
		}
		t.Logf("1000 wrong passwords answered in %v", time.Since(start))
		if status, _ := mallory.post("/login", url.Values{"name": {"vic"}, "password": {vicPassword}}); status != http.StatusTooManyRequests {
			t.Errorf("vic's right password during the lockout: %d, want 429", status)
		}
		clock.Add(2 * time.Hour)
		if status, _ := mallory.post("/login", url.Values{"name": {"vic"}, "password": {vicPassword}}); status != http.StatusSeeOther {
			t.Errorf("vic's right password after the lockout: %d, want 303", status)
		}
	})
}

// webRun submits a run as a person (as the browser's form does), its engines in the catalog
// (a small artifact no worker plays).
func webRun(t *testing.T, p *testPool, person string, seed int64, edit func(*Submission)) *RunState {
	t.Helper()
	m, _ := uploadArtifact(t, p.submitter, 1<<10)
	sub := fakeSubmission(t, 50, seed, nil)
	sub.Platforms, sub.Manifests, sub.Person = nil, []artifact.Manifest{m, {}}, person
	if edit != nil {
		edit(sub)
		for i, e := range sub.Config.Engines {
			sub.Expect[i].Name = e.Name
		}
	}
	st, err := p.srv.Submit(sub)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// uploadAs posts an engine to the catalog as the browser's upload form does, with the file
// name given.
func uploadAs(t *testing.T, w *webClient, name string, data []byte) (int, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="program"; filename="`+strings.ReplaceAll(name, `\`, `\\`)+`"`)
	h.Set("Content-Type", "application/octet-stream")
	part, err := mw.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(data)
	mw.WriteField("name", "uploaded")
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, w.base+"/engines", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return w.do(req)
}

func FuzzParseOptions(f *testing.F) {
	f.Add("Aggression=5\nProfile=weak\n")
	f.Add("=x")
	f.Add("a=b=c\r\n\n  x = y ")
	f.Fuzz(func(t *testing.T, text string) {
		opts, err := parseOptions(text)
		if err != nil {
			return
		}
		for _, o := range opts {
			if o.Name == "" || strings.ContainsAny(o.Name+o.Value, "\r\n\x00") || strings.Contains(o.Name, "=") {
				t.Fatalf("parseOptions(%q) took %+v", text, o)
			}
		}
	})
}

func FuzzArtifactName(f *testing.F) {
	for _, name := range []string{"engine", "../evil", `a\b`, ".x", "hivebot-1.2_linux"} {
		f.Add(name)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if artifactName(name) != nil {
			return
		}
		if strings.ContainsAny(name, `/\:`) || strings.HasPrefix(name, ".") || name == "" || len(name) > 128 {
			t.Fatalf("artifactName took %q", name)
		}
	})
}

// TestPeopleTables: the audit trail of "arbiter server runs audit" and the persons of
// "arbiter server user list", against their golden files.
func TestPeopleTables(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 7, 17, 30, 0, 0, time.UTC)
	trail := []AuditEntry{
		{Time: at, Person: "ann", Action: "submitted", Detail: "match of patch, base, 2000 games"},
		{Time: at, Person: auditServer, Action: "held", Detail: "waits for an approver"},
		{Time: at.Add(time.Hour), Person: "vic", Action: "approved"},
		{Time: at.Add(2 * time.Hour), Person: "ann", Action: "reprioritized", Detail: "priority -1 (was 0)"},
		{Time: at.Add(3 * time.Hour), Action: "stopped"},
	}
	var out bytes.Buffer
	if err := WriteAudit(&out, trail); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/audit.golden", out.Bytes())
	list := []Person{
		{Name: "alice", Role: "admin", Status: "active", Created: at, ApprovedBy: "(admin credential)"},
		{Name: "ann", Role: "user", Status: "active", Tokens: 2, Created: at, ApprovedBy: "vic"},
		{Name: "mallory", Role: "user", Status: "blocked", Created: at},
		{Name: "newcomer", Role: "user", Status: "pending", Created: at.Add(48 * time.Hour)},
	}
	out.Reset()
	if err := WritePeople(&out, list); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/people.golden", out.Bytes())
}
