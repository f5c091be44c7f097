package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hivearbiter/ci"
	"hivearbiter/internal/cli"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/internal/testkit/testenv"
)

// repoRoot is the repository's root, seen from this package's directory (where go test runs).
const repoRoot = "../.."

// docPages returns README.md, CHANGELOG.md and every Markdown page under docs/, as slash-separated paths
// relative to the repository root.
func docPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md", "CHANGELOG.md"}
	err := fs.WalkDir(os.DirFS(repoRoot), "docs", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			pages = append(pages, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// docExample is an "arbiter ..." command of a page's sh block.
type docExample struct {
	page string
	line int      // the line the command starts on
	args []string // after "arbiter"
}

// shellExamples returns the "arbiter ..." command lines of a page's sh blocks, with
// continuation lines joined and comments dropped. Blocks of other languages (text for examples
// that need several machines, ini, yaml) are not commands to run.
func shellExamples(page, text string) []docExample {
	var examples []docExample
	inShell, pending, start := false, "", 0
	for i, line := range strings.Split(text, "\n") {
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
		if pending == "" {
			start = i + 1
		}
		line, _, _ = strings.Cut(line, "#")
		pending += " " + strings.TrimSpace(line)
		if strings.HasSuffix(pending, `\`) {
			pending = strings.TrimSuffix(pending, `\`)
			continue
		}
		if fields := strings.Fields(pending); len(fields) > 1 && fields[0] == "arbiter" {
			examples = append(examples, docExample{page: page, line: start, args: fields[1:]})
		}
		pending = ""
	}
	return examples
}

func TestShellExamples(t *testing.T) {
	page := "text\n" +
		"```sh\n" +
		"arbiter match -engine cmd=./e \\\n" +
		"              -rounds 2   # a comment\n" +
		"go test ./...\n" +
		"\n" +
		"arbiter perft\n" + // one word after arbiter
		"arbiter stats a.jsonl\n" +
		"```\n" +
		"```text\n" +
		"arbiter worker -creds c\n" +
		"```\n" +
		"arbiter check outside a block\n"
	got := shellExamples("p.md", page)
	want := []docExample{
		{"p.md", 3, []string{"match", "-engine", "cmd=./e", "-rounds", "2"}},
		{"p.md", 7, []string{"perft"}},
		{"p.md", 8, []string{"stats", "a.jsonl"}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("shellExamples:\n got %v\nwant %v", got, want)
	}
}

// docsExamples returns the examples of every page.
func docsExamples(t *testing.T) []docExample {
	t.Helper()
	var all []docExample
	for _, page := range docPages(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot, page))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, shellExamples(page, string(data))...)
	}
	return all
}

// exampleArgs turns an example's words into the arguments the test runs: quotes gone, the
// repository's configs/ and docs/examples/ found from here, files written in dir, and engines
// that only exist on the reader's machine played by this test binary: ./my-engine is a fake
// UHP engine (it plays random moves when its first argument is --uhp), and ./my-ugi-engine is
// the bundled engine, which speaks UGI when spoken to in UGI.
func exampleArgs(words []string, dir string) []string {
	var args []string
	for _, a := range words {
		a = strings.Trim(a, `"`)
		a = strings.ReplaceAll(a, "configs/", repoRoot+"/configs/")
		a = strings.ReplaceAll(a, "docs/examples/", repoRoot+"/docs/examples/")
		if a == "cmd=./my-ugi-engine" {
			args = append(args, "cmd="+os.Args[0], "arg=hivebot")
			continue
		}
		a = strings.ReplaceAll(a, "./my-engine", os.Args[0])
		if a == "arg=bot.py" {
			a = "arg=" + filepath.Join(dir, "bot.py")
		}
		switch path.Ext(a) {
		case ".jsonl", ".html", ".pgn", ".json", ".creds":
			if !strings.ContainsAny(a, "/=") {
				a = filepath.Join(dir, a)
			}
		}
		args = append(args, a)
	}
	return args
}

// TestDocsExamples runs every arbiter command that the README and the docs show. Matches are
// checked as far as their configuration (playing them would take minutes); the commands of a
// worker, which needs a coordinator, are checked as far as their flags.
func TestDocsExamples(t *testing.T) {
	examples := docsExamples(t)
	if len(examples) < 20 {
		t.Fatalf("found %d arbiter examples in the docs", len(examples))
	}
	if examples[0].page != "README.md" {
		t.Fatalf("the README shows no arbiter command to run")
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

	// The Python bot of docs/protocols.md, for the examples that enter it as arg=bot.py.
	writeDocsBot(t, filepath.Join(dir, "bot.py"))

	for _, ex := range examples {
		args := exampleArgs(ex.args, dir)
		t.Run(fmt.Sprintf("%s:%d %s", ex.page, ex.line, strings.Join(ex.args, " ")), func(t *testing.T) {
			// A check runs the bot; a match example is checked as far as its configuration.
			if i := slices.Index(args, "cmd=python3"); i >= 0 && args[0] == "check" {
				args = slices.Clone(args)
				args[i] = "cmd=" + testenv.NeedPython(t)
			}
			runExample(t, args, dir)
		})
	}
}

// writeDocsBot writes the Python bot of docs/protocols.md, its only Python block, to path.
func writeDocsBot(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs/protocols.md"))
	if err != nil {
		t.Fatal(err)
	}
	bots := codeBlocks(string(data), "python")
	if len(bots) != 1 {
		t.Fatalf("docs/protocols.md has %d Python blocks, want the bot alone", len(bots))
	}
	if err := os.WriteFile(path, []byte(bots[0]), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runExample runs one example's arguments and checks what it did.
func runExample(t *testing.T, args []string, dir string) {
	var stdout, stderr bytes.Buffer
	switch args[0] {
	case "match":
		if _, err := matchConfig(args[1:], &stderr); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
	case "worker", "workers", "server", "submit":
		// Flags are parsed in order, so a -h after them shows the help only when every
		// flag before it was accepted.
		if err := run(context.Background(), append(args, "-h"), &stdout, &stderr); !errors.Is(err, cli.ErrHelpShown) {
			t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
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
		// "PROG ARGS" is one argument in the shell: rejoin what the quotes held. key=value
		// words are words.
		engine := args[2:]
		if !strings.Contains(engine[0], "=") {
			engine = []string{strings.Join(engine, " ")}
		}
		checkArgs := append(append([]string{"check", "-engine"}, engine...), "-games", "1", "-plies", "6")
		if err := run(context.Background(), checkArgs, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
		}
	case "stats", "sprt-calc":
		// With an SPRT, the exit status is the decision printed (0, 3 or 4), as in a match.
		err := run(context.Background(), args, &stdout, &stderr)
		want := ci.ExitOK
		if args[0] == "sprt-calc" || slices.Contains(args, "-sprt") {
			want = printedDecisionCode(t, stdout.String())
		}
		if code := exitCode(err, &stderr); code != want {
			t.Fatalf("exit code %d, want %d\n%s%s", code, want, stdout.String(), stderr.String())
		}
		if args[0] == "sprt-calc" {
			return
		}
		if !strings.Contains(stdout.String(), "8 games from 2 file(s)") {
			t.Errorf("stats did not merge the two shards:\n%s", stdout.String())
		}
	case "tune":
		// One pair of the tune shown, its records in dir for the report examples that follow;
		// games of 8 plies, as a depth-3 search under the race detector takes seconds a move.
		tuneArgs := append(slices.Clone(args), "-iterations", "1", "-concurrency", "1", "-maxplies", "8")
		if !slices.Contains(args, "-out") {
			tuneArgs = append(tuneArgs, "-out", filepath.Join(dir, "tune-hivebot.jsonl"))
		}
		if err := run(context.Background(), tuneArgs, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
		}
	case "report":
		if err := run(context.Background(), args, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
		}
		out := filepath.Join(dir, "report.html")
		if i := slices.Index(args, "-o"); i >= 0 && i+1 < len(args) {
			out = args[i+1]
		}
		if page, err := os.ReadFile(out); err != nil || !strings.Contains(string(page), "<svg") && !strings.Contains(string(page), "uPlot") {
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
}

// codeBlocks returns the contents of a page's fenced blocks of one language.
func codeBlocks(text, language string) []string {
	var blocks []string
	var block *strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		switch {
		case block == nil && strings.TrimSpace(line) == "```"+language:
			block = new(strings.Builder)
		case block != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, block.String())
			block = nil
		case block != nil:
			block.WriteString(line)
		}
	}
	return blocks
}

// TestDocsPythonBot plays the random bot that docs/protocols.md gives in Python, entered as
// the page's match example enters it, against the bundled engine: every move the bot makes
// must be legal and in time, the page's time: the bot answers at once, so its budget is the
// margin a loaded machine needs. Only the bundled engine is changed, to search to depth 1 in
// place of the page's think time, so that the games take seconds and no clock judges it: its
// speed is not what the test is about.
func TestDocsPythonBot(t *testing.T) {
	python := testenv.NeedPython(t)
	const page = "docs/protocols.md"
	data, err := os.ReadFile(filepath.Join(repoRoot, page))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bot := filepath.Join(dir, "bot.py")
	writeDocsBot(t, bot)
	var example []string
	for _, ex := range shellExamples(page, string(data)) {
		if ex.args[0] == "match" && slices.Contains(ex.args, "arg=bot.py") {
			example = ex.args
		}
	}
	if example == nil {
		t.Fatalf("%s has no match example with arg=bot.py", page)
	}
	var args []string
	hivebot := false // within the bundled engine's -engine words
	for _, a := range example[1:] {
		switch {
		case a == "-engine":
			hivebot = false
		case a == "builtin=hivebot":
			hivebot = true
		case a == "cmd=python3":
			a = "cmd=" + python
		case a == "arg=bot.py":
			a = "arg=" + bot
		case hivebot && strings.HasPrefix(a, "st="):
			a = "depth=1"
		}
		args = append(args, a)
	}
	if !slices.Contains(args, "depth=1") {
		t.Fatalf("%s: the match example gives the bundled engine no think time to replace: %q", page, example)
	}
	args = append(args, "-rounds", "1", "-maxplies", "30")
	recs, out, err := playMatchTo(t, filepath.Join(dir, "bot.jsonl"), args...)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d games, %v\n%s", len(recs), err, out)
	}
	for _, r := range recs {
		t.Logf("game %d: %d plies, %s %s %s", r.Game, len(r.Moves), r.Result, r.Reason, r.White.ID)
		if r.Culprit != "" {
			t.Errorf("game %d: %s %s: %s", r.Game, r.Result, r.Reason, r.Detail)
		}
		if len(r.Moves) < 10 {
			t.Errorf("game %d ended after %d plies: %s %s", r.Game, len(r.Moves), r.Reason, r.Detail)
		}
	}
}

// TestDocsServeSession plays the remote game of docs/serve.md through "arbiter serve" with
// hivebot at depth 1 (deterministic) on both sides, and checks that serve answers as the page
// says: the page's lines marked ">" are the viewer's, the others serve's answers.
func TestDocsServeSession(t *testing.T) {
	const page = "docs/serve.md"
	data, err := os.ReadFile(filepath.Join(repoRoot, page))
	if err != nil {
		t.Fatal(err)
	}
	var sessions []string
	for _, block := range codeBlocks(string(data), "text") {
		if strings.HasPrefix(block, "> ") {
			sessions = append(sessions, block)
		}
	}
	if len(sessions) != 1 {
		t.Fatalf("%s has %d viewer sessions, want 1", page, len(sessions))
	}
	var viewer, want strings.Builder
	for _, line := range strings.SplitAfter(sessions[0], "\n") {
		if typed, ok := strings.CutPrefix(line, "> "); ok {
			viewer.WriteString(typed)
		} else {
			want.WriteString(line)
		}
	}
	viewer.WriteString("exit\n")
	dir := t.TempDir()
	args := []string{"-engine", "builtin=hivebot", "name=hivebot", "depth=1", "-engine", "builtin=hivebot", "name=hivebot-2", "depth=1",
		"-out", filepath.Join(dir, "serve.jsonl")}
	var stdout, stderr bytes.Buffer
	if err := runServeSession(context.Background(), args, strings.NewReader(viewer.String()), &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	_, got, _ := strings.Cut(stdout.String(), "ok\n") // after the banner
	if got != want.String() {
		t.Errorf("serve answered (got) otherwise than %s says (want):\n%s", page, golden.Diff(want.String(), got))
	}
}

// TestWorkerFlagCheck shows that the check of a worker example can fail: a flag the worker
// does not know is refused before the -h that follows it.
func TestWorkerFlagCheck(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"worker", "-credz", "worker.creds", "-h"}, &stdout, &stderr)
	if errors.Is(err, cli.ErrHelpShown) || err == nil {
		t.Fatalf("a misspelled worker flag was accepted: %v\n%s", err, stderr.String())
	}
}

var updateDocs = flag.Bool("update-docs", false, "rewrite the command reference (docs/commands.md and docs/commands/) from the -h texts")

// The command reference of docs/commands.md lies between these markers, and each command's
// page, docs/commands/NAME.md, is generated whole; TestDocsCommandReference keeps them equal to
// what the binary prints.
const (
	commandsPage   = "docs/commands.md"
	commandsDir    = "docs/commands"
	referenceBegin = "<!-- command reference: generated by go test ./cmd/arbiter -run TestDocsCommandReference -update-docs -->\n"
	referenceEnd   = "<!-- end of command reference -->\n"
)

// commandReference is the generated part of docs/commands.md (a linked list of the commands,
// then "arbiter -h"), and the page of every command with its -h text, by file name.
func commandReference(t *testing.T) (string, map[string]string) {
	help := func(args []string) string {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), args, &stdout, &stderr); err != nil && !errors.Is(err, cli.ErrHelpShown) {
			t.Fatalf("arbiter %s: %v", strings.Join(args, " "), err)
		}
		text := stdout.String() + stderr.String()
		if !strings.HasPrefix(text, "Usage: arbiter") {
			t.Fatalf("arbiter %s printed no usage:\n%s", strings.Join(args, " "), text)
		}
		return fmt.Sprintf("`arbiter %s`\n\n```text\n%s```\n", strings.Join(args, " "), text)
	}
	var ref strings.Builder
	ref.WriteString(referenceBegin + "\n| command | what it does |\n|---|---|\n")
	pages := map[string]string{}
	for _, c := range arbiterProgram.Commands {
		if c.Hidden {
			continue
		}
		fmt.Fprintf(&ref, "| [`%s`](commands/%s.md) | %s |\n", c.Name, c.Name, strings.ReplaceAll(c.Summary, "|", `\|`))
		pages[c.Name+".md"] = fmt.Sprintf("# arbiter %s\n\n"+
			"<!-- generated by go test ./cmd/arbiter -run TestDocsCommandReference -update-docs -->\n\n"+
			"%s\n\nAll the commands: [the command reference](../commands.md).\n\n%s",
			c.Name, strings.ReplaceAll(c.Summary, "|", `\|`), help([]string{c.Name, "-h"}))
	}
	ref.WriteString("\n## arbiter\n\n" + help([]string{"-h"}))
	ref.WriteString("\n" + referenceEnd)
	return ref.String(), pages
}

// TestDocsCommandReference checks that docs/commands.md shows "arbiter -h" and links a page for
// every command, and that each page, docs/commands/NAME.md, shows the command's -h text exactly
// as the binary prints it, so that the two never drift apart; no other page is in
// docs/commands/.
func TestDocsCommandReference(t *testing.T) {
	want, pages := commandReference(t)
	file := filepath.Join(repoRoot, commandsPage)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	begin, end := strings.Index(text, referenceBegin), strings.Index(text, referenceEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s has no command reference between %q and %q", commandsPage, referenceBegin, referenceEnd)
	}
	const rerun = "Run: go test ./cmd/arbiter -run TestDocsCommandReference -update-docs"
	if got := text[begin : end+len(referenceEnd)]; got != want {
		if *updateDocs {
			if err := os.WriteFile(file, []byte(text[:begin]+want+text[end+len(referenceEnd):]), 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			t.Errorf("the command reference of %s (got) differs from the -h texts (want):\n%s"+rerun, commandsPage, golden.Diff(want, got))
		}
	}
	dir := filepath.Join(repoRoot, commandsDir)
	if *updateDocs {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := pages[e.Name()]; ok {
			continue
		}
		if *updateDocs {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s/%s is no command's page: %s", commandsDir, e.Name(), rerun)
	}
	for name, want := range pages {
		path := filepath.Join(dir, name)
		got, err := os.ReadFile(path)
		if string(got) == want {
			continue
		}
		if *updateDocs {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s/%s: %v: %s", commandsDir, name, err, rerun)
			continue
		}
		t.Errorf("%s/%s (got) differs from the -h text (want):\n%s"+rerun, commandsDir, name, golden.Diff(want, string(got)))
	}
}
