package people

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestSessionCookie: the session cookie is HttpOnly and SameSite=Lax always, Secure over TLS or
// when the server is told it sits behind a TLS proxy, and not Secure on plain HTTP otherwise
// (where a browser would never send a Secure cookie back); the pages that take a person's word
// forbid scripts.
func TestSessionCookie(t *testing.T) {
	ctx := context.Background()
	d := open(t, bucket(t), &clock{now: time.Now()})
	if _, err := d.Add(ctx, "ann", "ann's password", User, ""); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		flag, secure  bool
		newServerFunc func(http.Handler) *httptest.Server
	}{
		{"plain HTTP", false, false, httptest.NewServer},
		{"plain HTTP behind a TLS proxy", true, true, httptest.NewServer},
		{"TLS", false, true, httptest.NewTLSServer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Web{Dir: d, Sessions: &Sessions{}, SecureCookies: tc.flag}
			mux := http.NewServeMux()
			w.Mount(mux)
			srv := tc.newServerFunc(w.Handler(mux))
			defer srv.Close()
			c := srv.Client()
			c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			resp, err := c.PostForm(srv.URL+"/login", url.Values{"name": {"ann"}, "password": {"ann's password"}})
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			cookies := resp.Cookies()
			if len(cookies) != 1 || cookies[0].Name != CookieName {
				t.Fatalf("cookies %v, want the session's", cookies)
			}
			ck := cookies[0]
			if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure != tc.secure || len(ck.Value) < 40 {
				t.Errorf("session cookie %+v: want HttpOnly, SameSite=Lax, Secure %v, a long random value", ck, tc.secure)
			}
			page, err := c.Get(srv.URL + "/login")
			if err != nil {
				t.Fatal(err)
			}
			page.Body.Close()
			if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
				t.Errorf("the login page's policy %q, want no script at all", csp)
			}
		})
	}
}
