package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"hivearbiter/ci"
	"hivearbiter/internal/cli"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// quietRace keeps engine processes built with -race from sleeping a second as they exit.
var quietRace = []string{"-each", "env=GORACE=atexit_sleep_ms=0"}

// viewer drives "arbiter serve" as a viewer does: one command at a time, reading each reply
// up to "ok" before it sends the next, so that later commands can use earlier replies.
type viewer struct {
	t          *testing.T
	in         io.WriteCloser
	out        *bufio.Reader
	done       chan error
	stderr     bytes.Buffer
	transcript strings.Builder
	bestmove   string // the last bestmove answer
	gameString string // the last GameString in a reply
}

// startViewer runs serve with args in the background and reads its banner.
func startViewer(t *testing.T, args ...string) *viewer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	v := &viewer{t: t, in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	go func() {
		err := runServeSession(ctx, args, inR, outW, &v.stderr)
		outW.CloseWithError(fmt.Errorf("serve ended: %v", err)) // a hung test reads this, not nothing
		inR.Close()
		cancel()
		v.done <- err
	}()
	v.reply()
	return v
}

// reply reads one reply, up to and including "ok", into the transcript.
func (v *viewer) reply() []string {
	v.t.Helper()
	var lines []string
	for {
		line, err := v.out.ReadString('\n')
		if err != nil {
			v.t.Fatalf("reading the reply: %v\ntranscript so far:\n%s\nstderr:\n%s", err, v.transcript.String(), v.stderr.String())
		}
		line = strings.TrimSuffix(line, "\n")
		v.transcript.WriteString(line + "\n")
		if line == "ok" {
			return lines
		}
		lines = append(lines, line)
		if strings.HasPrefix(line, "Base") && strings.Count(line, ";") >= 2 {
			v.gameString = line
		}
	}
}

// send sends one command, after replacing $bestmove with the last bestmove answer and $valid
// with the first valid move of the last GameString, and returns the reply without "ok".
func (v *viewer) send(command string) []string {
	v.t.Helper()
	command = strings.ReplaceAll(command, "$bestmove", v.bestmove)
	if strings.Contains(command, "$valid") {
		g, err := rules.ParseGameString(v.gameString)
		if err != nil {
			v.t.Fatalf("$valid: %v", err)
		}
		command = strings.ReplaceAll(command, "$valid", g.ValidMoveStrings()[0])
	}
	v.transcript.WriteString("> " + command + "\n")
	if _, err := io.WriteString(v.in, command+"\n"); err != nil {
		v.t.Fatalf("sending %q: %v", command, err)
	}
	lines := v.reply()
	if strings.HasPrefix(strings.ToLower(command), "bestmove") && len(lines) == 1 && !strings.HasPrefix(lines[0], "err") {
		v.bestmove = lines[0]
	}
	return lines
}

// over reports whether the last GameString is of a finished game.
func (v *viewer) over() bool {
	g, err := rules.ParseGameString(v.gameString)
	return err == nil && g.State().IsOver()
}

// run plays a script: UHP commands, and two directives that repeat until the game ends or
// COUNT times: "@watch COUNT|end ARGS" sends "bestmove ARGS" and plays the answer, as a
// viewer watching an engine match does; "@remote COUNT|end" plays the first valid move in a
// remote game, to which the engine replies.
func (v *viewer) run(script string) {
	v.t.Helper()
	for line := range strings.SplitSeq(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		directive, rest, _ := strings.Cut(line, " ")
		switch directive {
		case "@watch", "@remote":
			countText, args, _ := strings.Cut(rest, " ")
			count, err := strconv.Atoi(countText)
			if countText == "end" {
				count, err = 1000, nil
			}
			if err != nil {
				v.t.Fatalf("%q: want a count or end", line)
			}
			for range count {
				if directive == "@watch" {
					v.send("bestmove " + args)
					v.send("play $bestmove")
				} else {
					v.send("play $valid")
				}
				if v.over() {
					break
				}
			}
			if countText == "end" && !v.over() {
				v.t.Fatalf("%q: the game did not end in %d plies", line, count)
			}
		default:
			v.send(line)
		}
	}
}

// finish ends the input, as a viewer that closes does, and waits for serve to return.
func (v *viewer) finish() error {
	v.in.Close()
	select {
	case err := <-v.done:
		return err
	case <-time.After(time.Minute):
		v.t.Fatal("serve did not end at the end of its input")
		return nil
	}
}

