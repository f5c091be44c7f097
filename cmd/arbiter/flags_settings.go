package main

import (
	"flag"

	"hivearbiter/ci"
	"hivearbiter/configs"
	"hivearbiter/distributed"
	"hivearbiter/internal/cli"
	"hivearbiter/pool"
	"hivearbiter/report"
	"hivearbiter/tune/tuneconfig"
	"hivearbiter/viewerbridge"
)

// The flags below set the settings structs of the packages that run what the flags ask; the
// struct, filled with its package's defaults, gives each flag its default (see cli.Bind).

// bindHost binds the flags of a command that serves its run to workers.
func bindHost(fs *flag.FlagSet, h *distributed.HostConfig) {
	h.AckWait = distributed.DefaultAckWait
	cli.Bind(fs, "listen", &h.Listen, "serve the run to workers (arbiter worker) from an embedded NATS server on `HOST:PORT`; TLS unless loopback")
	cli.Bind(fs, "nats", &h.URL, "serve the run to workers through an existing NATS server at `URL` (with -creds)")
	cli.Bind(fs, "creds", &h.CredsFile, "with -nats: the coordinator's credentials `file` for that server")
	cli.Bind(fs, "ackwait", &h.AckWait, "with -listen or -nats: how long a silent worker keeps a game pair before it is played elsewhere")
}

// bindPages binds the flags of a command that shows a run as pages.
func bindPages(fs *flag.FlagSet, o *report.RunOptions) {
	cli.Bind(fs, "report", &o.File, "keep an HTML report of the games so far in this `file`, rewritten as games finish")
	cli.Bind(fs, "http", &o.HTTP, "serve a live page of the run at this `address`, e.g. 127.0.0.1:8080 (read-only; loopback only unless -http-public)")
	cli.Bind(fs, "http-public", &o.Public, "allow -http on an address other than loopback")
}

// bindGateReports binds a gate's -junit and -summary, or for arbiter check (checks) -junit alone.
func bindGateReports(fs *flag.FlagSet, r *ci.Reports, checks bool) {
	*r = ci.NewReports()
	if checks {
		cli.Bind(fs, "junit", &r.JUnit, "also write the checks as JUnit XML to this `file`: a test case per row")
		return
	}
	cli.Bind(fs, "junit", &r.JUnit, "also write the outcome as JUnit XML to this `file` (a gate: one test case, failed with the decision and the reason)")
	cli.Bind(fs, "summary", &r.Summary, "also write a Markdown summary (result block, SPRT, misbehaviour) to this `file`; under GitHub Actions it is appended to $GITHUB_STEP_SUMMARY by itself")
}

// bindPoolServer binds the flags of a pool's server.
func bindPoolServer(fs *flag.FlagSet, c *pool.Config) {
	*c = pool.DefaultConfig()
	cli.Bind(fs, "dir", &c.Dir, "the server's `directory`: its NATS store, credentials and runs")
	cli.Bind(fs, "listen", &c.Listen, "the embedded NATS server's `HOST:PORT` (TLS unless loopback)")
	cli.Bind(fs, "tls", &c.TLS, "speak TLS on a loopback listener too")
	cli.Bind(fs, "nats", &c.NATS, "use the existing NATS server at `URL` instead of an embedded one")
	cli.Bind(fs, "creds", &c.CredsFile, "the server's credentials `file` for -nats")
	cli.Bind(fs, "ackwait", &c.AckWait, "how long a silent worker keeps a game pair")
	cli.Bind(fs, "batch", &c.Batch, "how long a worker plays a run before it asks where it is most needed")
	p := &c.People
	cli.Bind(fs, "require-token", &p.RequireToken, "refuse submissions and controls that name no person by a token (arbiter submit -token-file)")
	cli.Bind(fs, "approve-runs", &p.ApproveRuns, "users' runs wait for an approver before workers play them")
	cli.Bind(fs, "max-runs", &p.MaxActive, "how many runs a user may have in the pool at once (negative: no limit)")
	cli.Bind(fs, "http-secure-cookies", &p.SecureCookies, "mark the session cookie Secure over plain HTTP too (behind a TLS proxy)")
}

