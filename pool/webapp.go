package pool

import (
	"embed"
	"errors"
	"html/template"
	"net/http"
	"slices"
	"strconv"

	"hivearbiter/distributed"
	"hivearbiter/pool/people"
)

//go:embed webapp.html
var webappFiles embed.FS

// webappPages are the write side's pages, in the people's layout.
var webappPages = template.Must(people.Layout().Funcs(template.FuncMap{
	// value is a number a summary holds by pointer (nil when undefined), for printf.
	"value": func(p *float64) float64 { return *p },
	"pairs": pairSpans,
}).ParseFS(webappFiles, "webapp.html"))

// webApp mounts the people's pages and the write side (a run's management page, submission)
// on the dashboard's mux, and wraps it all in the people's handler: cross-site requests that
// would change something are refused, and the pages know who is logged in.
func (s *Server) webApp(mux *http.ServeMux) http.Handler {
	web := &people.Web{Dir: s.people.dir, Sessions: s.people.sessions, SecureCookies: s.cfg.People.SecureCookies}
	web.Mount(mux)
	mux.HandleFunc("GET /runs/{id}/manage", s.managePage)
	mux.HandleFunc("POST /runs/{id}/manage", s.manageRun)
	mux.HandleFunc("GET /submit", s.submitPage)
	mux.HandleFunc("POST /submit", s.submitPost)
	mux.HandleFunc("POST /engines", s.uploadEngine)
	return web.Handler(mux)
}

// webPage is what a page of the write side shows.
type webPage struct {
	Person  *people.Account
	Error   string
	Message string

	Run     *RunState
	Sub     *Submission
	Audit   []AuditEntry
	Allowed map[string]bool
	// Workers are the run's workers, for an approver's forms that take one's games out: the
	// flagged first.
	Workers []distributed.WorkerStats

	Form    *submitForm
	Catalog []CatalogEngine
	Preview *preview
}

func renderWeb(w http.ResponseWriter, r *http.Request, status int, name string, p *webPage) {
	if a, ok := people.Person(r); ok {
		p.Person = &a
	}
	people.SetPageHeaders(w)
	w.WriteHeader(status)
	webappPages.ExecuteTemplate(w, name, p)
}

// managePage shows a run as it was submitted, the controls the person may use on it, and
// its audit trail.
func (s *Server) managePage(w http.ResponseWriter, r *http.Request) {
	s.renderManage(w, r, http.StatusOK, "")
}

func (s *Server) renderManage(w http.ResponseWriter, r *http.Request, status int, problem string) {
	id := r.PathValue("id")
	s.mu.Lock()
	run := s.runs[id]
	var st RunState
	var sub *Submission
	var workers []distributed.WorkerStats
	if run != nil {
		st, sub = run.state, run.sub
		if status := run.status(); status != nil {
			workers = slices.Clone(status.Workers)
		}
	}
	s.mu.Unlock()
	if run == nil {
		http.NotFound(w, r)
		return
	}
	p := &webPage{Run: &st, Sub: sub, Error: problem, Allowed: map[string]bool{}}
	var err error
	if p.Audit, err = s.Audit(id); err != nil {
		p.Error = err.Error()
	}
	if a, ok := people.Person(r); ok {
		for _, action := range []string{"approve", "pause", "resume", "stop", "priority", "exclude"} {
			if mayControl(a, st, Control{ID: id, Action: action}) == nil && applies(action, st.State) {
				p.Allowed[action] = true
			}
		}
	}
	if p.Allowed["exclude"] && (sub == nil || sub.Tune == nil) {
		excluded := st.ExcludedWorkers()
		for _, w := range workers {
			if !slices.Contains(excluded, w.Name) {
				p.Workers = append(p.Workers, w)
			}
		}
		slices.SortStableFunc(p.Workers, func(a, b distributed.WorkerStats) int {
			switch {
			case a.Flagged == b.Flagged:
				return 0
			case a.Flagged:
				return -1
			}
			return 1
		})
	}
	delete(p.Allowed, "exclude") // its forms are per worker
	if len(p.Workers) > 0 {
		p.Allowed["exclude"] = true
	}
	renderWeb(w, r, status, "manage", p)
}

// applies says whether an action can be taken on a run in a state.
func applies(action, state string) bool {
	switch action {
	case "approve":
		return state == StatePending
	case "pause":
		return state == StateActive
	case "exclude":
		return state == StateActive || state == StatePaused
	case "resume":
		return state == StatePaused
	case "stop", "priority":
		return state == StateActive || state == StatePaused || state == StatePending
	}
	return false
}

// manageRun takes a control from the management page's forms.
func (s *Server) manageRun(w http.ResponseWriter, r *http.Request) {
	a, ok := people.Person(r)
	if !ok {
		s.renderManage(w, r, http.StatusUnauthorized, "log in to control a run")
		return
	}
	c := Control{ID: r.PathValue("id"), Action: r.PostFormValue("action"), Worker: r.PostFormValue("worker")}
	if c.Action == "priority" {
		n, err := strconv.Atoi(r.PostFormValue("priority"))
		if err != nil {
			s.renderManage(w, r, http.StatusBadRequest, "the priority is a whole number")
			return
		}
		c.Priority = n
		if share := r.PostFormValue("share"); share != "" {
			if c.Share, err = strconv.ParseFloat(share, 64); err != nil || c.Share <= 0 {
				s.renderManage(w, r, http.StatusBadRequest, "the share is a positive number")
				return
			}
		}
	}
	switch c.Action {
	case "approve", "pause", "resume", "stop", "priority", "exclude":
	default: // delete is the command line's, where it is asked for by name
		s.renderManage(w, r, http.StatusBadRequest, "unknown action")
		return
	}
	if _, err := s.ControlAs(&a, c); err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, ErrControl) {
			status = http.StatusForbidden
		}
		s.renderManage(w, r, status, err.Error())
		return
	}
	http.Redirect(w, r, "/runs/"+c.ID+"/manage", http.StatusSeeOther)
}