// TestServeTranscripts drives "arbiter serve" with real hivebot processes through the
// scripts in testdata/serve, and checks the conversation and the records against golden
// files. Run with -update to rewrite them.
func TestServeTranscripts(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("testdata", "serve", "*.uhp"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".uhp")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			script := string(data)
			var args []string
			if first, rest, ok := strings.Cut(script, "\n"); ok && strings.HasPrefix(first, "# args:") {
				args = strings.Fields(strings.TrimPrefix(first, "# args:"))
				script = rest
			}
			dir := t.TempDir()
			out := filepath.Join(dir, "serve.jsonl")
			v := startViewer(t, append(append(args, quietRace...), "-out", out, "-pgnout", filepath.Join(dir, "serve.pgn"))...)
			v.run(script)
			if err := v.finish(); err != nil {
				t.Fatalf("serve: %v\n%s", err, v.stderr.String())
			}
			got := "# arbiter serve " + strings.Join(args, " ") + "\n" + v.transcript.String() + recordSummary(t, out)
			golden.Check(t, filepath.Join("testdata", "serve", name+".golden"), []byte(got))
		})
	}
}

// recordSummary lists the records a session wrote, without what differs from run to run
// (times, the run's fingerprint).
func recordSummary(t *testing.T, path string) string {
	t.Helper()
	recs, err := results.ReadFile(path)
	if err != nil {
		t.Fatalf("records: %v", err)
	}
	var b strings.Builder
	b.WriteString("# records\n")
	for _, r := range recs {
		fmt.Fprintf(&b, "game %d: %s vs %s: %s by %s", r.Game, r.White.Name, r.Black.Name, r.Result, r.Reason)
		if r.Culprit != "" {
			fmt.Fprintf(&b, " (culprit %s)", r.Culprit)
		}
		fmt.Fprintf(&b, " {%s}\n  opening %s\n  %d moves, final %s\n", r.Detail, r.Opening, len(r.Moves), r.GameString)
		if n, ok := replayedPlies(r); !ok || n != len(r.Moves) {
			t.Errorf("game %d: its moves do not lead from its opening to its final GameString", r.Game)
		}
	}
	return b.String()
}

// replayedPlies replays a record's moves from its opening and reports how many plies that
// adds and whether they give the recorded final position.
func replayedPlies(r results.Record) (int, bool) {
	g, err := rules.ParseGameString(r.Opening)
	if err != nil {
		return 0, false
	}
	start := g.Ply()
	for _, m := range r.Moves {
		if err := g.Play(m.Move); err != nil {
			return 0, false
		}
	}
	final, err := rules.ParseGameString(r.GameString)
	return g.Ply() - start, err == nil && final.Hash() == g.Hash() && final.Ply() == g.Ply()
}

// TestServeEngineFailures has a fake engine desync or crash in the middle of a watched game:
// the viewer gets err naming it and the reason, the game is recorded against it, and the
// next game runs with the engine restarted.
func TestServeEngineFailures(t *testing.T) {
	tests := []struct {
		scenario string
		reason   results.Reason
		err      []string
	}{
		{"desync@6", results.ReasonDesync, []string{"err Black (bad): its game differs from the referee's", `engine has "Base;`, `referee has "Base;`, "The game ends WhiteWins (desync)"}},
		{"crash@6", results.ReasonCrash, []string{"err Black (bad) failed on bestmove", "exit status 101", "simulated crash", "The game ends WhiteWins (crash)"}},
		{"crash-play@6", results.ReasonCrash, []string{"err Black (bad) failed to play", "The game ends WhiteWins (crash)"}},
	}
	for _, tc := range tests {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "serve.jsonl")
			args := append(append(fakeEngineArgs("good", "random"), fakeEngineArgs("bad", tc.scenario)...), "-out", out)
			v := startViewer(t, append(args, quietRace...)...)
			v.send("newgame Base")
			var failure string
			for ply := 0; ply < 20 && failure == ""; ply++ {
				for _, command := range []string{"bestmove time 00:00:01", "play $bestmove"} {
					if reply := v.send(command); strings.HasPrefix(reply[0], "err") {
						failure = reply[0]
						break
					}
				}
			}
			for _, want := range tc.err {
				if !strings.Contains(failure, want) {
					t.Errorf("the viewer got %q, which lacks %q", failure, want)
				}
			}
			if reply := v.send("validmoves"); !strings.HasPrefix(reply[0], "err The game is over: Black (bad)") {
				t.Errorf("validmoves after the failure: %q", reply)
			}
			if reply := v.send("newgame Base"); reply[0] != "Base;NotStarted;White[1]" {
				t.Errorf("newgame after the failure: %q", reply)
			}
			if reply := v.send("bestmove time 00:00:01"); strings.HasPrefix(reply[0], "err") {
				t.Errorf("the restarted engine does not answer: %q", reply)
			}
			if err := v.finish(); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(v.stderr.String(), "bad stopped; it will be restarted") {
				t.Errorf("stderr does not say the engine was restarted:\n%s", v.stderr.String())
			}
			recs, err := results.ReadFile(out)
			if err != nil || len(recs) != 1 {
				t.Fatalf("records %+v, %v: want the failed game alone", recs, err)
			}
			if r := recs[0]; r.Reason != tc.reason || r.Culprit != "Black" || r.Result != results.WhiteWins || r.Black.Name != "bad" {
				t.Errorf("record %s %s culprit %q {%s}", r.Result, r.Reason, r.Culprit, r.Detail)
			}
		})
	}
}

