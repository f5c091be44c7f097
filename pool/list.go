package pool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/ratinglist"
	"hivearbiter/results"
)

// Defaults of a kept list's waits.
const (
	// DefaultListEvery is how often, at most, a list's site is rewritten while a batch plays:
	// a site of 100,000 games takes seconds to write.
	DefaultListEvery = 10 * time.Second
	// DefaultListPoll is how often the keeper looks at the list's file while it waits for it
	// to change.
	DefaultListPoll = 5 * time.Second
	// listRetry is how long the keeper waits before it tries again after a failure that a
	// change of the list's file would not mend (a batch's submission that failed, a run of
	// a batch that a submitter stopped).
	listRetry = time.Minute
	// runPoll is how often the keeper looks at its batch's run while it plays.
	runPoll = 200 * time.Millisecond
)

// List is a rating list that the server keeps (arbiter server -list): the server plays its
// batches (ratinglist.Next) as runs of the pool, which the workers play like any other, each
// batch's run appending to the list's one records file (Submission.Records), and goes on
// until every entrant is done; then it waits for the list's file to change. An entrant added
// to the file (a new version) enters by itself: it is checked, plays its gauntlet and is
// rated. A server killed and started again finds the run of the batch it was playing in the
// pool, resumed from the records, and goes on with the same batches.
type List struct {
	// Path is the list's file, whose changes the keeper waits for when the list has nothing
	// to play or cannot go on.
	Path string
	// Read reads the list's file (configs.ReadList). It is read again before each batch.
	Read func() (*ratinglist.List, error)
	// Self is the arbiter's own binary, which identifies built-in entrants (ratinglist.Self).
	Self ratinglist.Self
	// Check enters an entrant before its first game, on the server's machine
	// (ratinglist.CheckEntrant if nil).
	Check func(ctx context.Context, e ratinglist.Entrant) (report string, err error)
	// Written is given the list and all its records when the keeper starts, as a batch's
	// games arrive (at most once every Every) and after each batch: to rewrite the list's
	// site. An error is printed; the list plays on.
	Written func(l *ratinglist.List, recs []results.Record) error
	// Every is how often, at most, Written is called while a batch plays (DefaultListEvery
	// if 0).
	Every time.Duration
	// Poll is how often the list's file is looked at while the keeper waits for it to change
	// (DefaultListPoll if 0).
	Poll time.Duration
}

// ErrClosed is asked of a server that is closing.
var ErrClosed = errors.New("pool: the server is closing")

// KeepList reads a list once, to refuse one that cannot be read, and keeps it until the
// server closes: a goroutine of the server's, which Close waits for.
func (s *Server) KeepList(l List) error {
	if l.Read == nil || l.Path == "" {
		return errors.New("pool: a kept list needs its file and a way to read it")
	}
	first, err := l.Read()
	if err != nil {
		return err
	}
	if l.Every <= 0 {
		l.Every = DefaultListEvery
	}
	if l.Poll <= 0 {
		l.Poll = DefaultListPoll
	}
	// Counted as a handler, so that Close, which waits for handlers before the runs' own
	// goroutines, never waits for those while one is being added.
	if !s.enter() {
		return ErrClosed
	}
	defer s.handlers.Done()
	k := &listKeeper{s: s, cfg: l, name: first.Name}
	s.runWG.Go(func() { k.keep(s.ctx) })
	return nil
}

// listKeeper plays one list's batches.
type listKeeper struct {
	s    *Server
	cfg  List
	name string
	// said is the last problem printed: a problem met again and again is printed once.
	said string
	// written is the records file as the site was last written from (see batch); the zero
	// stamp before the keeper first writes it.
	written fileStamp
	// stale is the last run found finished when its batch was to be played (see play).
	stale string
}

func (k *listKeeper) printf(format string, args ...any) {
	k.s.printf("List %s: %s", k.name, fmt.Sprintf(format, args...))
}

// Write prints the Runner's lines (its batches, its checks) as the server's.
func (k *listKeeper) Write(p []byte) (int, error) {
	k.printf("%s", p)
	return len(p), nil
}

