// Package console is the arbiter's terminal front end: an arbiter.Observer that prints a
// tournament's run as lines (each game started and finished, an engine's first warnings, a
// resumed run, a stop, the hint that resumes an interrupted run), the result tables when they
// are due, and, on a terminal, a live status line redrawn in place under them. The arbiter
// prints nothing itself: it tells its observers what happens (see arbiter.EventObserver), and
// this package words it, as package report shows it on live pages. The command, the pool, the
// rating list and the distributed host attach an Observer; the arbiter never imports this
// package.
package console
