// Package console is the arbiter's terminal front end: an arbiter.Observer that prints a
// tournament's run as lines (each game started and finished, an engine's first warnings, a
// resumed run, a stop, the hint that resumes an interrupted run), the result tables when they
// are due, and, on a terminal, a live status line redrawn in place under them. The arbiter
// prints nothing itself: it tells its observers what happens (see arbiter.EventObserver), and
// this package words it, as package report shows it on live pages. It also writes the result
// tables (WriteStandings) and the run's first line (Banner). The command, the pool and the
// rating list attach an Observer, and give it to a distributed host as the console its
// coordinator prints through; the arbiter never imports this package.
package console