// keep plays batches until ctx ends, waiting for the list's file to change whenever there is
// nothing to play or the list cannot go on as its file is.
func (k *listKeeper) keep(ctx context.Context) {
	for {
		stamp := k.stamp()
		played, err := k.batch(ctx)
		if ctx.Err() != nil {
			return
		}
		if played && err == nil {
			k.said = ""
			continue
		}
		// A list that cannot go on as its file is (an entrant refused by its check, a rebuilt
		// program under an old version, a file that does not read) waits for the file to
		// change; a batch the pool could not play is tried again after a while too.
		retry := time.Duration(0)
		var what string
		var failed *playError
		switch {
		case err == nil:
			what = "every entrant is done: waiting for new entrants in " + k.cfg.Path
		case errors.As(err, &failed):
			retry = listRetry
			what = fmt.Sprintf("%s; trying again in %s (or when %s changes)", driver.Message(failed.err), retry, k.cfg.Path)
		default:
			what = driver.Message(err) + "; waiting for " + k.cfg.Path + " to change"
		}
		if what != k.said {
			k.printf("%s\n", what)
			k.said = what
		}
		if !k.waitChange(ctx, stamp, retry) {
			return
		}
	}
}

// playError is a failure to play a batch on the pool, which may pass by itself.
type playError struct{ err error }

func (e *playError) Error() string { return e.err.Error() }
func (e *playError) Unwrap() error { return e.err }

// batch reads the list and its records and plays the next batch, if there is one; played says
// whether there was.
func (k *listKeeper) batch(ctx context.Context) (played bool, err error) {
	l, err := k.cfg.Read()
	if err != nil {
		return false, err
	}
	k.name = l.Name
	k.s.keepListSite(l)
	stamp := stampOf(l.Records)
	recs, err := ratinglist.ReadRecords(l.Records)
	if err != nil {
		return false, err
	}
	if err := l.IdentifyAll(k.cfg.Self, recs); err != nil {
		return false, err
	}
	// The site is written when the keeper starts, and whenever the records changed since it
	// was last written without a batch of the keeper's own to write them: a run resumed by a
	// server started again can finish its batch between this read and the Runner's, which
	// then finds nothing to play and writes nothing.
	if stamp != k.written {
		k.written = stamp
		k.write(l, recs)
	}
	if _, ok, err := ratinglist.Next(l, recs); err != nil || !ok {
		return false, err
	}
	r := &ratinglist.Runner{List: l, Console: k, Check: k.cfg.Check, Play: k.play(l), MaxBatches: 1,
		Played: func(recs []results.Record) error { k.write(l, recs); return nil }}
	_, err = r.Run(ctx)
	return true, err
}

// write gives the list's records to Written, printing its error.
func (k *listKeeper) write(l *ratinglist.List, recs []results.Record) {
	if k.cfg.Written == nil {
		return
	}
	if err := k.cfg.Written(l, recs); err != nil {
		k.printf("writing its site: %s\n", driver.Message(err))
	}
}

// play is the Runner's Play: the batch's tournament as a run of the pool, submitted unless
// the pool has it already (a server started again finds the run of the batch it was playing),
// and waited for.
func (k *listKeeper) play(l *ratinglist.List) func(ctx context.Context, cfg arbiter.Config) (*arbiter.Outcome, error) {
	return func(ctx context.Context, cfg arbiter.Config) (*arbiter.Outcome, error) {
		t, err := arbiter.NewTournament(cfg, arbiter.TournamentOptions{})
		if err != nil {
			return nil, err
		}
		id := t.Run()
		st, ok := k.s.lookup(id)
		if ok && st.State == StateFinished {
			// The pool played this batch, yet the list's records lack its games (the file
			// was replaced or cut short): the run goes, and the batch is played again into
			// the records as they are. Once: a run that ends again without its games is a
			// fault to show, not to loop on.
			if k.stale == id {
				return nil, &playError{fmt.Errorf("pool: the run %s of the list's batch finished, but the list's records %s do not hold its games", id, l.Records)}
			}
			k.stale = id
			k.printf("the run %s of batch %s finished before, but the list's records do not hold its games: it is played again\n", id, cfg.Labels[ratinglist.LabelBatch])
			if err := k.delete(id); err != nil {
				return nil, &playError{err}
			}
			ok = false
		}
		if !ok {
			if err := k.submit(ctx, t.Config()); err != nil {
				return nil, &playError{err}
			}
		}
		return k.wait(ctx, l, id)
	}
}

