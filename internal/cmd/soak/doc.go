//go:build linux

// Command soak runs arbiter match for thousands of games under faults and checks that nothing
// was lost, doubled, misjudged or leaked. Run it from the repository's root:
//
//	nice -n 10 go run ./internal/cmd/soak -games 5000              # locally, at concurrency = cores
//	nice -n 10 go run ./internal/cmd/soak -games 1000 -workers 2   # through match -listen and workers
//
// It builds the arbiter and hivebot once, and plays a gauntlet: hivebot (depth 1 under a clock
// of 10 s a move, so that a time loss of its is a defect) against fake engines (package
// uhpfake; this binary is their program) that crash, get killed, hang, stall, answer late,
// flood their output, print a line over 1 MiB or leak memory, each at random in a few moves
// in a hundred, drawn from the seed and the position so that a run is reproducible, and one
// fake that behaves. Meanwhile it SIGKILLs the arbiter at random moments and starts the same
// command again, which resumes the run; in a distributed soak it kills the coordinator (and
// with it the embedded NATS server) and the workers, and restarts them.
//
// Once the run is over it checks and prints: every scheduled game recorded exactly once; every
// record replayed through the referee to its result and reason (distributed.Recheck, what a
// coordinator does to a worker's result) and read by arbiter stats; no time loss, nor any
// other fault, by a healthy engine; and the faults the fakes injected, by kind. Along the run
// it samples the arbiter's resident memory and open descriptors from /proc and its goroutines
// from the debug window the arbiter opens when ARBITER_DEBUG_VARS names an address; the
// samples must be flat, judged like with like: only samples of an arbiter at work, compared
// at the same number of engine processes, within a process and across the run (see flat.go);
// and no process may peak higher the more records it resumed from. It exits 1 when a check
// fails.
//
// With -pool it soaks a pool instead (docs/distributed.md, "A pool"): it starts arbiter
// server with its debug window, adds -workers workers with arbiter server worker add and
// starts them (arbiter worker -creds, each with a cache of its own), and hands -runs runs to
// the server with arbiter submit, -active at a time and the next as one ends: each a gauntlet
// of -run-games games of hivebot against the fakes, with a seed of its own, its engines
// uploaded as artifacts. It SIGKILLs the server and the workers at random and starts them
// again, as above. At the end it checks each run: the server says it finished with its
// scheduled games, its records file (DIR/runs/RUN.jsonl) holds each once and each replays
// through the referee, and arbiter server runs -json says what arbiter stats -json says of
// the file; once it has stopped the workers and the server (SIGTERM), no process it started,
// nor any engine of theirs, is left (see soak.leftovers). The server's samples are judged like the arbiter's, compared at the same
// number of active runs and workers, and asked a third question: does the quantity grow, in
// one process, with the runs that process finished?
//
//	nice -n 10 go run ./internal/cmd/soak -pool -runs 200 -active 3 -seed 28 -concurrency 1 \
//	    -kill-min 20s -kill-max 90s -worker-kill 15s -sample 250ms
//
// The short variant in CI is .ci/soak. The figures of the long runs are in docs/endurance.md.
// Linux only: it reads /proc.
package main
