package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	shard := filepath.Join(dir, "shard1.jsonl")
	// Records for the stats example, from a short real match of fake engines.
	if recs, out, err := playMatchTo(t, shard, append(append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...),
		"-each", "st=0.05", "fractional=true", "-rounds", "2", "-openings", "plies=2")...); err != nil || len(recs) != 4 {
		t.Fatalf("making records: %v\n%s", err, out)
	}
	shard2, _ := os.ReadFile(shard)
	os.WriteFile(filepath.Join(dir, "shard2.jsonl"), shard2, 0o644)

	for _, args := range cmds {
		name := strings.Join(args, " ")
		for i, a := range args {
			a = strings.Trim(a, `"`)
			a = strings.ReplaceAll(a, "configs/", "../../configs/")
			a = strings.ReplaceAll(a, "./my-engine", os.Args[0])
			switch {
			case strings.HasSuffix(a, "shard1.jsonl"), strings.HasSuffix(a, "shard2.jsonl"):
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
			case "check":
				// "PROG ARGS" is one argument in the shell; rejoin what the quotes held.
				engine := strings.Join(args[2:], " ")
				if err := run(context.Background(), []string{"check", "-engine", engine, "-games", "1", "-plies", "6"}, &stdout, &stderr); err != nil {
					t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
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
