package pool

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"hivearbiter/distributed"
	"hivearbiter/pool/artifact"
)

// idleWait is how long a worker with nothing to play waits before it asks again.
const idleWait = 2 * time.Second

func (s *Server) onAssign(m *nats.Msg) {
	var req AssignRequest
	if err := json.Unmarshal(m.Data, &req); err != nil {
		respond(m, Assignment{Wait: idleWait})
		return
	}
	// The subject, which the worker's permissions bind to its key, names it; not the request.
	req.Worker = m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
	// On the pool's own NATS server, whose permissions keep each worker to its own inbox; an
	// existing one's (-nats) are its operator's, and may let a worker hear answers elsewhere.
	if s.ids != nil && !strings.HasPrefix(m.Reply, InboxPrefix(RoleWorker, req.Worker)+".") {
		// No answer can reach it: it is given no run, whose load it would seem to share,
		// and the server and its table say why.
		s.outdated(req.Worker, m.Reply, time.Now())
		return
	}
	respond(m, s.Assign(req, time.Now()))
}

// outdated notes a worker that asks for answers outside its own inbox: an arbiter from before
// each user had one, which the NATS server keeps from receiving them. It says so once.
func (s *Server) outdated(worker, reply string, now time.Time) {
	why := fmt.Sprintf("outdated: it asks for answers on %s, not on its own inbox %s.*, and gets none; upgrade its arbiter", reply, InboxPrefix(RoleWorker, worker))
	s.mu.Lock()
	w := s.workers[worker]
	if w == nil {
		w = &WorkerState{Name: worker}
		s.workers[worker] = w
	}
	first := w.Outdated == ""
	w.Outdated, w.LastSeen, w.Run = why, now, ""
	s.mu.Unlock()
	if first {
		s.printf("Worker %s is %s\n", worker, why)
	}
}

// Assign gives a worker the run it is most needed by: among the active runs its platform can
// play and it is fit for, those of the highest priority; among them the one whose workers'
// slots are fewest for its share. A worker flagged by a run's chi-square test is quarantined:
// it gets no run; a worker taken out of a run (Control "exclude") is not given it again.
func (s *Server) Assign(req AssignRequest, now time.Time) Assignment {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.workers[req.Worker]
	if w == nil {
		w = &WorkerState{Name: req.Worker}
		s.workers[req.Worker] = w
	}
	w.Slots, w.Cores, w.Platform, w.LastSeen, w.Run, w.Outdated = req.Slots, req.Cores, req.Platform, now, "", ""
	w.Runtimes = req.Runtimes
	w.Unfit = w.Unfit[:0]
	if req.Benches != nil {
		w.Benches = req.Benches
	}
	for id, why := range req.Unfit {
		w.Unfit = append(w.Unfit, id+": "+why)
	}
	for _, r := range s.runs {
		delete(r.assigned, req.Worker)
	}
	if len(s.flaggedIn(req.Worker)) > 0 {
		return Assignment{Wait: idleWait}
	}
	type candidate struct {
		r    *run
		load float64
	}
	var cands []candidate
	for id, r := range s.runs {
		if r.state.State != StateActive || r.cancel == nil || req.Unfit[id] != "" {
			continue
		}
		if slices.ContainsFunc(r.state.Excluded, func(e Exclusion) bool { return e.Worker == req.Worker }) {
			continue // taken out of it by a person
		}
		if len(r.state.Platforms) > 0 && !slices.Contains(r.state.Platforms, req.Platform) {
			continue
		}
		if runnable(r.sub, req) != nil {
			continue
		}
		slots := 0
		for _, a := range r.assigned {
			if a.until.After(now) {
				slots += a.slots
			}
		}
		cands = append(cands, candidate{r, float64(slots) / max(r.state.Share, 1e-9)})
	}
	if len(cands) == 0 {
		return Assignment{Wait: idleWait}
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.r.state.Priority != b.r.state.Priority {
			return a.r.state.Priority > b.r.state.Priority
		}
		if a.load != b.load {
			return a.load < b.load
		}
		return a.r.state.Submitted.Before(b.r.state.Submitted)
	})
	r := cands[0].r
	r.assigned[req.Worker] = assignment{slots: max(req.Slots, 1), until: s.assignmentEnd(now)}
	w.Run = r.state.ID
	a := Assignment{Run: r.state.ID, Engines: r.state.Engines, Batch: s.cfg.Batch}
	if r.sub != nil {
		a.RunEngines, a.Manifests, a.Tune = r.sub.Config.Engines, r.sub.Manifests, r.sub.Tune
		a.GameType, a.Scale = r.sub.Config.GameType, r.sub.Scale
		if r.sub.Tune != nil {
			a.GameType = r.sub.Tune.GameType
		}
	}
	return a
}

