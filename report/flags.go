package report

import "flag"

// Register defines on fs the flags of a command that show a run as pages: -report, -http and
// -http-public set File, HTTP and Public.
func (o *RunOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.File, "report", "", "keep an HTML report of the games so far in this `file`, rewritten as games finish")
	fs.StringVar(&o.HTTP, "http", "", "serve a live page of the run at this `address`, e.g. 127.0.0.1:8080 (read-only; loopback only unless -http-public)")
	fs.BoolVar(&o.Public, "http-public", false, "allow -http on an address other than loopback")
}
