package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"hivearbiter/configs"
	"hivearbiter/internal/cli"
	"hivearbiter/pool"
	"hivearbiter/ratinglist"
	"hivearbiter/ratinglist/site"
	"hivearbiter/results"
)

const serverUsage = `server [-dir DIR] [-listen HOST:PORT] [-http ADDR] [-list LIST.toml] [flags]
server worker add NAME [-dir DIR] [-o FILE]
server worker revoke NAME [-dir DIR]
server workers [-dir DIR] [-json]
server runs [-dir DIR] [-json]
server runs approve|pause|resume|stop|delete RUN [-dir DIR] [-token-file FILE]
server runs priority RUN N [-share W] [-dir DIR] [-token-file FILE]
server runs exclude RUN WORKER [-dir DIR] [-token-file FILE]
server runs audit RUN [-dir DIR] [-json]
server user add NAME [-role user|approver|admin] [-dir DIR]
server user list|accept|block|token NAME [-dir DIR]
server user role NAME ROLE [-dir DIR]

Keeps a pool of runs for long-lived workers: SPRT tests, matches and gauntlets submitted with
"arbiter submit", each with a priority and a share of the workers. A worker stays connected
across runs and plays the run that is most behind its share (arbiter worker -creds FILE, with
the file "server worker add" writes). Runs' state is in a JetStream key-value bucket, and each
run's records are the JSON Lines of a local run, in DIR/runs/RUN.jsonl: arbiter stats and
arbiter report read them as they are. A server killed and started again goes on where it was.

With -list LIST.toml (repeatable) the server keeps a rating list (see arbiter list -h): it plays
the list's gauntlets as runs of the pool, appending their games to the list's records file,
and rewrites the list's site as the games arrive. The list's file is read again before each
batch: an entrant added to it (a new version) is checked and plays its gauntlet by itself.
When every entrant is done, or one is refused, the server waits for the file to change.

The server writes DIR/submitter.creds (for arbiter submit and "server runs") and
DIR/admin.creds (for "server worker" and "server workers"); the other commands find them in
-dir. "worker revoke" shuts a worker out within a second: its connection is closed and its key
refused from then on.

People: with -http, the dashboard has accounts (register, log in, a token for the command line)
and the write side: submission, and approve, pause, resume, stop and priority, each by role
(user, approver, admin). An approver takes a worker's games out of a run ("runs exclude", or
the run's manage page): they leave DIR/runs/RUN.jsonl for DIR/runs/RUN.excluded.jsonl, the
other workers play them again, and the worker plays the run no more. The first admin is added on the server's machine with
"server user add NAME -role admin", which prints a password to change on the account page. A
person's token given to submit and "server runs" (-token-file, or $ARBITER_TOKEN) names them as
who submits or controls: -require-token makes it required, -approve-runs makes users' runs wait
for an approver, -max-runs limits each user's runs. See docs/pool-people.md.`

func runServer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "worker":
			return runServerWorker(ctx, args[1:], stdout, stderr)
		case "workers":
			return runServerWorkers(ctx, args[1:], stdout, stderr)
		case "runs":
			return runServerRuns(ctx, args[1:], stdout, stderr)
		case "user":
			return runServerUser(ctx, args[1:], stdout, stderr)
		}
	}
	fs := newFlagSet("server", serverUsage, stderr)
	var cfg pool.Config
	bindPoolServer(fs, &cfg)
	httpAddr := fs.String("http", "", "serve the pool's pages (a dashboard of runs, lists and workers, a page per run, the lists' sites), with accounts, submission and control, on `ADDR` (loopback unless -http-public)")
	public := fs.Bool("http-public", false, "let -http listen on an address other machines reach")
	var lists []string
	fs.Func("list", "keep the rating list of `LIST.toml`: play its gauntlets on the pool (repeatable)", func(path string) error {
		lists = append(lists, path)
		return nil
	})
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	for _, path := range lists {
		if _, err := configs.ReadList(path, builtinResolver); err != nil {
			return cli.Usage(err)
		}
	}
	cfg.Console = stdout
	srv, err := pool.Start(ctx, cfg)
	if err != nil {
		return err
	}
	defer srv.Close()
	for _, path := range lists {
		if err := keepList(srv, path); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "Pool server at %s; submit with: arbiter submit -creds %s ...; add a worker with: arbiter server worker add NAME -dir %s\n",
		srv.URL(), pool.CredsPath(cfg.Dir, pool.RoleSubmitter), cfg.Dir)
	if *httpAddr != "" {
		dash, err := pool.ServeDashboard(ctx, srv, *httpAddr, *public)
		if err != nil {
			return cli.Usage(err)
		}
		defer dash.Close()
		fmt.Fprintf(stdout, "Dashboard at http://%s/\n", dash.Addr())
	}
	<-ctx.Done()
	return nil
}

