package people

import (
	"embed"
	"errors"
	"html/template"
	"net"
	"net/http"
	"strings"
)

// Web serves the people's pages (login, logout, registration, a person's account and tokens,
// and the approvers' list of accounts) and tells the other pages who is logged in.
type Web struct {
	Dir      *Directory
	Sessions *Sessions
	// SecureCookies marks the session cookie Secure on plain HTTP too: for a server behind a
	// proxy that speaks TLS to the browsers. Over TLS the cookie is Secure anyway; on
	// loopback over HTTP (the tests, a server tried out) it cannot be, or the browser would
	// never send it back.
	SecureCookies bool
}

//go:embed pages.html
var pageFiles embed.FS

var pages = template.Must(template.ParseFS(pageFiles, "pages.html"))

// Handler wraps the whole site: a request whose browser says it comes from another site
// (Sec-Fetch-Site, or an Origin that is not the Host) and would change something (any
// method but GET, HEAD and OPTIONS) is refused with 403 by net/http's CrossOriginProtection,
// and the person of the session cookie, if any, is made known to the pages (Person).
func (w *Web) Handler(h http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	return cop.Handler(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie(CookieName); err == nil {
			if name, ok := w.Sessions.Lookup(c.Value); ok {
				if a, ok := w.Dir.Get(name); ok && a.Status == Active {
					r = withPerson(r, a)
				}
			}
		}
		// No other site frames a page of the pool (a control under a decoy); its own may.
		rw.Header().Set("X-Frame-Options", "SAMEORIGIN")
		rw.Header().Set("Referrer-Policy", "same-origin")
		h.ServeHTTP(rw, r)
	}))
}

// Mount adds the people's pages to mux.
func (w *Web) Mount(mux *http.ServeMux) {
	mux.HandleFunc("GET /login", w.loginPage)
	mux.HandleFunc("POST /login", w.login)
	mux.HandleFunc("POST /logout", w.logout)
	mux.HandleFunc("GET /register", func(rw http.ResponseWriter, r *http.Request) { render(rw, r, http.StatusOK, "register", nil) })
	mux.HandleFunc("POST /register", w.register)
	mux.HandleFunc("GET /account", w.needPerson(w.account))
	mux.HandleFunc("POST /account/token", w.needPerson(w.newToken))
	mux.HandleFunc("POST /account/token/revoke", w.needPerson(w.revokeToken))
	mux.HandleFunc("POST /account/password", w.needPerson(w.changePassword))
	mux.HandleFunc("GET /people", w.needPerson(w.peoplePage))
	mux.HandleFunc("POST /people/{name}/decide", w.needPerson(w.decide))
	mux.HandleFunc("POST /people/{name}/role", w.needPerson(w.setRole))
}

// page is what a people's page shows.
type page struct {
	Person  *Account
	Error   string
	Message string
	Next    string
	Token   string
	Account *Account
	People  []Account
}

func render(rw http.ResponseWriter, r *http.Request, status int, name string, p *page) {
	if p == nil {
		p = &page{}
	}
	if a, ok := Person(r); ok && p.Person == nil {
		p.Person = &a
	}
	SetPageHeaders(rw)
	rw.WriteHeader(status)
	pages.ExecuteTemplate(rw, name, p)
}

// SetPageHeaders sets the headers of a page that takes a person's word (a form): HTML never
// cached, and a content security policy that runs no script at all and posts forms to this
// site only, so that a script slipped past the escaping would not run.
func SetPageHeaders(rw http.ResponseWriter) {
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.Header().Set("Cache-Control", "no-store")
	rw.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'")
}

// needPerson refuses a request with no one logged in: a page is sent to the login.
func (w *Web) needPerson(h func(http.ResponseWriter, *http.Request, Account)) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		a, ok := Person(r)
		if !ok {
			if r.Method == http.MethodGet {
				http.Redirect(rw, r, "/login?next="+template.URLQueryEscaper(r.URL.Path), http.StatusSeeOther)
				return
			}
			http.Error(rw, "log in first", http.StatusUnauthorized)
			return
		}
		h(rw, r, a)
	}
}

// localPath is next if it is a path of this site, or "/": a login never sends a browser
// elsewhere.
func localPath(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return "/"
	}
	return next
}

// ClientAddress is the address a request came from, for the limits on failed logins.
func ClientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func (w *Web) loginPage(rw http.ResponseWriter, r *http.Request) {
	render(rw, r, http.StatusOK, "login", &page{Next: localPath(r.URL.Query().Get("next"))})
}

