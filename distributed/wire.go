package distributed

import (
	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
)

// The subjects and streams of a run. Everything a run uses is under "arbiter.RUN.", so one
// NATS cluster can serve several runs and a worker's permissions can be limited to its run's.
func workSubject(run string) string            { return "arbiter." + run + ".work" }
func resultsSubject(run, worker string) string { return "arbiter." + run + ".results." + worker }
func helloSubject(run string) string           { return "arbiter." + run + ".hello" }
func heartbeatSubject(run, worker string) string {
	return "arbiter." + run + ".heartbeat." + worker
}
func controlSubject(run string) string { return "arbiter." + run + ".control" }
func movesSubject(run, worker string) string {
	return "arbiter." + run + ".moves." + worker
}
func statusSubject(run string) string { return "arbiter." + run + ".status" }
func workStream(run string) string    { return "ARBITER_" + run + "_WORK" }
func resultsStream(run string) string { return "ARBITER_" + run + "_RESULTS" }

// workConsumer is the one durable consumer all workers of a run pull from; resultsConsumer is the
// coordinator's.
const (
	workConsumer    = WorkConsumer
	resultsConsumer = "coordinator"
)

// WorkConsumer is the name of every run's work consumer: a pool grants its workers pulling
// from any stream through a consumer of that name.
const WorkConsumer = "workers"

// AnyRun, as the run of WorkerSubjects, stands for every run: a pool's workers play the runs
// the pool's server assigns them, so their rights cannot name one.
const AnyRun = "*"

// WorkerSubjects are the subjects a worker publishes to and subscribes to in a run (AnyRun:
// every run) under its name (worker "*": any name): it pulls and acknowledges the run's work
// through WorkConsumer, publishes its results, greetings, heartbeats and moves, and hears the
// coordinator's control messages. They are written here only, beside the subjects themselves:
// a worker's rights, a run's own (WorkerPermissions) or a pool's (package pool), are built from
// them, so that a renamed subject cannot lock workers out.
func WorkerSubjects(run, worker string) (publish, subscribe []string) {
	ws := "*" // a JetStream API subject's stream is one token: any stream, for AnyRun
	if run != AnyRun {
		ws = workStream(run)
	}
	publish = []string{
		"$JS.API.CONSUMER.MSG.NEXT." + ws + "." + workConsumer,
		"$JS.API.CONSUMER.INFO." + ws + "." + workConsumer,
		"$JS.ACK." + ws + "." + workConsumer + ".>",
		resultsSubject(run, worker),
		helloSubject(run),
		heartbeatSubject(run, worker),
		movesSubject(run, worker),
	}
	return publish, []string{controlSubject(run)}
}

// RunStreams are the streams a run keeps on the NATS server.
func RunStreams(run string) []string { return []string{workStream(run), resultsStream(run)} }

// WorkItem is one game pair to play (or what remains of it): its games as the schedule lays
// them out, each with the configuration the tournament gives it, so that a worker builds
// exactly the game a local run would.
type WorkItem struct {
	Run   string     `json:"run"`
	Pair  int        `json:"pair"`
	Games []WorkGame `json:"games"`
}

// WorkGame is one game of a work item.
type WorkGame struct {
	Game   arbiter.ScheduledGame `json:"game"`
	Config arbiter.GameConfig    `json:"config"`
}

// RunSpec is what a worker needs to play a run's games: every setting that changes a game, and
// the engines as the run expects them. Where an engine's program is (command, directory,
// environment, the local paths among its arguments) is the worker's own business: its engines
// are matched by name. Everything else about an engine is the run's.
type RunSpec struct {
	Run            string                `json:"run"`
	Seed           int64                 `json:"seed"`
	GameType       string                `json:"game_type"`
	Scheduled      int                   `json:"scheduled"` // games in the schedule
	Adjudication   arbiter.Adjudication  `json:"adjudication"`
	StartTimeout   int64                 `json:"start_timeout_ns"`
	CommandTimeout int64                 `json:"command_timeout_ns"`
	DepthTimeout   int64                 `json:"depth_timeout_ns"`
	Engines        []driver.EngineConfig `json:"engines"`
	// Expect is the identity of each engine, in the order of Engines: a worker whose engines
	// differ is refused.
	Expect []EngineIdentity `json:"expect"`
	// OnEngineFailure is the run's policy for an engine that breaks: under "forfeit" an engine
	// that breaks on a worker forfeits its games there (see arbiter.Forfeits), as in a local
	// run; under "abort" (or empty) the worker leaves the run, which goes on with others.
	OnEngineFailure arbiter.FailurePolicy `json:"on_engine_failure,omitempty"`
}

// EngineIdentity is how a run tells builds of an engine apart: the engine's own id line and a
// SHA-256 of its program.
type EngineIdentity struct {
	Name   string `json:"name"`
	ID     string `json:"id"`
	SHA256 string `json:"sha256,omitempty"` // empty for a player reached over the network
}

// Hello is a worker's greeting: who it is and what engines it has.
type Hello struct {
	Worker  string           `json:"worker"`
	Slots   int              `json:"slots"`
	Engines []EngineIdentity `json:"engines"`
	// Unfit, if set, says why the worker cannot play the run, which it found itself (its
	// engines would change the run's, or cannot be seated): it says so and stops.
	Unfit string `json:"unfit,omitempty"`
}

// Welcome answers a Hello: the run's settings, or why the worker is refused.
type Welcome struct {
	Spec    *RunSpec `json:"spec,omitempty"`
	Refused string   `json:"refused,omitempty"`
	// Finished is set when the run is over: the worker has nothing to do.
	Finished bool `json:"finished,omitempty"`
}

// Result is a finished game as a worker publishes it.
type Result struct {
	Worker string          `json:"worker"`
	Record *results.Record `json:"record"`
	// Engines are the worker's engines' identities, checked on every result: a worker cannot
	// change its engines after its hello.
	Engines []EngineIdentity `json:"engines"`
}

// Heartbeat tells the coordinator a worker is alive and what it is playing.
type Heartbeat struct {
	Worker   string `json:"worker"`
	Slots    int    `json:"slots"`
	InFlight []int  `json:"in_flight"` // game indices being played
}

// Control is the coordinator's word to every worker of the run.
type Control struct {
	Stop   bool   `json:"stop"`
	Reason string `json:"reason"`
}

// MoveNote is a worker's word on a game as it is played, for the coordinator's live pages: the
// game started (Move nil, with its players), or a move played in it. Notes are not results:
// they are sent once, and lost when no one listens; the game's record is the truth.
type MoveNote struct {
	Game  int           `json:"game"`
	White string        `json:"white,omitempty"`
	Black string        `json:"black,omitempty"`
	Move  *results.Move `json:"move,omitempty"`
}
