package pool

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"hivearbiter/report"
	"hivearbiter/results"
)

// Dashboard is the pool's web application: the dashboard of runs, lists and workers, a page
// per run (testpage.go) with its live page, HTML report, records and games, and the sites of
// the rating lists the server keeps.
type Dashboard struct {
	srv  *http.Server
	ln   net.Listener
	done chan struct{}
}

// ErrPublicAddress is a dashboard asked to listen where other machines reach it, without
// saying it may.
var ErrPublicAddress = errors.New("pool: the dashboard listens on loopback only unless told otherwise (it shows engines and games to whoever reaches it)")

// ServeDashboard serves the dashboard of s on addr (loopback unless public) until Close or
// the end of ctx.
func ServeDashboard(ctx context.Context, s *Server, addr string, public bool) (*Dashboard, error) {
	ln, err := report.Listen(addr, public)
	if errors.Is(err, report.ErrPublicAddress) {
		return nil, fmt.Errorf("%w: %q", ErrPublicAddress, addr)
	} else if err != nil {
		return nil, err
	}
	d := &Dashboard{ln: ln, done: make(chan struct{}),
		srv: &http.Server{Handler: s.dashboardHandler(), ReadHeaderTimeout: 10 * time.Second,
			BaseContext: func(net.Listener) context.Context { return ctx }}}
	go func() {
		defer close(d.done)
		d.srv.Serve(ln)
	}()
	stop := context.AfterFunc(ctx, func() { d.srv.Close() })
	go func() { <-d.done; stop() }()
	return d, nil
}

// Addr is the address the dashboard listens on.
func (d *Dashboard) Addr() string { return d.ln.Addr().String() }

// Close stops the dashboard and waits until it has.
func (d *Dashboard) Close() error {
	err := d.srv.Close()
	<-d.done
	return err
}

//go:embed dashboard.html testpage.html
var webFiles embed.FS

// webPages are the pool's pages: "dashboard" and "test" (a run's page).
var webPages = template.Must(template.New("web").Funcs(template.FuncMap{
	"when": whenText,
	"minute": func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.UTC().Format("2006-01-02 15:04")
	},
	"add":   func(a, b int) int { return a + b },
	"pairs": pairSpans,
}).ParseFS(webFiles, "dashboard.html", "testpage.html"))

// whenText is a time as the pages show it, in UTC to the second; "-" for none.
func whenText(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// pagePolicy is the Content-Security-Policy of the pool's own pages: they run no script and
// load nothing (their styles and charts are inline), so that a name or a note that escaped
// its escaping would still run nothing. (The report and the live page, drawn by script, are
// package report's.)
const pagePolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// writePage writes one of webPages, drawn from data.
func writePage(w http.ResponseWriter, name string, data any) {
	var b bytes.Buffer
	if err := webPages.ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", pagePolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write(b.Bytes())
}

// dashboardHandler is the pool's web application: the read-only pages of this file and
// testpage.go, to which other files add their own routes on the same mux, one line each.
func (s *Server) dashboardHandler() http.Handler {
	mux := http.NewServeMux()
	s.readRoutes(mux)
	return s.webApp(mux) // the people's pages and the write side (webapp.go)
}

// readRoutes adds the pages anyone who reaches the dashboard may read: the dashboard, each
// run's page, report, records, games and live page, and the sites of the lists the server
// keeps.
func (s *Server) readRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", s.serveDashboard)
	mux.HandleFunc("GET /runs/{id}", s.serveTestPage)
	mux.HandleFunc("GET /runs/{id}/report.html", s.serveReport)
	mux.HandleFunc("GET /runs/{id}/games.pgn", s.servePGN)
	mux.HandleFunc("GET /runs/{id}/records.jsonl", s.serveRecords)
	mux.HandleFunc("GET /runs/{id}/live/", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if live := s.tuneLive(id); live != nil {
			http.StripPrefix("/runs/"+id+"/live", live).ServeHTTP(w, r)
			return
		}
		s.mu.Lock()
		run := s.runs[id]
		var live *report.Live
		if run != nil {
			live = run.live
		}
		s.mu.Unlock()
		switch {
		case live == nil && run != nil && r.URL.Path == "/runs/"+id+"/live/":
			// A run no longer played has its games on its page and in its report (its live
			// page, which held them all, went when its play ended).
			http.Redirect(w, r, "../report.html", http.StatusSeeOther)
			return
		case live == nil:
			http.Error(w, "run "+id+" is not being played: see its report", http.StatusNotFound)
			return
		}
		http.StripPrefix("/runs/"+id+"/live", live).ServeHTTP(w, r)
	})
	mux.HandleFunc("GET /lists/{list}/", s.serveListSite)
}

func (s *Server) lookup(id string) (RunState, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.runs[id]
	if r == nil {
		return RunState{}, false
	}
	return r.state, true
}

// serveReport writes a run's HTML report from its records file, as "arbiter report" does.
func (s *Server) serveReport(w http.ResponseWriter, r *http.Request) {
	st, ok := s.lookup(r.PathValue("id"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	if s.serveTuneReport(w, st) {
		return
	}
	recs, err := results.ReadFile(st.Records)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if s.listBatch(st.ID) {
		// Its records file is the list's, shared with the list's other batches.
		recs = slices.DeleteFunc(recs, func(r results.Record) bool { return r.Run != st.ID })
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := report.Write(w, report.Build(recs, s.pageOptions(st))); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// listBatch reports whether a run is a batch of a list the server keeps.
func (s *Server) listBatch(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.runs[id]
	return r != nil && r.sub != nil && r.sub.Records != ""
}

// pageOptions describe a run to its pages.
func (s *Server) pageOptions(st RunState) report.Options {
	opts := report.Options{Title: strings.Join(st.Engines, " vs ") + " (run " + st.ID + ")", Engines: st.Engines, Planned: st.Scheduled}
	s.mu.Lock()
	if r := s.runs[st.ID]; r != nil && r.sub.Config.SPRT != nil {
		test := r.sub.Config.SPRT.Test()
		opts.SPRT = &test
	}
	s.mu.Unlock()
	return opts
}