func (w *Web) login(rw http.ResponseWriter, r *http.Request) {
	next := localPath(r.PostFormValue("next"))
	a, err := w.Dir.Login(r.PostFormValue("name"), r.PostFormValue("password"), ClientAddress(r))
	if err != nil {
		status := http.StatusUnauthorized
		if errors.As(err, new(*LockedError)) {
			status = http.StatusTooManyRequests
		}
		render(rw, r, status, "login", &page{Error: err.Error(), Next: next})
		return
	}
	id, err := w.Sessions.Start(a.Name)
	if err != nil {
		http.Error(rw, err.Error(), http.StatusInternalServerError)
		return
	}
	http.SetCookie(rw, &http.Cookie{Name: CookieName, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: w.SecureCookies || r.TLS != nil})
	http.Redirect(rw, r, next, http.StatusSeeOther)
}

func (w *Web) logout(rw http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(CookieName); err == nil {
		w.Sessions.End(c.Value)
	}
	http.SetCookie(rw, &http.Cookie{Name: CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: w.SecureCookies || r.TLS != nil})
	http.Redirect(rw, r, "/login", http.StatusSeeOther)
}

func (w *Web) register(rw http.ResponseWriter, r *http.Request) {
	if r.PostFormValue("password") != r.PostFormValue("again") {
		render(rw, r, http.StatusBadRequest, "register", &page{Error: "the two passwords differ"})
		return
	}
	a, err := w.Dir.Register(r.Context(), r.PostFormValue("name"), r.PostFormValue("password"))
	if err != nil {
		render(rw, r, http.StatusBadRequest, "register", &page{Error: err.Error()})
		return
	}
	render(rw, r, http.StatusOK, "registered", &page{Account: &a})
}

func (w *Web) account(rw http.ResponseWriter, r *http.Request, a Account) {
	render(rw, r, http.StatusOK, "account", &page{Account: &a})
}

func (w *Web) newToken(rw http.ResponseWriter, r *http.Request, a Account) {
	token, err := w.Dir.NewToken(r.Context(), a.Name)
	if err != nil {
		render(rw, r, http.StatusBadRequest, "account", &page{Account: &a, Error: err.Error()})
		return
	}
	a, _ = w.Dir.Get(a.Name)
	render(rw, r, http.StatusOK, "account", &page{Account: &a, Token: token})
}

func (w *Web) revokeToken(rw http.ResponseWriter, r *http.Request, a Account) {
	if err := w.Dir.RevokeToken(r.Context(), a.Name, r.PostFormValue("id")); err != nil {
		render(rw, r, http.StatusBadRequest, "account", &page{Account: &a, Error: err.Error()})
		return
	}
	a, _ = w.Dir.Get(a.Name)
	render(rw, r, http.StatusOK, "account", &page{Account: &a, Message: "Token revoked."})
}

func (w *Web) changePassword(rw http.ResponseWriter, r *http.Request, a Account) {
	if r.PostFormValue("password") != r.PostFormValue("again") {
		render(rw, r, http.StatusBadRequest, "account", &page{Account: &a, Error: "the two passwords differ"})
		return
	}
	if err := w.Dir.ChangePassword(r.Context(), a.Name, r.PostFormValue("old"), r.PostFormValue("password"), ClientAddress(r)); err != nil {
		render(rw, r, http.StatusBadRequest, "account", &page{Account: &a, Error: err.Error()})
		return
	}
	w.Sessions.EndAll(a.Name)
	http.Redirect(rw, r, "/login", http.StatusSeeOther)
}

func (w *Web) peoplePage(rw http.ResponseWriter, r *http.Request, a Account) {
	if !a.Role.AtLeast(Approver) {
		render(rw, r, http.StatusForbidden, "account", &page{Account: &a, Error: "only approvers see the people"})
		return
	}
	render(rw, r, http.StatusOK, "people", &page{People: w.Dir.List()})
}

func (w *Web) decide(rw http.ResponseWriter, r *http.Request, a Account) {
	name := r.PathValue("name")
	if _, err := w.Dir.Decide(r.Context(), a, name, r.PostFormValue("accept") == "1"); err != nil {
		render(rw, r, status(err), "people", &page{People: w.Dir.List(), Error: err.Error()})
		return
	}
	if r.PostFormValue("accept") != "1" {
		w.Sessions.EndAll(name)
	}
	http.Redirect(rw, r, "/people", http.StatusSeeOther)
}

func (w *Web) setRole(rw http.ResponseWriter, r *http.Request, a Account) {
	role, err := ParseRole(r.PostFormValue("role"))
	if err == nil {
		_, err = w.Dir.SetRole(r.Context(), a, r.PathValue("name"), role)
	}
	if err != nil {
		render(rw, r, status(err), "people", &page{People: w.Dir.List(), Error: err.Error()})
		return
	}
	http.Redirect(rw, r, "/people", http.StatusSeeOther)
}

func status(err error) int {
	if errors.Is(err, ErrNotAllowed) {
		return http.StatusForbidden
	}
	return http.StatusBadRequest
}

// Layout is a copy of the people's templates "head" (its argument the page's title) and
// "nav" (its argument a value with the fields Person, Error and Message), for other pages of
// the same site to be parsed into.
func Layout() *template.Template { return template.Must(pages.Clone()) }
