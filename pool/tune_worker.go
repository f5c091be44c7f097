package pool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"golang.org/x/sync/errgroup"

	"hivearbiter/arbiter"
	"hivearbiter/distributed"
	"hivearbiter/openings"
	"hivearbiter/tune"
)

// playTune plays a tune run's pairs, Concurrency at a time, each taken from the server with
// its perturbation and opening, until the batch is over or the server has no more (the tune
// is complete, paused or stopped), and says how many it played. The engines are the run's, started as the local tuner
// starts them and given each pair's values as options (tune.Pairs).
func (w *Worker) playTune(ctx context.Context, nc *nats.Conn, a *Assignment) (played int, err error) {
	local, err := w.engines(ctx, nc, a)
	if err != nil {
		return 0, err
	}
	engines, err := distributed.TuneEngines(a.RunEngines, local)
	if err != nil {
		return 0, err
	}
	if len(engines) != 1 {
		return 0, fmt.Errorf("pool: a tune of %d engines", len(engines))
	}
	cfg := *a.Tune
	// The server sends each pair's opening: the worker needs no book.
	cfg.Engine, cfg.Openings, cfg.Out, cfg.Concurrency = engines[0], openings.Config{}, "", w.Concurrency
	cfg.Start = arbiter.StartThroughProtocol(w.TranscriptDir)
	pairs, err := tune.NewPairs(cfg)
	if err != nil {
		return 0, err
	}
	var count atomic.Int64
	w.printf("Worker %s tunes %s in run %s with %d slots\n", w.Name, pairs.Engine(), a.Run, w.Concurrency)
	until := time.Now().Add(max(a.Batch, time.Second))
	g, gctx := errgroup.WithContext(ctx)
	for slot := range w.Concurrency {
		g.Go(func() error {
			seats := pairs.Seats(slot)
			defer seats.Close(gctx)
			if slot == 0 && !w.SkipBench {
				// As for a match: the engine measured once, on the player the slot then tunes;
				// the measure reaches the server when the worker next asks.
				w.benches.measure(gctx, seats, pairs.Engine())
			}
			for time.Now().Before(until) && gctx.Err() == nil {
				if err := w.tunePair(gctx, nc, a.Run, pairs, seats, &count); err != nil {
					if gctx.Err() != nil {
						return nil
					}
					return ignoreOver(err)
				}
			}
			return nil
		})
	}
	err = ignoreOver(g.Wait())
	return int(count.Load()), err
}

// errTuneOver ends a worker's slot: the server has no more pairs of the tune for it.
var errTuneOver = errors.New("pool: the tune has no more pairs")

func ignoreOver(err error) error {
	if errors.Is(err, errTuneOver) || errors.Is(err, arbiter.ErrInterrupted) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// tunePair takes one pair from the server, plays it and sends its result. A result the server
// does not count (the server restarted, or the pair was answered by another worker) is dropped:
// the server hands out again any pair it has not counted. One refused because this worker's
// engine is not the run's ends the worker's play of the run, which it then cannot play (a
// *distributed.RefusedError, see cannotPlay): it took pair after pair, each refused.
func (w *Worker) tunePair(ctx context.Context, nc *nats.Conn, run string, pairs *tune.Pairs, seats *arbiter.Seats, played *atomic.Int64) error {
	var p TunePair
	if err := request(ctx, nc, tuneSubject(verbTake, w.Name), TuneTake{Run: run}, &p, takeTimeout); err != nil {
		return errTuneOver // the server is away: ask again for work, as after a run
	}
	switch {
	case p.Over:
		return errTuneOver
	case p.Ticket == "":
		select {
		case <-time.After(max(p.Wait, 100*time.Millisecond)):
		case <-ctx.Done():
		}
		return nil
	}
	stopRenew := w.renewTune(ctx, nc, run, p)
	recs, err := pairs.Play(ctx, seats, p.Perturbation, p.Opening, p.OpeningIndex)
	stopRenew()
	if err != nil {
		return err
	}
	played.Add(1)
	var ack TuneAck
	if err := request(ctx, nc, tuneSubject(verbResult, w.Name), TuneResult{Run: run, Ticket: p.Ticket, Records: recs}, &ack, resultTimeout); err != nil {
		w.printf("Worker %s: the result of iteration %d was not delivered: %v\n", w.Name, p.Perturbation.Iteration, err)
	} else if ack.WrongEngine {
		return &distributed.RefusedError{Reason: ack.Error}
	} else if ack.Error != "" {
		w.printf("Worker %s: the result of iteration %d was not counted: %s\n", w.Name, p.Perturbation.Iteration, ack.Error)
	}
	return nil
}

// renewTune tells the server, every p.Renew while the pair is played, that the worker still
// plays it; the returned function stops.
func (w *Worker) renewTune(ctx context.Context, nc *nats.Conn, run string, p TunePair) (stop func()) {
	if p.Renew <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		msg, _ := json.Marshal(TuneRenew{Run: run, Ticket: p.Ticket})
		tick := time.NewTicker(p.Renew)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				nc.Publish(tuneSubject(verbRenew, w.Name), msg)
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() { cancel(); <-done }
}

// How long a worker waits for the server to hand out a pair, and to acknowledge a result. The
// server answers at once; a request it never answers (it was killed) must not hold a slot
// long once the server is back.
const (
	takeTimeout   = 3 * time.Second
	resultTimeout = 5 * time.Second
)

// request sends v to subject and reads the answer into reply, waiting at most timeout.
func request(ctx context.Context, nc *nats.Conn, subject string, v, reply any, timeout time.Duration) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	m, err := nc.RequestWithContext(rctx, subject, b)
	if err != nil {
		return fmt.Errorf("pool: %s: %w", subject, err)
	}
	if err := json.Unmarshal(m.Data, reply); err != nil {
		return fmt.Errorf("pool: unreadable answer on %s: %w", subject, err)
	}
	return nil
}
