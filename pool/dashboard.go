package pool

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Dashboard is the pool's read-only web page of runs and workers.
type Dashboard struct {
	srv *http.Server
	ln  net.Listener
}

// ErrPublicAddress is a dashboard asked to listen where other machines reach it, without
// saying it may.
var ErrPublicAddress = errors.New("pool: the dashboard listens on loopback only unless told otherwise")

// ServeDashboard serves the dashboard of s on addr until Close.
func ServeDashboard(ctx context.Context, s *Server, addr string, public bool) (*Dashboard, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); !public && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, ErrPublicAddress
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	d := &Dashboard{ln: ln, srv: &http.Server{Handler: s.dashboardHandler(), ReadHeaderTimeout: 10 * time.Second}}
	go d.srv.Serve(ln)
	return d, nil
}

// Addr is the address the dashboard listens on.
func (d *Dashboard) Addr() string { return d.ln.Addr().String() }

// Close stops the dashboard.
func (d *Dashboard) Close() error { return d.srv.Close() }

func (s *Server) dashboardHandler() http.Handler {
	mux := http.NewServeMux()
	return mux
}
