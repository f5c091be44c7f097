package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/golden"
)

// readmeCommands returns the "arbiter ..." command lines of the README's shell examples, with
// continuation lines joined.
func readmeCommands(t *testing.T) [][]string {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var cmds [][]string
	inShell, pending := false, ""
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			inShell = true
			continue
		case strings.HasPrefix(line, "```"):
			inShell = false
			continue
		}
		if !inShell {
			continue
		}
		line, _, _ = strings.Cut(line, "#")
		pending += " " + strings.TrimSpace(line)
		if strings.HasSuffix(pending, `\`) {
			pending = strings.TrimSuffix(pending, `\`)
			continue
		}
		if fields := strings.Fields(pending); len(fields) > 1 && fields[0] == "arbiter" {
			cmds = append(cmds, fields[1:])
		}
		pending = ""
	}
	return cmds
}

// TestREADMEExamples runs every arbiter command the README shows. Engines that only exist on
// the reader's machine (./my-engine, ./new, ./old) are the test binary's fake engine; matches
// are checked as far as their configuration (playing them would take minutes).
func TestREADMEExamples(t *testing.T) {
	cmds := readmeCommands(t)
	if len(cmds) < 6 {
		t.Fatalf("found %d arbiter examples in the README", len(cmds))
	}
	dir := t.TempDir()
	// Records for the stats example: the two shards of a short real match of fake engines.
	shardGames := map[int]bool{}
	for k := 1; k <= 2; k++ {
		shard := filepath.Join(dir, fmt.Sprintf("shard%d.jsonl", k))
		recs, out, err := playMatchTo(t, shard, append(append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...),
			"-each", "st=0.05", "fractional=true", "-rounds", "4", "-maxplies", "100", "-openings", "plies=2", "-shard", fmt.Sprintf("%d/2", k))...)
		if err != nil || len(recs) != 4 {
			t.Fatalf("making records of shard %d/2: %d games, %v\n%s", k, len(recs), err, out)
		}
		for _, r := range recs {
			shardGames[r.Game] = true
		}
	}
	if len(shardGames) != 8 {
		t.Fatalf("the two shards played %d distinct games of the 8 scheduled", len(shardGames))
	}

	for _, args := range cmds {
		name := strings.Join(args, " ")
		for i, a := range args {
			a = strings.Trim(a, `"`)
			a = strings.ReplaceAll(a, "configs/", "../../configs/")
			a = strings.ReplaceAll(a, "./my-engine", os.Args[0])
			switch {
			case strings.HasSuffix(a, "shard1.jsonl"), strings.HasSuffix(a, "shard2.jsonl"), strings.HasSuffix(a, ".html"):
				a = filepath.Join(dir, a)
			case strings.HasPrefix(a, "-out") || strings.HasPrefix(a, "-pgnout"):
			}
			args[i] = a
		}
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			switch args[0] {
			case "match":
				if _, err := matchConfig(args[1:], &stderr); err != nil {
					t.Fatalf("%v\n%s", err, stderr.String())
				}
			case "serve":
				// A viewer's first moves, on the input serve reads.
				viewer := strings.NewReader("newgame Base+MLP\nplay wS1\nbestmove depth 1\nexit\n")
				if err := runServeSession(context.Background(), args[1:], viewer, &stdout, &stderr); err != nil {
					t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
				}
				if !strings.Contains(stdout.String(), "Base+MLP;InProgress;Black[1];wS1\nok\n") {
					t.Errorf("serve did not play the viewer's move:\n%s%s", stdout.String(), stderr.String())
				}
			case "check":
				// "PROG ARGS" is one argument in the shell; rejoin what the quotes held.
				engine := strings.Join(args[2:], " ")
				if err := run(context.Background(), []string{"check", "-engine", engine, "-games", "1", "-plies", "6"}, &stdout, &stderr); err != nil {
					t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
				}
			case "stats":
				if err := run(context.Background(), args, &stdout, &stderr); err != nil {
					t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
				}
				if !strings.Contains(stdout.String(), "8 games from 2 file(s)") {
					t.Errorf("stats did not merge the two shards:\n%s", stdout.String())
				}
			case "report":
				if err := run(context.Background(), args, &stdout, &stderr); err != nil {
					t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
				}
				if page, err := os.ReadFile(filepath.Join(dir, "report.html")); err != nil || !strings.Contains(string(page), "<svg") && !strings.Contains(string(page), "uPlot") {
					t.Errorf("report wrote no page: %v", err)
				}
			default:
				if err := run(context.Background(), args, &stdout, &stderr); err != nil {
					t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
				}
				if stdout.Len() == 0 {
					t.Fatal("no output")
				}
			}
		})
	}
}

var updateREADME = flag.Bool("update-readme", false, "rewrite the README's command reference from the -h texts")

// The README's command reference lies between these markers; TestREADMEHelp keeps it equal to
// what the binary prints.
const (
	referenceBegin = "<!-- command reference: generated by go test ./cmd/arbiter -run TestREADMEHelp -update-readme -->\n"
	referenceEnd   = "<!-- end of command reference -->\n"
)

// TestREADMEHelp checks that the README shows "arbiter -h" and every command's -h text exactly
// as the binary prints them, so that the two never drift apart.
func TestREADMEHelp(t *testing.T) {
	var want strings.Builder
	want.WriteString(referenceBegin)
	section := func(args []string) {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), args, &stdout, &stderr); err != nil && !errors.Is(err, errHelpShown) {
			t.Fatalf("arbiter %s: %v", strings.Join(args, " "), err)
		}
		help := stdout.String() + stderr.String()
		if !strings.HasPrefix(help, "Usage: arbiter") {
			t.Fatalf("arbiter %s printed no usage:\n%s", strings.Join(args, " "), help)
		}
		fmt.Fprintf(&want, "\n`arbiter %s`\n\n```text\n%s```\n", strings.Join(args, " "), help)
	}
	section([]string{"-h"})
	for _, c := range commands {
		if !c.hidden {
			section([]string{c.name, "-h"})
		}
	}
	want.WriteString("\n" + referenceEnd)

	const path = "../../README.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	begin, end := strings.Index(readme, referenceBegin), strings.Index(readme, referenceEnd)
	if begin < 0 || end < begin {
		t.Fatalf("the README has no command reference between %q and %q", referenceBegin, referenceEnd)
	}
	got := readme[begin : end+len(referenceEnd)]
	if got == want.String() {
		return
	}
	if *updateREADME {
		if err := os.WriteFile(path, []byte(readme[:begin]+want.String()+readme[end+len(referenceEnd):]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("the README's command reference (got) differs from the -h texts (want):\n%s"+
		"Run: go test ./cmd/arbiter -run TestREADMEHelp -update-readme", golden.Diff(want.String(), got))
}