// bindSubmission binds a submitter's flags, worded for a run or, with tune, for a tune.
func bindSubmission(fs *flag.FlagSet, f *pool.SubmitFlags, tune bool) {
	*f = pool.DefaultSubmitFlags()
	what, fallback := "run", "those its engines' artifacts run on"
	if tune {
		what, fallback = "tune", "those its engine's artifact runs on"
	}
	cli.Bind(fs, "creds", &f.Creds, "a submitter's credentials `file` (the server's DIR/submitter.creds)")
	cli.Bind(fs, "priority", &f.Priority, "runs of a higher priority get workers first")
	cli.Bind(fs, "share", &f.Share, "the run's weight among runs of its priority")
	cli.Bind(fs, "token-file", &f.TokenFile, "a `file` holding your token from the dashboard's account page, which names you as the submitter (default: $"+pool.TokenEnv+")")
	cli.Bind(fs, "platform", &f.Platforms, "only workers of these platforms (`OS/ARCH`, comma-separated) play the "+what+" (default: "+fallback+")")
	if !tune {
		cli.Bind(fs, "scale-nps", &f.ScaleNPS, "scale each worker's clocks and times per move by this reference speed (`NPS`) over its bench of the engines, as OpenBench does (0: no scaling)")
		cli.Bind(fs, "scale-by", &f.ScaleBy, "whose bench is the worker's speed with -scale-nps: `base` (the second engine), dev (the first) or both (the mean of their factors)")
	}
}

// bindSPRTCalc binds the flags of arbiter sprt-calc, and returns the settings they set.
func bindSPRTCalc(fs *flag.FlagSet) *configs.SPRTCalc {
	c := configs.DefaultSPRTCalc()
	cli.Bind(fs, "ptnml", &c.PTNML, "pair counts LL,LD,WL+DD,WD,WW")
	cli.Bind(fs, "wdl", &c.WDL, "game counts W,D,L")
	cli.Bind(fs, "draw-ratio", &c.DrawRatio, "without counts: the share of games drawn, for the expected cost")
	cli.Bind(fs, "elo0", &c.Elo0, "H0: the Elo difference is at most elo0")
	cli.Bind(fs, "elo1", &c.Elo1, "H1: the Elo difference is at least elo1")
	cli.Bind(fs, "alpha", &c.Alpha, "false positive rate")
	cli.Bind(fs, "beta", &c.Beta, "false negative rate")
	cli.Bind(fs, "model", &c.Model, "normalized or logistic (pentanomial and trinomial); bayesian, cutechess, legacy (trinomial)")
	cli.Bind(fs, "cap", &c.Cap, "the test's cap in game pairs (0: none): its error rates and length there, or the decision of counts that reach it")
	return &c
}

// bindServe binds the flags of arbiter serve, and returns the settings they set.
func bindServe(fs *flag.FlagSet) *viewerbridge.Flags {
	f := viewerbridge.DefaultFlags()
	cli.Bind(fs, "config", &f.ConfigFile, "TOML configuration `file` with two engines (see configs/)")
	cli.Bind(fs, "out", &f.Out, "JSON Lines `file` of game records (default arbiter-serve-<run>.jsonl)")
	cli.Bind(fs, "pgnout", &f.PGNOut, "append every game to this PGN `file` (MzingaViewer format)")
	cli.Bind(fs, "transcripts", &f.Transcripts, "write each engine's conversation to a file in this `dir`")
	cli.Bind(fs, "gametype", &f.GameType, "GameTypeString of a remote game whose viewer names none (default: every expansion both engines play)")
	cli.Bind(fs, "remote-side", &f.RemoteSide, "the viewer's side in a remote game that names none: white, black or alternate")
	cli.Bind(fs, "event", &f.Event, "event name for the PGN")
	cli.Bind(fs, "each", cli.Words, "engine settings applied to both engines (key=value words)")
	cli.Bind(fs, "engine", cli.Words, "an engine (key=value words); give two, White's first")
	return &f
}