// keepList hands a rating list to the pool's server, which reads its file again before each
// batch and rewrites its site as games arrive.
func keepList(srv *pool.Server, path string) error {
	return srv.KeepList(pool.List{
		Path:    path,
		Read:    func() (*ratinglist.List, error) { return configs.ReadList(path, builtinResolver) },
		Self:    ratinglist.ThisArbiter(),
		Written: func(l *ratinglist.List, recs []results.Record) error { return site.WriteFrom(l.Site, l, recs) },
	})
}

// poolClient connects with the credentials of a role that the server wrote in its directory.
func poolClient(dir, role, creds string) (*pool.Client, error) {
	c, err := pool.ConnectAs(dir, role, creds)
	if errors.As(err, new(*pool.CredentialsError)) {
		return nil, cli.Usage(err)
	}
	return c, err
}

func runServerWorker(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("server worker", serverUsage, stderr)
	dir := fs.String("dir", "arbiter-pool", "the server's `directory`")
	out := fs.String("o", "", "write the worker's credentials to `FILE` (default NAME.creds)")
	if len(args) < 2 || (args[0] != "add" && args[0] != "revoke") {
		return cli.Usage(errors.New("want: server worker add NAME, or server worker revoke NAME"))
	}
	verb, name := args[0], args[1]
	if err := cli.Parse(fs, args[2:]); err != nil {
		return err
	}
	c, err := poolClient(*dir, pool.RoleAdmin, "")
	if err != nil {
		return err
	}
	defer c.Close()
	if verb == "revoke" {
		if err := c.RevokeWorker(ctx, name); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Worker %s revoked\n", name)
		return nil
	}
	creds, err := c.AddWorker(ctx, name)
	if err != nil {
		return err
	}
	path := cmp.Or(*out, name+".creds")
	if err := creds.Save(path); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Worker %s added: copy %s to it and run: arbiter worker -creds %s\n", name, path, filepath.Base(path))
	return nil
}

func runServerWorkers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("server workers", serverUsage, stderr)
	dir := fs.String("dir", "arbiter-pool", "the server's `directory`")
	asJSON := fs.Bool("json", false, "print the workers as JSON")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	c, err := poolClient(*dir, pool.RoleAdmin, "")
	if err != nil {
		return err
	}
	defer c.Close()
	ws, err := c.Workers(ctx)
	return writeStatus(stdout, *asJSON, ws, err, pool.WriteWorkers)
}

func runServerRuns(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("server runs", serverUsage, stderr)
	dir := fs.String("dir", "arbiter-pool", "the server's `directory`")
	creds := fs.String("creds", "", "a submitter's credentials `file` (default DIR/submitter.creds)")
	asJSON := fs.Bool("json", false, "print the runs as JSON")
	share := fs.Float64("share", 0, "with priority: the run's new share of the workers")
	tokenFile := fs.String("token-file", "", "a `file` holding your token, which names you as who controls the run (default: $"+pool.TokenEnv+")")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	words := fs.Args()
	audit := len(words) > 0 && words[0] == "audit"
	var ctl *pool.Control
	var err error
	if audit && len(words) != 2 {
		return cli.Usage(errors.New("want: server runs audit RUN"))
	} else if !audit {
		if ctl, err = pool.ParseControl(words, *share); err != nil {
			return cli.Usage(err)
		}
	}
	c, err := poolClient(*dir, pool.RoleSubmitter, *creds)
	if err != nil {
		return err
	}
	defer c.Close()
	switch {
	case audit: // who submitted, approved, paused, resumed, stopped and reprioritized it, and when
		trail, err := c.Audit(ctx, words[1])
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, trail)
		}
		return pool.WriteAudit(stdout, trail)
	case ctl != nil:
		if ctl.Token, err = pool.ReadToken(*tokenFile); err != nil {
			return cli.Usage(err)
		}
		st, err := c.Control(ctx, *ctl)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Run %s: %s\n", st.ID, st.State)
		if ctl.Action == "exclude" && len(st.Excluded) > 0 {
			ex := st.Excluded[len(st.Excluded)-1]
			fmt.Fprintf(stdout, "Worker %s taken out: %d games of %d pairs, played again by the other workers\n", ex.Worker, ex.Games, len(ex.Pairs))
		}
		return nil
	}
	runs, err := c.Runs(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, runs)
	}
	pool.WriteRuns(stdout, runs)
	return nil
}

// writeStatus writes the workers' status that a server or a coordinator answered (err, if it
// did not): as JSON with asJSON, else as write's table of it now.
func writeStatus[T any](stdout io.Writer, asJSON bool, status T, err error, write func(io.Writer, T, time.Time)) error {
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(stdout, status)
	}
	write(stdout, status, time.Now())
	return nil
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
