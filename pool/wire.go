package pool

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/pool/artifact"
	"hivearbiter/results"
	"hivearbiter/tune"
)

// The pool's own subjects, beside the runs' (under "arbiter.RUN.", see distributed).
const (
	subjectSubmit  = "arbiterpool.submit"
	subjectRuns    = "arbiterpool.runs.list"
	subjectControl = "arbiterpool.runs.control"
	subjectWorkers = "arbiterpool.workers.list"
	subjectAdd     = "arbiterpool.workers.add"
	subjectRevoke  = "arbiterpool.workers.revoke"
)

func assignSubject(worker string) string { return "arbiterpool.assign." + worker }

// bucket is the key-value bucket of the runs' state: "run.ID" the RunState, "sub.ID" the
// Submission.
const bucket = "ARBITER_POOL"

// Submission is a run as a submitter hands it to the server: the configuration "arbiter
// match" would play, and how the pool should schedule it.
type Submission struct {
	Config arbiter.Config `json:"config"`
	// Expect are the identities of the run's engines, as the submitter's machine found them
	// (distributed.Identify): workers whose engines differ are refused. An engine given as an
	// artifact has no SHA256 here: the artifact's names its program.
	Expect []distributed.EngineIdentity `json:"expect"`
	// Openings is the content of Config.Openings.File, which the server keeps beside the run.
	Openings []byte `json:"openings,omitempty"`
	// Priority: runs of a higher priority get workers first.
	Priority int `json:"priority"`
	// Share is the run's weight among runs of its priority (1 if 0).
	Share float64 `json:"share"`
	// Platforms are the worker platforms ("os/arch") that can play the run; empty: any.
	// Until engines are artifacts, submit gives its own.
	Platforms []string `json:"platforms,omitempty"`
	// Manifests are, per engine of Config.Engines, the artifact that is its program (see
	// pool/artifact): the zero Manifest for an engine the workers start as the run names it.
	Manifests []artifact.Manifest `json:"manifests,omitempty"`
	// Tune, if set, makes the run a tune of its engine (Config.Engines' only one): see
	// pool/tune.go.
	Tune *tune.Config `json:"tune,omitempty"`
	// Scale, if set, scales the run's limits on each worker by its speed (see TimeScale).
	Scale *TimeScale `json:"scale,omitempty"`
	// Records, for a batch of a rating list the server keeps (pool/list.go), is the list's
	// records file: the run appends to it beside the list's other batches
	// (Config.SharedRecords), not to DIR/runs/RUN.jsonl. Only the server sets it: a
	// submitter's submission that names a file of the server's is refused.
	Records string `json:"records,omitempty"`
	// Token is a person's token for the command line (see people.go): the server checks it,
	// names the person in Person, and keeps neither it nor a Person the request gave.
	Token string `json:"token,omitempty"`
	// Person is who submitted the run, as the server found them: "" for the submitter's
	// credential alone, or a run of the server's own (a list's batch).
	Person string `json:"person,omitempty"`
	// Note is the submitter's word on what the run tests.
	Note string `json:"note,omitempty"`
}

// The states of a run.
const (
	StateActive   = "active"   // its pairs are queued for workers
	StatePaused   = "paused"   // kept, with no pairs queued
	StateFinished = "finished" // complete, or the SPRT decided
	StateStopped  = "stopped"  // stopped by a submitter before its end
	StateFailed   = "failed"   // the server could not go on with it (see Reason)
)