// assignmentEnd is when an assignment made (or kept) at now lapses: a batch, and time to ask
// again.
func (s *Server) assignmentEnd(now time.Time) time.Time { return now.Add(s.cfg.Batch + 30*time.Second) }

// flaggedIn lists the runs whose chi-square test flags the worker; s.mu is held.
func (s *Server) flaggedIn(worker string) []string {
	var runs []string
	for id, r := range s.runs {
		st := r.status()
		if st == nil || r.cancel == nil {
			continue
		}
		for _, ws := range st.Workers {
			if ws.Name == worker && ws.Flagged {
				runs = append(runs, id)
			}
		}
	}
	return runs
}

func (s *Server) onWorkers(m *nats.Msg) { respond(m, Reply{Workers: s.Workers()}) }

// Workers lists the pool's workers: those that asked for work since the server started, and
// those it knows by identity, with their games, faults and rejected results in the active
// runs.
func (s *Server) Workers() []WorkerState {
	s.idMu.Lock()
	known := map[string]bool{}
	if s.ids != nil {
		for name, u := range s.ids.Users {
			if u.Role == RoleWorker {
				known[name] = !u.Revoked.IsZero()
			}
		}
	}
	s.idMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	byName := map[string]*WorkerState{}
	for name, revoked := range known {
		byName[name] = &WorkerState{Name: name, Revoked: revoked}
	}
	for name, w := range s.workers {
		c := *w
		c.Revoked = c.Revoked || known[name]
		c.Unfit, c.Benches, c.Runtimes = slices.Clone(w.Unfit), slices.Clone(w.Benches), slices.Clone(w.Runtimes)
		byName[name] = &c
	}
	for id, r := range s.runs {
		st := r.status()
		if st == nil {
			continue
		}
		for _, ws := range st.Workers {
			w := byName[ws.Name]
			if w == nil {
				w = &WorkerState{Name: ws.Name}
				byName[ws.Name] = w
			}
			w.Games += ws.Games
			w.Faults += ws.Faults
			w.Rejected += ws.Rejected
			if ws.Flagged {
				w.Flagged = append(w.Flagged, id)
			}
		}
	}
	list := make([]WorkerState, 0, len(byName))
	for _, w := range byName {
		w.Batch = s.cfg.Batch
		list = append(list, *w)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list
}

// status is where the run stands with its workers: now, when its coordinator last stopped, or
// as the bucket kept it (a run the server has not started since it restarted); nil if none.
func (r *run) status() *distributed.Status {
	switch {
	case r.coord != nil:
		return r.coord.Status()
	case r.final != nil:
		return r.final
	case r.state.Workers != nil || r.state.TakenOut != nil:
		return &distributed.Status{Run: r.state.ID, Scheduled: r.state.Scheduled, Workers: r.state.Workers, TakenOut: r.state.TakenOut}
	}
	return nil
}

// runnable says why a worker cannot run a submission's artifacts (built for another
// platform, or needing a runtime it lacks), or nil.
func runnable(sub *Submission, req AssignRequest) error {
	if sub == nil {
		return nil
	}
	host := artifact.Host{Platform: req.Platform, Runtimes: req.Runtimes}
	for _, m := range sub.Manifests {
		if m.SHA256 == "" {
			continue
		}
		if err := host.Runnable(m); err != nil {
			return err
		}
	}
	return nil
}
