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
		Packages: []string{"openings"},
		Only:     []string{"rules", "results", "elo"},
		Why:      "a run's openings (read from a file or a shipped book, or drawn at random) and the generation of books need only the referee and the records' PGN reader, so that the arbiter can import them; the evaluators, which link the search or start engines, live in `openings/evaluate`, above the arbiter",
	},
	{
		Packages: []string{"results"},
		Only:     []string{"elo"},
		Why:      "records, PGN and tables are data about games, readable without the arbiter that plays them",
	},
	{
		Packages: []string{"arbiter/driver"},
		Only:     []string{"rules", "elo", "results", "internal/lines", "internal/proc"},
		Why:      "the driver package is what a protocol implements (database/sql/driver's shape): the player and protocol interfaces, the registry and the words they share; it plays no game and runs no tournament, so a protocol that imports it links nothing of the arbiter's machinery through it",
	},
	{
		Packages: []string{"arbiter"},
		Only:     []string{"arbiter/driver", "rules", "elo", "results", "openings", "internal/lines", "internal/proc"},
		Why:      "the referee library never imports a protocol, an engine or a front end: protocols register themselves with it (database/sql's shape), so what links the arbiter links no UHP client and no search; of the plumbing it uses the supervisor's and the line reader's errors, to adjudicate every protocol's failures in one place, and the supervisor's CPU pinning (-affinity)",
	},
	{
		Packages: []string{"arbiter/compliance", "arbiter/arbitertest"},
		Only:     []string{"arbiter/...", "rules", "elo", "results", "openings", "internal/lines", "internal/proc"},
		Why:      "the compliance suites play an engine through the arbiter's own game loop, and the in-process test player is checked by them; like the arbiter, they name no protocol and no front end",
	},
	{
		Packages: []string{"ratinglist", "ratinglist/ratinglisttest"},
		Only:     []string{"ratinglist", "arbiter/...", "rules", "elo", "results", "openings", "internal/lines", "internal/proc"},
		Why:      "a rating list is its conditions, its entrants and the arbiter's records of its games, rated with `elo`: it plays through the arbiter and its protocol registry, never naming a protocol, an engine or a runner",
	},
	{
		Packages: []string{"ratinglist/site"},
		Only:     []string{"ratinglist", "arbiter/...", "rules", "elo", "results", "openings", "internal/lines", "internal/proc"},
		Not:      []string{"github.com/nats-io/..."},
		Why:      "a list's pages are made from its table and its records alone (of the arbiter only what package ratinglist links), so that any machine can write them",
	},
	{
		Packages: []string{"ci"},
		Only:     []string{"results", "elo", "arbiter/...", "rules", "openings", "internal/lines", "internal/proc"},
		Not:      []string{"github.com/nats-io/..."},
		Why:      "what a CI job reads is worded from what other packages computed (`results`' summaries and tables, `elo`'s SPRT, the arbiter's check results; of the arbiter only what it links): ci plays nothing, so it links no protocol, no runner, no engine kit and no NATS",
	},
	{
		Packages: []string{"uhpclient"},
		Only:     []string{"rules", "internal/lines", "internal/proc"},
		Why:      "a client of the UHP protocol, usable without the arbiter; `proto/uhp` puts it behind the player seam",
	},
	{
		Packages: []string{"ugiclient"},
		Only:     []string{"rules", "results", "elo", "internal/lines", "internal/linepeer", "internal/proc"},
		Why:      "a client of the UGI protocol, usable without the arbiter (of the records only the search information it reads); `proto/ugi` puts it behind the player seam",
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
		Except:   []string{},
		Not:      []string{"arbiter", "arbiter/arbitertest"},
		Why:      "a protocol implements `arbiter/driver` and checks engines with `arbiter/compliance`, the boundary every protocol imports; it never reaches into the arbiter's games and tournaments itself (its tests may)",
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
		Packages: []string{"rules", "elo", "results", "arbiter/...", "configs", "uhpclient", "proto/...", "enginekit/...", "openings/...", "report", "viewerbridge", "tune/..."},
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
		Packages: []string{"cmd/arbiter"},
		Except:   []string{"protocols.go"},
		Not:      []string{"proto/...", "uhpclient", "ugiclient"},
		Why:      "the command starts players through the protocol registry and never names a protocol; `protocols.go` links the protocols in for their side effect",
	},
	{
		Packages: []string{"cmd/arbiter"},
		Needs:    []string{"proto/..."},
		Why:      "each protocol registers itself when it is linked, so a protocol that the binary did not link would be an unknown proto= to its users",
	},
	{
		Packages: []string{"cmd/hivebot", "internal/hivebotcmd"},
		Only:     []string{"enginekit/...", "rules", "internal/hivebotcmd"},
		Not:      []string{"github.com/nats-io/..."},
		Why:      "the bundled engine as a binary of its own is an engine: the engine author's side and the referee, with its command line (`internal/hivebotcmd`, which the arbiter's hidden hivebot command runs too), never the arbiter that judges it nor NATS",
	},
}