// RunState is a run as the pool keeps it, in the key-value bucket.
type RunState struct {
	ID      string   `json:"id"`
	Format  string   `json:"format"`
	Engines []string `json:"engines"`
	// Seeds are, of a gauntlet, how many engines at the front play all the others: whose
	// results the tables count (see RunView).
	Seeds     int       `json:"seeds,omitempty"`
	Priority  int       `json:"priority"`
	Share     float64   `json:"share"`
	Platforms []string  `json:"platforms,omitempty"`
	State     string    `json:"state"`
	Reason    string    `json:"reason,omitempty"`
	Submitted time.Time `json:"submitted"`
	Ended     time.Time `json:"ended,omitzero"`
	// Records is the path of its records file on the server.
	Records   string `json:"records"`
	Scheduled int    `json:"scheduled"`
	// Summary is the results so far, as "arbiter stats -json" gives them.
	Summary *results.Summary `json:"summary,omitempty"`
	// Submitter is the person who submitted the run ("" for the submitter's credential alone).
	Submitter string `json:"submitter,omitempty"`
	// Rate is games per second recorded since the server (re)started the run, for its ETA.
	Rate float64 `json:"rate"`
	// TakenOut are the pairs taken out of the run after too many rejected results: they are
	// not played again, across restarts of the server too.
	TakenOut []distributed.TakenOut `json:"taken_out,omitempty"`
	// Values are a tune's values now (at its end, its outcome), as option words.
	Values string `json:"values,omitempty"`
	// Workers are the statistics of the run's workers (games, faults, rejected results, the
	// chi-square flags), kept across restarts of the server.
	Workers []distributed.WorkerStats `json:"workers,omitempty"`
	// Fit says, of an active run, which of the pool's current workers can play it and why
	// each other cannot (its platforms, its artifacts' platform and runtime, what the worker
	// found when it tried), as the server judged at its submission and at each listing.
	Fit []WorkerFit `json:"fit,omitempty"`
	// Unplayable says why no current worker can play an active run, "" while one can: a run
	// that waits says why.
	Unplayable string `json:"unplayable,omitempty"`
	// Scale is the run's time scaling, if it has one (see TimeScale), and Scales the factor
	// each current worker that can play it plays its limits at.
	Scale  *TimeScale    `json:"scale,omitempty"`
	Scales []WorkerScale `json:"scales,omitempty"`
	// Excluded are the workers a person took out of the run (Control "exclude"), with their
	// games: those left the records file for RUN.excluded.jsonl beside it, and the worker
	// plays the run no more.
	Excluded []Exclusion `json:"excluded,omitempty"`
}

// Exclusion is a worker taken out of a run, by whom and when, and the games of its that left
// the run's records (played again by others).
type Exclusion struct {
	Worker string    `json:"worker"`
	By     string    `json:"by,omitempty"` // "" for the submitter's credential alone
	At     time.Time `json:"at"`
	Games  int       `json:"games"`
	// Pairs are the game pairs its games were of, in order.
	Pairs []int `json:"pairs,omitempty"`
}

// ExcludedWorkers are the names of the workers taken out of the run.
func (r *RunState) ExcludedWorkers() []string {
	var names []string
	for _, e := range r.Excluded {
		names = append(names, e.Worker)
	}
	return names
}

// Games is how many of its games the run has recorded.
func (r *RunState) Games() int {
	if r.Summary == nil {
		return 0
	}
	return r.Summary.Games
}

// Over reports whether the run will play no more.
func (r *RunState) Over() bool {
	return r.State == StateFinished || r.State == StateStopped || r.State == StateFailed
}

// Control is a submitter's word on a run.
type Control struct {
	ID     string `json:"id"`
	Action string `json:"action"` // approve, pause, resume, stop, delete, priority, exclude
	// Priority and Share, for "priority": the run's new ones (Share 0 keeps it).
	Priority int     `json:"priority"`
	Share    float64 `json:"share"`
	// Worker, for "exclude": the worker whose games are taken out of the run.
	Worker string `json:"worker,omitempty"`
	// Token names the person who asks (see Submission.Token).
	Token string `json:"token,omitempty"`
}

// ParseControl reads the words of a control of a run, "approve|pause|resume|stop|delete RUN",
// "priority RUN N" or "exclude RUN WORKER" (share, for priority, is the run's new share; 0 keeps it); no words are no
// control (nil): a listing of the runs.
func ParseControl(words []string, share float64) (*Control, error) {
	if len(words) == 0 {
		return nil, nil
	}
	switch words[0] {
	case "approve", "pause", "resume", "stop", "delete":
		if len(words) != 2 {
			return nil, fmt.Errorf("want: server runs %s RUN", words[0])
		}
		return &Control{Action: words[0], ID: words[1]}, nil
	case "priority":
		if len(words) != 3 {
			return nil, errors.New("want: server runs priority RUN N")
		}
		n, err := strconv.Atoi(words[2])
		if err != nil {
			return nil, fmt.Errorf("priority %q is not a whole number", words[2])
		}
		return &Control{Action: "priority", ID: words[1], Priority: n, Share: share}, nil
	case "exclude":
		if len(words) != 3 || words[2] == "" {
			return nil, errors.New("want: server runs exclude RUN WORKER")
		}
		return &Control{Action: "exclude", ID: words[1], Worker: words[2]}, nil
	}
	return nil, fmt.Errorf("unknown runs command %q (approve, pause, resume, stop, delete, priority, exclude)", words[0])
}

