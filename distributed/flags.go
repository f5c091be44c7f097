package distributed

import "flag"

// Register defines on fs the flags of a command that serves its run to workers: -listen,
// -nats, -creds and -ackwait set Listen, URL, CredsFile and AckWait.
func (hc *HostConfig) Register(fs *flag.FlagSet) {
	fs.StringVar(&hc.Listen, "listen", "", "serve the run to workers (arbiter worker) from an embedded NATS server on `HOST:PORT`; TLS unless loopback")
	fs.StringVar(&hc.URL, "nats", "", "serve the run to workers through an existing NATS server at `URL` (with -creds)")
	fs.StringVar(&hc.CredsFile, "creds", "", "with -nats: the coordinator's credentials `file` for that server")
	fs.DurationVar(&hc.AckWait, "ackwait", DefaultAckWait, "with -listen or -nats: how long a silent worker keeps a game pair before it is played elsewhere")
}

// Serving reports whether the run is served to workers (Listen or URL given).
func (hc *HostConfig) Serving() bool { return hc.Listen != "" || hc.URL != "" }