// bindTune binds the flags of a tune, and returns the settings they set.
func bindTune(fs *flag.FlagSet) *tuneconfig.Flags {
	f := tuneconfig.DefaultFlags()
	cli.Bind(fs, "config", &f.ConfigFile, "TOML `file` describing the tune: a [tune] table (iterations, params, A, alpha, gamma), one [[engine]] and the run's settings; flags override it")
	cli.Bind(fs, "param", cli.Append(&f.Params), "a tuned option: `NAME,start,min,max,c_end,r_end` (an integer when start, min and max are); repeat for more")
	cli.Bind(fs, "params", &f.ParamsFile, "`file` of tuned options: in fishtest's form, one a line (NAME, int|float, start, min, max, c_end, r_end), or, for a .toml file, [[param]] tables (name, type, start, min, max, c_end, r_end)")
	cli.Bind(fs, "iterations", &f.Iterations, "game pairs to play, N: the gains reach c_end and r_end at the last (required)")
	cli.Bind(fs, "seed", &f.Seed, "seed of the perturbations, the rounding and the random openings")
	cli.Bind(fs, "A", f.SetA, "warm-up `A` of a_k = a/(A+k)^alpha, at least 0 (default N/10)")
	cli.Bind(fs, "alpha", &f.Alpha, "decay of the step gain a_k")
	cli.Bind(fs, "gamma", &f.Gamma, "decay of the perturbation c_k")
	cli.Bind(fs, "concurrency", &f.Concurrency, "game pairs played at once, each with its own engine processes")
	cli.Bind(fs, "out", &f.Out, "JSON Lines `file` of the tune's pairs; the same file resumes the tune (default tune-ENGINE-SEED.jsonl)")
	cli.Bind(fs, "maxplies", &f.MaxPlies, "draw after this many plies, opening included (0: no limit)")
	cli.Bind(fs, "repetitions", &f.Repetitions, "draw when a position occurs this many times, at least 2 (0: never)")
	bindAsMatch(fs, &f.GameType, &f.StartTimeout, &f.CommandTimeout, &f.DepthTimeout)
	cli.Bind(fs, "each", cli.Words, "engine settings (key=value words), merged under -engine's")
	cli.Bind(fs, "engine", cli.Words, "the engine tuned (key=value words, as match takes them)")
	return &f
}

// bindAsMatch binds the flags that tune says as match does (configs.RunSettings): -gametype,
// -openings and the engines' timeouts, in seconds.
func bindAsMatch(fs *flag.FlagSet, gameType *string, start, command, depth *float64) {
	for name, value := range map[string]any{"gametype": gameType, "start-timeout": start, "command-timeout": command, "depth-timeout": depth, "openings": cli.Words} {
		cli.Bind(fs, name, value, configs.RunSetting(name).Usage)
	}
}

// bindMatch binds the flags of a run as arbiter match takes them (configs.RunSettings), and
// returns the settings they set.
func bindMatch(fs *flag.FlagSet) *configs.Flags {
	var f configs.Flags
	for _, s := range configs.RunSettings {
		cli.Bind(fs, s.Flag, f.Value(s), s.Usage)
	}
	return &f
}

// parseMatch parses a run's flags, bound with bindMatch to fs, from args (their multi-word
// flags taken out), spelled as match, a TOML file or fastchess spells them.
func parseMatch(fs *flag.FlagSet, flags *configs.Flags, args []string) error {
	err := cli.Parse(fs, configs.Respell(args, func(name string) bool { return fs.Lookup(name) != nil }))
	flags.Given, flags.Args = cli.Given(fs), fs.Args()
	return err
}
