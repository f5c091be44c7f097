package deptest

// Rules are the module's import rules, each with its reason. A rule holds over a package's
// dependencies, not only its imports: what a package links through another counts.
// docs/architecture.md shows them (Markdown); change both with
// "go test ./internal/deptest -update-docs".
var Rules = []Rule{
	{
		Packages: []string{"rules", "elo"},
		StdOnly:  true,
		Why:      "the referee and the statistics are the base that everything else builds on, fast and checked against reference data alone",
	},
	{
		Packages: []string{"results/outcome"},
		StdOnly:  true,
		Why:      "the words a protocol and the referee share about a game's end and a move's search (why a game ended, a warning, an engine's search report) are a leaf: a protocol says them without linking the records, the statistics or their rendering",
	},
	{
		Packages: []string{"openings/random"},
		Only:     []string{"rules"},
		Why:      "a random opening is the referee's legal moves drawn at random: the compliance checks, which every protocol links, draw their positions as a run draws its openings, without the books and records of package `openings`",
	},
	{
		Packages: []string{"openings"},
		Only:     []string{"rules", "openings/random", "results", "results/outcome", "elo"},
		Why:      "a run's openings (read from a file or a shipped book, or drawn at random) and the generation of books need only the referee and the records' PGN reader, so that the arbiter can import them; the evaluators, which link the search or start engines, live in `openings/evaluate`, above the arbiter",
	},
	{
		Packages: []string{"results"},
		Only:     []string{"elo", "results/outcome"},
		Why:      "records, PGN, tallies and summaries are data about games, readable without the arbiter that plays them; their words and tables for people are `results/render`'s",
	},
	{
		Packages: []string{"results/render"},
		Only:     []string{"results/...", "elo"},
		Why:      "the result block, the tables and the verdicts are worded from the records' data and `elo`'s figures alone, so that the console, a CI job's summary, a rating list and a report show them alike",
	},
	{
		Packages: []string{"arbiter/driver"},
		Only:     []string{"rules", "results/outcome", "internal/lines", "internal/proc"},
		Why:      "the driver package is what a protocol implements (database/sql/driver's shape): the player and protocol interfaces, the registry and the words they share (`results/outcome`'s, not the records'); it plays no game and runs no tournament, so a protocol that imports it links nothing of the arbiter's machinery, no records and no statistics through it",
	},
	{
		Packages: []string{"arbiter"},
		Only:     []string{"arbiter/driver", "rules", "elo", "results/...", "openings", "openings/random", "internal/lines", "internal/proc"},
		Why:      "the referee library never imports a protocol, an engine or a front end: protocols register themselves with it (database/sql's shape), so what links the arbiter links no UHP client and no search; of the plumbing it uses the supervisor's and the line reader's errors, to adjudicate every protocol's failures in one place, and the supervisor's CPU pinning (-affinity)",
	},
	{
		Packages: []string{"arbiter/compliance"},
		Only:     []string{"arbiter/driver", "rules", "results/outcome", "openings/random", "internal/lines", "internal/proc"},
		Why:      "the compliance framework (sessions, rows, margins, fair timing, determinism, the Suite and PlayChecked interfaces) is what a protocol's check is written with, beside the driver package: every protocol links it, so it links no game loop, no tournament, no records and no statistics",
	},
	{
		Packages: []string{"arbiter/check", "arbiter/arbitertest"},
		Only:     []string{"arbiter/...", "rules", "elo", "results/...", "openings", "openings/random", "internal/lines", "internal/proc"},
		Why:      "the check that plays a protocol's players against the referee sits above the protocols (database/sql's conformance suites' place) and plays through the arbiter's own game loop, and the in-process test player is checked by it; like the arbiter, they name no protocol and no front end",
	},
	{
		Packages: []string{"ratinglist", "ratinglist/ratinglisttest"},
		Only:     []string{"ratinglist", "arbiter/...", "console", "rules", "elo", "results/...", "openings", "openings/random", "internal/lines", "internal/proc"},
		Why:      "a rating list is its conditions, its entrants and the arbiter's records of its games, rated with `elo`: it plays through the arbiter and its protocol registry, never naming a protocol, an engine or a runner, and prints its games through the console",
	},
	{
		Packages: []string{"ratinglist/site"},
		Only:     []string{"ratinglist", "arbiter/...", "console", "rules", "elo", "results/...", "openings", "openings/random", "internal/lines", "internal/proc"},
		Not:      []string{"github.com/nats-io/..."},
		Why:      "a list's pages are made from its table and its records alone (of the arbiter only what package ratinglist links), so that any machine can write them",
	},
	{
		Packages: []string{"console"},
		Only:     []string{"arbiter/...", "rules", "elo", "results/...", "openings", "openings/random", "internal/lines", "internal/proc"},
		Not:      []string{"github.com/nats-io/..."},
		Why:      "the console is a front end above the arbiter: it words what the arbiter tells its observers, and links only the arbiter and what the arbiter links, so that a match, a pool, a rating list and a distributed host share one console; it runs nothing and names no protocol",
	},
	{
		Packages: []string{"arbiter/..."},
		Not:      []string{"console"},
		Why:      "the arbiter prints nothing: it tells its observers what happens, as data (arbiter.EventObserver), and the console is one of its observers, a front end above it",
	},
	{
		Packages: []string{"ci"},
		Only:     []string{"results/...", "elo", "arbiter/...", "rules", "openings", "openings/random", "internal/lines", "internal/proc"},
		Not:      []string{"github.com/nats-io/..."},
		Why:      "what a CI job reads is worded from what other packages computed (`results`' summaries, `results/render`'s tables, `elo`'s SPRT, the arbiter's check results; of the arbiter only what it links): ci plays nothing, so it links no protocol, no runner, no engine kit and no NATS",
	},
	{
		Packages: []string{"uhpclient"},
		Only:     []string{"rules", "internal/lines", "internal/proc"},
		Why:      "a client of the UHP protocol, usable without the arbiter; `proto/uhp` puts it behind the player seam",
	},
	{
		Packages: []string{"ugiclient"},
		Only:     []string{"rules", "results/outcome", "internal/lines", "internal/linepeer", "internal/proc"},
		Why:      "a client of the UGI protocol, usable without the arbiter (of the records' words only the search information it reads, `results/outcome`'s); `proto/ugi` puts it behind the player seam",
	},
	{
		Packages: []string{"enginekit/..."},
		Only:     []string{"enginekit/...", "rules"},
		Why:      "the engine author's side builds engines; it never links the arbiter that judges them",
	},
	{
		Packages: []string{"internal/cli", "internal/proc", "internal/lines", "internal/linepeer", "internal/nodeipc", "internal/syncbuf", "internal/debugvars"},
		Only:     []string{"internal/proc", "internal/lines"},
		Why:      "plumbing carries bytes and processes for every protocol and command; it knows none of them",
	},
	{
		Packages: []string{"proto/..."},
		Not:      []string{"configs", "distributed", "pool/...", "report", "viewerbridge", "tune", "openings/evaluate", "enginekit/..."},
		Why:      "a protocol is a plug-in of the arbiter: it links the arbiter's driver and compliance packages and its transport, and nothing that reads settings, runs or shows matches",
	},
	{
		Packages: []string{"proto/..."},
		Not:      []string{"arbiter", "arbiter/arbitertest", "arbiter/check", "openings", "results", "elo"},
		Why:      "a protocol implements `arbiter/driver`, declares or writes its check with `arbiter/compliance` and says how a game ended in `results/outcome`'s words: it links none of the arbiter's games and tournaments, no books, no records and no statistics, directly or through another package (its tests may); the check that plays its players sits above it, in `arbiter/check`",
	},
	{
		Packages: []string{"configs"},
		Not:      []string{"viewerbridge", "tune/...", "distributed", "pool/...", "report", "openings/evaluate", "proto/...", "uhpclient", "ugiclient", "enginekit/..."},
		Why:      "configs turns files and words into the arbiter's types; the front ends and runners that take settings import configs, never the reverse",
	},
	{
		Packages: []string{"distributed"},
		Not:      []string{"configs", "tune/...", "pool/...", "viewerbridge", "report", "openings/evaluate", "proto/...", "uhpclient", "ugiclient", "enginekit/..."},
		Why:      "the runner of game pairs over NATS plays any protocol through the registry and reads no settings; a worker's -engine words are read by `configs`, and tunes are the pool's",
	},
	{
		Packages: []string{"pool/...", "report", "viewerbridge", "tune/...", "openings/evaluate"},
		Not:      []string{"proto/...", "uhpclient", "ugiclient"},
		Why:      "runners and front ends start players through the protocol registry (`driver.Start`), as a match does, and never name a protocol",
	},
	{
		Packages: []string{"rules", "elo", "results/...", "arbiter/...", "configs", "uhpclient", "proto/...", "enginekit/...", "openings/...", "report", "viewerbridge", "tune/...", "console"},
		Not:      []string{"github.com/nats-io/..."},
		Why:      "NATS is the transport of the distributed runner and the pool; a match on one machine does not link it",
	},
	{
		Packages: []string{"..."},
		Not:      []string{"internal/testkit/..."},
		Why:      "test helpers are linked into tests only",
	},
	{
		Packages: []string{"arbiter/arbitertest", "enginekit/uhpserver/uhpfake", "ratinglist/ratinglisttest", "rules/rulestest"},
		LinkedBy: []string{"internal/cmd/soak"},
		Why:      "fakes and fixtures are for tests, and the soak plays fake engines by the thousand; a binary that linked them would carry them to its users (`arbitertest` registers proto=test when it is linked)",
	},
	{
		Packages:   []string{"cmd/arbiter"},
		OwnImports: true,
		Not:        []string{"proto/...", "uhpclient", "ugiclient"},
		Why:        "the command starts players through the protocol registry and never names a protocol; it links them all through `internal/protocols`",
	},
	{
		Packages:   []string{"internal/protocols"},
		OwnImports: true,
		Only:       []string{"proto/..."},
		Why:        "the package that links every protocol for its side effect (each registers itself) imports the protocols and nothing else",
	},
	{
		Packages: []string{"internal/protocols"},
		LinkedBy: []string{"cmd/arbiter"},
		Why:      "only the arbiter binary links every protocol; a library that did would name them all, and runners and front ends start players through the registry",
	},
	{
		Packages: []string{"cmd/arbiter", "internal/protocols"},
		Needs:    []string{"proto/..."},
		Why:      "each protocol registers itself when it is linked, so a protocol that the binary did not link would be an unknown proto= to its users",
	},
	{
		Packages: []string{"cmd/hivebot/..."},
		Only:     []string{"enginekit/...", "rules", "cmd/hivebot/..."},
		Not:      []string{"github.com/nats-io/..."},
		Why:      "the bundled engine as a binary of its own is an engine: the engine author's side and the referee, with its command line (`cmd/hivebot/hivebotcmd`, which the arbiter's hidden hivebot command runs too), never the arbiter that judges it nor NATS",
	},
}