// Reply answers a submitter's or an admin's request.
type Reply struct {
	Error string     `json:"error,omitempty"`
	Run   *RunState  `json:"run,omitempty"`
	Runs  []RunState `json:"runs,omitempty"`
	// Workers are the pool's workers, for a listing.
	Workers []WorkerState `json:"workers,omitempty"`
}

// AssignRequest is a worker asking for work.
type AssignRequest struct {
	Worker   string   `json:"worker"`
	Slots    int      `json:"slots"`
	Cores    int      `json:"cores"`
	Platform string   `json:"platform"` // os/arch, or the worker's own tag
	Runtimes []string `json:"runtimes,omitempty"`
	// Unfit are runs this worker cannot play (its engines differ, or do not start), with why.
	Unfit map[string]string `json:"unfit,omitempty"`
	// Benches are how fast this worker runs the engines it has played, the latest first.
	Benches []EngineBench `json:"benches,omitempty"`
}

// Assignment answers an AssignRequest: a run to play for a while, or how long to wait.
type Assignment struct {
	Run string `json:"run,omitempty"`
	// Engines are the run's engine names, to match the worker's own -engine builds to.
	Engines []string `json:"engines,omitempty"`
	// RunEngines and Manifests are the run's engines and their artifacts, which the worker
	// fetches (see artifact.Store.WorkerEngines).
	RunEngines []driver.EngineConfig `json:"run_engines,omitempty"`
	Manifests  []artifact.Manifest   `json:"manifests,omitempty"`
	// Tune is the run's tune, when it is one: its pairs are taken from the server one by one.
	Tune *tune.Config `json:"tune,omitempty"`
	// GameType is the run's, which the worker's measures of its engines play.
	GameType string `json:"game_type,omitempty"`
	// Scale, if set, scales the run's limits by the worker's speed (see TimeScale).
	Scale *TimeScale `json:"scale,omitempty"`
	// Batch is how long the worker plays the run before it asks again.
	Batch time.Duration `json:"batch,omitempty"`
	Wait  time.Duration `json:"wait,omitempty"`
}

// WorkerState is what the pool knows of a worker.
type WorkerState struct {
	Name     string `json:"name"`
	Revoked  bool   `json:"revoked,omitempty"`
	Slots    int    `json:"slots"`
	Cores    int    `json:"cores"`
	Platform string `json:"platform"`
	// Runtimes are the runtimes of scripted engines it has (python3, node, sh).
	Runtimes []string  `json:"runtimes,omitempty"`
	Run      string    `json:"run,omitempty"`
	LastSeen time.Time `json:"last_seen,omitzero"`
	// Batch is how long the server lets a worker play a run before it asks again (its
	// -batch; DefaultBatch when 0): a worker not seen for longer (and a minute) is gone.
	Batch time.Duration `json:"batch,omitempty"`
	// Games, Faults and Rejected are summed over its runs since the server started; Flagged
	// says a run's chi-square test found its results improbable.
	Games    int      `json:"games"`
	Faults   int      `json:"faults"`
	Rejected int      `json:"rejected"`
	Flagged  []string `json:"flagged,omitempty"`
	Unfit    []string `json:"unfit,omitempty"`
	// Outdated says why the server cannot answer the worker: an arbiter from before each
	// user had an inbox of its own asks for answers where it may not receive them.
	Outdated string `json:"outdated,omitempty"`
	// Benches are how fast it runs the engines it has played (see EngineBench).
	Benches []EngineBench `json:"benches,omitempty"`
}

// AddWorker asks the server to let a worker in with the public half of its NKey.
type AddWorker struct {
	Name string `json:"name"`
	NKey string `json:"nkey"`
}
