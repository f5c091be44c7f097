package main

import (
	"context"
	"fmt"
	"io"

	"hivearbiter/internal/cli"
	"hivearbiter/pool"
)

// runServerUser is "server user": the pool's persons, asked of the server with the admin's
// credential (so on the server's machine, or wherever admin.creds is).
func runServerUser(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("server user", serverUsage, stderr)
	dir := fs.String("dir", "arbiter-pool", "the server's `directory`")
	role := fs.String("role", "user", "with add: the person's `role` (user, approver or admin)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	req, err := pool.ParsePeople(fs.Args(), *role)
	if err != nil {
		return cli.Usage(err)
	}
	c, err := poolClient(*dir, pool.RoleAdmin, "")
	if err != nil {
		return err
	}
	defer c.Close()
	out, err := c.People(ctx, req)
	if err != nil {
		return err
	}
	switch req.Op {
	case "add":
		fmt.Fprintf(stdout, "%s added (%s). Password, shown once: %s\nLog in on the dashboard and change it on the account page.\n", req.Name, *role, req.Password)
	case "token":
		fmt.Fprintf(stdout, "%s\n", out.Token)
	default:
		return pool.WritePeople(stdout, out.People)
	}
	return nil
}
