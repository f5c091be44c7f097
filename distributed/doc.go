// Package distributed spreads one run of the arbiter over machines with NATS JetStream: a
// coordinator that owns the run and its records file, and workers that play its game pairs.
//
// The coordinator is the tournament's arbiter.Runner: a distributed run is a local run whose
// games are played elsewhere. It queues the game pairs the tournament's dispatcher hands out
// as work items on a work-queue stream (a window of them, in schedule order), each game with
// the GameConfig the tournament gives it, and answers a worker's hello with the run's engines
// and settings, so that a worker builds exactly the game a local run would. Workers pull
// pairs, play them with their own engines, publish each game's record on a results stream and
// only then acknowledge the pair; a worker that dies leaves its pair unacknowledged, and
// JetStream hands it to another after the AckWait (a worker keeps a long pair with in-progress
// acknowledgements). The coordinator trusts no record: it replays the moves through the
// referee, checks the result and its reason against the final position and the game against
// the schedule, hands the record to the tournament's collector (which appends it to the
// records file, synced, and counts it) and only then acknowledges it. Duplicates (a pair
// played again, the queue of a coordinator that restarted) are recognised by game index: the
// records file is the truth, and a restarted coordinator rebuilds the queue from it.
//
// A run's engine is the run's: a worker's own engines (matched by name) say only where the
// program is (command, directory, environment, and the arguments that are local paths, see
// driver.IsLocalPath); arguments, options, protocol settings and time control are the run's,
// and a worker whose engines would change them is refused before any game, as is one whose
// engines report another id line or hash to another program. A worker's slot seats its players
// with arbiter.Seats, the seat pool of a local run: the same start, expansion check, restarts
// and close. A pool's worker may play the run's time limits scaled by its speed
// (Worker.TimeScale, OpenBench's time scaling): its records keep the run's limit, which the
// coordinator checks, and say the limit played and the factor.
//
// The collector feeds the SPRT in schedule order, as in a local run, so a distributed run
// decides at the same pair as a local one on the same games; at a bound the coordinator
// purges the work queue and tells the workers to stop.
//
// Security: with an embedded server the coordinator generates the workers' credentials (a user
// and a random password, written with the server's address and, off loopback, the server's
// self-signed certificate into one file) and grants them only their run's subjects: pulling and
// acknowledging its work, publishing its results, hello, heartbeats and status. Faults an engine
// commits (crash, time loss) cannot be checked by replaying moves; they are counted per worker,
// and a worker whose results are improbable against the others' is flagged (a chi-square test,
// as fishtest does). All workers of a run share one user, so a worker's name is what it says it
// is; its rights, not its name, are what the server enforces.
package distributed