// submit hands a batch to the pool as arbiter submit would: each engine identified by
// starting it once here and uploaded as an artifact, and the run's records the list's file.
func (k *listKeeper) submit(ctx context.Context, cfg arbiter.Config) error {
	expect, err := distributed.Identify(ctx, cfg.Engines, cfg.GameType, cfg.StartTimeout)
	if err != nil {
		return err
	}
	sub := &Submission{Config: cfg, Expect: expect, Share: 1}
	if sub.Records, err = filepath.Abs(cfg.Out); err != nil {
		return fmt.Errorf("pool: %w", err)
	}
	if f := cfg.Openings.File; f != "" {
		if sub.Openings, err = os.ReadFile(f); err != nil {
			return fmt.Errorf("pool: %w", err)
		}
	}
	if sub.Manifests, sub.Config.Engines, err = k.s.store.UploadEngines(ctx, cfg.Engines); err != nil {
		return err
	}
	for i, m := range sub.Manifests {
		if m.SHA256 != "" {
			sub.Expect[i].SHA256 = "" // the artifact's hash names the program (as in arbiter submit)
		}
	}
	// As a submitter's request is: not admitted once the server is closing.
	if !k.s.enter() {
		return ErrClosed
	}
	defer k.s.handlers.Done()
	_, err = k.s.Submit(sub)
	return err
}

// delete takes a run out of the pool, as a submitter's delete does.
func (k *listKeeper) delete(id string) error {
	if !k.s.enter() {
		return ErrClosed
	}
	defer k.s.handlers.Done()
	_, err := k.s.Control(Control{ID: id, Action: "delete"})
	return err
}

// wait waits for a batch's run to end, giving the records to Written as its games arrive. A
// paused run is waited for; one stopped or failed ends the batch with an error.
func (k *listKeeper) wait(ctx context.Context, l *ratinglist.List, id string) (*arbiter.Outcome, error) {
	tick := time.NewTicker(runPoll)
	defer tick.Stop()
	games, wrote := -1, time.Time{}
	for {
		st, ok := k.s.lookup(id)
		switch {
		case !ok:
			return nil, &playError{fmt.Errorf("pool: the run %s of the list's batch was deleted", id)}
		case st.State == StateFinished:
			return &arbiter.Outcome{Run: id, Scheduled: st.Scheduled}, nil
		case st.Over():
			return nil, &playError{fmt.Errorf("pool: the run %s of the list's batch is %s (%s): delete it (arbiter server runs delete %s) and the list plays the batch again",
				id, st.State, st.Reason, id)}
		}
		if g := st.Games(); g != games && k.cfg.Written != nil && time.Since(wrote) >= k.cfg.Every {
			recs, err := ratinglist.ReadRecords(l.Records)
			if err != nil {
				k.printf("reading its records: %s\n", driver.Message(err))
			} else {
				k.write(l, recs)
			}
			games, wrote = g, time.Now()
		}
		select {
		case <-ctx.Done():
			return &arbiter.Outcome{Run: id, Interrupted: true}, ctx.Err()
		case <-tick.C:
		}
	}
}

// fileStamp is what tells a file changed: its size and modification time.
type fileStamp struct {
	size int64
	mod  time.Time
	err  string
}

func (k *listKeeper) stamp() fileStamp { return stampOf(k.cfg.Path) }

// stampOf is the stamp of the file at path (one that cannot be read has its error).
func stampOf(path string) fileStamp {
	info, err := os.Stat(path)
	if err != nil {
		return fileStamp{err: err.Error()}
	}
	return fileStamp{size: info.Size(), mod: info.ModTime()}
}

// waitChange waits until the list's file differs from stamp, or retry has passed (if not 0);
// false when ctx ended first.
func (k *listKeeper) waitChange(ctx context.Context, stamp fileStamp, retry time.Duration) bool {
	tick := time.NewTicker(k.cfg.Poll)
	defer tick.Stop()
	start := time.Now()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
		if k.stamp() != stamp || (retry > 0 && time.Since(start) >= retry) {
			return true
		}
	}
}