func TestServeCommandLine(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "three.toml")
	var toml strings.Builder
	for _, name := range []string{"a", "b", "c"} {
		fmt.Fprintf(&toml, "[[engine]]\nname = %q\nbuiltin = \"hivebot\"\ntc = \"st=1\"\n", name)
	}
	if err := os.WriteFile(config, []byte(toml.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{nil, "serve needs exactly two engines, White's then Black's, not 0"},
		{[]string{"-engine", "builtin=hivebot"}, "not 1"},
		{[]string{"-config", config}, "not 3"},
		{[]string{"-engine", "builtin=hivebot", "-engine", "builtin=hivebot", "-remote-side", "left"}, `remote side "left"`},
		{[]string{"-engine", "builtin=hivebot", "-engine", "builtin=hivebot", "-gametype", "Chess"}, `game type "Chess"`},
		{[]string{"-engine", "builtin=hivebot", "-engine", "builtin=hivebot", "-each", "tc=fast"}, `"fast"`},
		{[]string{"-each", "st=1"}, "-each needs engines"},
		{[]string{"-engine", "builtin=hivebot", "-engine", "builtin=hivebot", "extra"}, `unexpected argument "extra"`},
		{[]string{"-engine", "builtin=hivebot", "-engine", "builtin=hivebot", "-pgnout", filepath.Join(dir, "none.jsonl")}, "-out and -pgnout name the same file"},
		{[]string{"-engine", "builtin=hivebot", "-engine", "builtin=hivebot", "-pgnout", filepath.Join(dir, "nope", "x.pgn")}, "does not exist"},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		err := runServeSession(context.Background(), append([]string{"-out", filepath.Join(dir, "none.jsonl")}, tc.args...), strings.NewReader(""), &stdout, &stderr)
		var ue cli.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("serve %q: got %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "none.jsonl")); err == nil {
		t.Error("a records file was created with no game played")
	}
}

// TestServeEndOfInput is what the README test does with "arbiter serve" lines: empty input
// ends the session cleanly, after the banner, without a records file.
func TestServeEndOfInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	args := append([]string{"-engine", "builtin=hivebot", "name=a", "-engine", "builtin=hivebot", "name=b"}, quietRace...)
	if err := runServeSession(context.Background(), args, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}
	if want := "id Hive Arbiter serve v0.1.0 (players: a vs b)\nMosquito;Ladybug;Pillbug\nok\n"; stdout.String() != want {
		t.Errorf("output %q, want the banner %q", stdout.String(), want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left behind: %v", entries)
	}
}

func TestServeEngineThatCannotStart(t *testing.T) {
	// A program that is not there is a mistake in the command line, found before any engine
	// starts.
	var stdout, stderr bytes.Buffer
	err := runServeSession(context.Background(), []string{"-engine", "cmd=/nonexistent/engine", "name=ghost", "-engine", "builtin=hivebot"},
		strings.NewReader(""), &stdout, &stderr)
	if code := exitCode(err, &stderr); code != ci.ExitUsage || !strings.Contains(err.Error(), `engine "ghost": the program "/nonexistent/engine" does not exist`) {
		t.Fatalf("got %v (exit %d), want exit code %d naming the engine and the program", err, code, ci.ExitUsage)
	}
	// A program that is there but dies at start-up is the engine's failure.
	args := append(fakeEngineArgs("ghost", "exit-at-start"), "-engine", "builtin=hivebot")
	err = runServeSession(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	var ee *cli.ExitError
	if !errors.As(err, &ee) || ee.Code != ci.ExitEngines || !strings.Contains(err.Error(), `engine "ghost" could not be started`) || !strings.Contains(err.Error(), "cannot load my weights") {
		t.Fatalf("got %v, want exit code %d naming the engine and quoting its stderr", err, ci.ExitEngines)
	}
}
