//go:build unix

package uhpfake

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/rules"
)

func TestMain(m *testing.M) {
	Main()
	os.Exit(m.Run())
}

// fake is a fake engine process on raw pipes.
type fake struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *syncbuf.Buffer
	done   chan struct{}
}

// start runs the test binary as the fake engine cfg describes; the test ends by killing it.
func start(t *testing.T, cfg Config) *fake {
	t.Helper()
	argv, env := Command(cfg)
	f := &fake{cmd: exec.Command(argv[0], argv[1:]...), stderr: &syncbuf.Buffer{}, done: make(chan struct{})}
	f.cmd.Env = append(os.Environ(), env...)
	f.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	f.cmd.Stderr = f.stderr
	var err error
	if f.in, err = f.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := f.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	f.out = bufio.NewReader(stdout)
	if err := f.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		f.cmd.Wait()
		close(f.done)
	}()
	t.Cleanup(func() {
		syscall.Kill(-f.cmd.Process.Pid, syscall.SIGKILL)
		<-f.done
	})
	return f
}

func (f *fake) send(t *testing.T, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(f.in, l+"\n"); err != nil {
			t.Fatalf("writing %q: %v", l, err)
		}
	}
}

// next reads the next line, with its line end, on a goroutine: a read that gets nothing ends
// when the engine does.
func (f *fake) next() <-chan string {
	got := make(chan string, 1)
	go func() {
		line, _ := f.out.ReadString('\n')
		got <- line
	}()
	return got
}

// line reads one line, with its line end, within a few seconds.
func (f *fake) line(t *testing.T) string {
	t.Helper()
	select {
	case l := <-f.next():
		return l
	case <-time.After(5 * time.Second):
		t.Fatal("no line in 5 s")
		return ""
	}
}

// expect reads lines, each of which must be one of want in turn, "\n" added.
func (f *fake) expect(t *testing.T, want ...string) {
	t.Helper()
	for _, w := range want {
		if got := f.line(t); got != w+"\n" {
			t.Fatalf("read %q, want %q", got, w+"\n")
		}
	}
}

// silent checks that nothing is printed for a while. Its read goes on after it: call it last.
func (f *fake) silent(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case l := <-f.next():
		t.Fatalf("read %q, want nothing", l)
	case <-time.After(d):
	}
}

// exit waits for the process to end and returns how.
func (f *fake) exit(t *testing.T) *os.ProcessState {
	t.Helper()
	select {
	case <-f.done:
		return f.cmd.ProcessState
	case <-time.After(5 * time.Second):
		t.Fatal("the engine did not exit")
		return nil
	}
}

const banner = "id uhpfake v1\nMosquito;Ladybug;Pillbug\nok"

func TestPlaysAsTheRefereeSays(t *testing.T) {
	f := start(t, Config{Options: []uhpserver.Option{{Name: "Hash", Type: "int", Value: "16", Default: "16", Extra: []string{"1", "64"}}}})
	f.expect(t, strings.Split(banner, "\n")...)
	first := strings.Join(rules.NewGame(rules.Base).ValidMoveStrings(), ";")
	f.send(t, "bestmove depth 1", "validmoves", "newgame Base+M", "play wS1", "play bQ", "play bS1 wS1-",
		"pass", "undo", "undo 5", "newgame Nope", "options", "options set Hash 32", "options get Hash", "options get Foo")
	f.expect(t, "wS1", "ok", first, "ok", "Base+M;NotStarted;White[1]", "ok", "Base+M;InProgress;Black[1];wS1", "ok",
		"invalidmove You can't play your Queen Bee on your first turn.", "ok",
		"Base+M;InProgress;White[2];wS1;bS1 wS1-", "ok",
		"invalidmove You can't pass when you have valid moves.", "ok",
		"Base+M;InProgress;Black[1];wS1", "ok", "err Unable to undo 5 moves.", "ok")
	if line := f.line(t); !strings.HasPrefix(line, "err rules: ") {
		t.Errorf("newgame Nope: %q", line)
	}
	f.expect(t, "ok", "Hash;int;16;16;1;64", "ok", "Hash;int;32;16;1;64", "ok", "Hash;int;32;16;1;64", "ok",
		`err The option "Foo" is not valid.`, "ok")
	f.send(t, "exit")
	if state := f.exit(t); state.ExitCode() != 0 {
		t.Errorf("exit: %v", state)
	}
}

// playGame has the engine play both sides of a game against the referee, and returns the
// moves it chose.
func playGame(t *testing.T, f *fake, plies int) []string {
	t.Helper()
	g := rules.NewGame(rules.Base)
	f.expect(t, strings.Split(banner, "\n")...)
	f.send(t, "newgame Base")
	f.expect(t, "Base;NotStarted;White[1]", "ok")
	var moves []string
	for range plies {
		f.send(t, "bestmove depth 1")
		move := strings.TrimSuffix(f.line(t), "\n")
		f.expect(t, "ok")
		if err := g.Play(move); err != nil {
			t.Fatalf("after %q: %v", moves, err)
		}
		moves = append(moves, move)
		f.send(t, "play "+move)
		f.expect(t, g.GameString(), "ok")
	}
	return moves
}

func TestMoveChoice(t *testing.T) {
	t.Run("last", func(t *testing.T) {
		f := start(t, Config{Play: "last", ID: "last v2", Capabilities: []string{}})
		f.expect(t, "id last v2", "", "ok")
		f.send(t, "bestmove time 00:00:01")
		f.expect(t, "wA1", "ok")
	})
	t.Run("random", func(t *testing.T) {
		a, b := playGame(t, start(t, Config{Play: "random", Seed: 3}), 12), playGame(t, start(t, Config{Play: "random", Seed: 3}), 12)
		if slices.Equal(a, b) {
			t.Errorf("two processes of one seed played the same game %q: the seed is not mixed with the process", a)
		}
	})
	t.Run("salt", func(t *testing.T) {
		a, b := playGame(t, start(t, Config{Salt: "x"}), 12), playGame(t, start(t, Config{Salt: "x"}), 12)
		c := playGame(t, start(t, Config{Salt: "y"}), 12)
		if !slices.Equal(a, b) || slices.Equal(a, c) {
			t.Errorf("salt x played %q and %q, salt y %q", a, b, c)
		}
	})
	t.Run("blunders", func(t *testing.T) {
		f := start(t, Config{Salt: "x", BlunderEvery: 1})
		f.expect(t, strings.Split(banner, "\n")...)
		f.send(t, "bestmove depth 1")
		f.expect(t, "wQ wQ", "ok")
	})
}

// TestFaults: each fault does what it says, at its moment and not before.
func TestFaults(t *testing.T) {
	gs2 := "Base;InProgress;White[2];wS1;bS1 wS1-"
	ahead, _ := rules.ParseGameString(gs2)
	ahead.PlayMove(ahead.ValidMoves()[0])
	for _, tc := range []struct {
		name  string
		fault Fault
		// send is sent after the banner; want is read after it.
		send []string
		want []string
		exit int // the exit code, once the input ends
	}{
		{"start exits", Fault{On: "start", Print: []string{"hello", "ok"}, Stderr: []string{"no weights"}, Then: "exit", Code: 3},
			nil, nil, 3},
		{"ready exits", Fault{On: "ready", Then: "exit"}, nil, nil, 0},
		{"from a ply on", Fault{On: "bestmove", FromPly: 2, Print: []string{"wQ wQ", "ok"}, Then: "silent"},
			[]string{"bestmove depth 1", "newgame " + gs2, "bestmove depth 1"},
			[]string{"wS1", "ok", gs2, "ok", "wQ wQ", "ok"}, 0},
		{"one argument", Fault{On: "newgame", Arg: "Foo", Print: []string{"err Couldn't parse expansion pieces.", "Parameter name: boardString", "ok"}, Then: "silent"},
			[]string{"newgame Foo", "newgame"},
			[]string{"err Couldn't parse expansion pieces.", "Parameter name: boardString", "ok", "Base;NotStarted;White[1]", "ok"}, 0},
		{"every command", Fault{Print: []string{"# thinking"}},
			[]string{"validmoves", "undo"}, []string{"# thinking", "wS1;wB1;wG1;wA1", "ok", "# thinking", "err Unable to undo 1 moves.", "ok"}, 0},
		{"leading arguments", Fault{On: "bestmove", Arg: "depth", Then: "exit", Code: 5},
			[]string{"bestmove time 00:00:01", "bestmove depth 3"}, []string{"wS1", "ok"}, 5},
		{"exit in a command", Fault{On: "play", Stderr: []string{"fatal"}, Then: "exit", Code: 4}, []string{"play wS1"}, nil, 4},
		{"panic", Fault{On: "validmoves", Then: "panic"}, []string{"validmoves"}, []string{"err uhpfake: a fault panics in validmoves", "ok"}, 0},
		{"repeat", Fault{On: "validmoves", Print: []string{"a", "b"}, Repeat: 2, Every: time.Millisecond, Then: "silent"},
			[]string{"validmoves", "newgame"}, []string{"a", "b", "a", "b", "Base;NotStarted;White[1]", "ok"}, 0},
		{"no line end", Fault{On: "validmoves", Print: []string{"ab"}, Repeat: 3, NoEOL: true}, []string{"validmoves"}, []string{"abababwS1;wB1;wG1;wA1", "ok"}, 0},
		{"ignored exit", Fault{On: "exit", Print: []string{"err Invalid command.", "ok"}, Then: "silent"},
			[]string{"exit", "validmoves"}, []string{"err Invalid command.", "ok", "wS1;wB1;wG1;wA1", "ok"}, 0},
		{"desync", Fault{On: "play", Mangle: "desync", FromPly: 2}, []string{"play wS1", "play bS1 wS1-"},
			[]string{"Base;InProgress;Black[1];wS1", "ok", ahead.GameString(), "ok"}, 0},
		{"wrong state", Fault{Mangle: "wrong-state"}, []string{"newgame", "play wS1"},
			[]string{"Base;InProgress;White[1]", "ok", "Base;InProgress;Black[1];wS1", "ok"}, 0},
		{"trailing semicolon", Fault{On: "newgame", Mangle: "trailing-semicolon"}, []string{"newgame"}, []string{"Base;NotStarted;White[1];", "ok"}, 0},
		{"illegal accepted", Fault{On: "play", Mangle: "accept-illegal"}, []string{"play wQ"}, []string{"Base;NotStarted;White[1]", "ok"}, 0},
		{"first move dropped", Fault{On: "validmoves", Mangle: "drop-first-move"}, []string{"validmoves"}, []string{"wB1;wG1;wA1", "ok"}, 0},
		{"last move dropped", Fault{On: "validmoves", Mangle: "drop-last-move"}, []string{"validmoves"}, []string{"wS1;wB1;wG1", "ok"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := start(t, Config{Faults: []Fault{tc.fault}})
			if tc.fault.On != "start" {
				f.expect(t, strings.Split(banner, "\n")...)
			}
			f.send(t, tc.send...)
			f.expect(t, tc.want...)
			if tc.fault.On == "start" {
				f.expect(t, tc.fault.Print...)
			}
			f.in.Close()
			if state := f.exit(t); state.ExitCode() != tc.exit {
				t.Errorf("exit code %d, want %d", state.ExitCode(), tc.exit)
			}
			if want := strings.Join(tc.fault.Stderr, "\n"); want != strings.TrimSuffix(f.stderr.String(), "\n") {
				t.Errorf("stderr %q, want %q", f.stderr.String(), want)
			}
		})
	}
}

func TestBOMAndCRLF(t *testing.T) {
	f := start(t, Config{BOM: true, CRLF: true, Faults: []Fault{{On: "start", Stderr: []string{"mono: starting"}}}})
	f.expect(t, "\ufeffid uhpfake v1\r", "Mosquito;Ladybug;Pillbug\r", "ok\r")
	f.send(t, "newgame")
	f.expect(t, "Base;NotStarted;White[1]\r", "ok\r")
	f.in.Close()
	f.exit(t)
	if got := f.stderr.String(); got != "\ufeffmono: starting\r\n" {
		t.Errorf("stderr %q", got)
	}
}

// TestTiming: waits happen where they are asked for, and hangs last.
func TestTiming(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cfg    Config
		send   string
		answer time.Duration // the least time to the first line after send; 0 for never
	}{
		{"slow start", Config{Faults: []Fault{{On: "start", Delay: 300 * time.Millisecond}}}, "", 300 * time.Millisecond},
		{"delay", Config{Delay: 200 * time.Millisecond}, "bestmove depth 1", 200 * time.Millisecond},
		{"fault delay", Config{Faults: []Fault{{On: "play", Delay: 200 * time.Millisecond}}}, "play wS1", 200 * time.Millisecond},
		{"think", Config{Think: true}, "bestmove time 00:00:00.3", 300 * time.Millisecond},
		{"overshoot", Config{Think: true, Overshoot: 200 * time.Millisecond}, "bestmove time 00:00:00.3", 500 * time.Millisecond},
		{"at once", Config{}, "bestmove time 00:01:00", 0},
		{"deaf", Config{Faults: []Fault{{On: "ready", Then: "hang"}}}, "validmoves", -1},
		{"hang", Config{Faults: []Fault{{On: "bestmove", Then: "hang"}}}, "bestmove depth 1", -1},
		{"spin", Config{Faults: []Fault{{On: "bestmove", Then: "spin"}}}, "bestmove depth 1", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			begin := time.Now()
			f := start(t, tc.cfg)
			if tc.send != "" {
				f.expect(t, strings.Split(banner, "\n")...)
				begin = time.Now()
				f.send(t, tc.send)
			}
			if tc.answer < 0 {
				f.silent(t, 300*time.Millisecond)
				return
			}
			f.line(t)
			took := time.Since(begin)
			if took < tc.answer || tc.answer == 0 && took > 200*time.Millisecond {
				t.Errorf("answered after %v, want %v", took, tc.answer)
			}
		})
	}
}

func TestCommands(t *testing.T) {
	f := start(t, Config{Commands: map[string]string{"bench": "nodes=1300818 time=2694"}})
	f.expect(t, strings.Split(banner, "\n")...)
	f.send(t, "bench", "BENCH", "bench 5", "licenses")
	f.expect(t, "nodes=1300818 time=2694", "ok", "nodes=1300818 time=2694", "ok",
		"err Invalid command. Try 'help' to see a list of valid commands.", "ok",
		"err Invalid command. Try 'help' to see a list of valid commands.", "ok")
}

func TestWholeSeconds(t *testing.T) {
	f := start(t, Config{WholeSeconds: true})
	f.expect(t, strings.Split(banner, "\n")...)
	f.send(t, "bestmove time 00:00:00.500", "bestmove time 00:00:01")
	f.expect(t, "err String was not recognized as a valid TimeSpan.", "ok", "wS1", "ok")
}

// An engine that claims threefold repetition reports a Draw once the position occurs a third
// time, as nokamute does in the position of UHP-NOTES.md 7.1; the referee's game goes on.
func TestClaimRepetitions(t *testing.T) {
	f := start(t, Config{ClaimRepetitions: 3})
	f.expect(t, strings.Split(banner, "\n")...)
	const moves = "wS1;bB1 wS1-;wQ \\wS1;bQ bB1\\;wQ -wS1;bQ bB1-;wQ \\wS1;bQ bB1\\;wQ -wS1;bQ bB1-;wQ \\wS1"
	f.send(t, "newgame Base;InProgress;White[6];"+moves, "play bQ bB1\\")
	f.expect(t, "Base;InProgress;Black[6];"+moves, "ok", "Base;Draw;White[7];"+moves+";bQ bB1\\", "ok")
}

func TestSIGINT(t *testing.T) {
	for _, tc := range []struct {
		onSIGINT string
		answer   string // what the interrupted search answers; "" if it does not
		stderr   string
		killed   bool
	}{
		{"", "", "", true},
		{"ignore", "", "", false},
		{"report", "", IgnoredSIGINT + "\n", false},
		{"interrupt", "wS1", "", false},
	} {
		t.Run(tc.onSIGINT, func(t *testing.T) {
			f := start(t, Config{Think: true, OnSIGINT: tc.onSIGINT})
			f.expect(t, strings.Split(banner, "\n")...)
			f.send(t, "bestmove time 00:01:00")
			time.Sleep(100 * time.Millisecond)
			f.cmd.Process.Signal(os.Interrupt)
			switch {
			case tc.answer != "":
				f.expect(t, tc.answer, "ok")
			case tc.killed:
				if state := f.exit(t); state.Sys().(syscall.WaitStatus).Signal() != syscall.SIGINT {
					t.Errorf("the engine ended %v, want killed by SIGINT", state)
				}
			default:
				f.silent(t, 300*time.Millisecond)
			}
			if got := f.stderr.String(); got != tc.stderr {
				t.Errorf("stderr %q, want %q", got, tc.stderr)
			}
		})
	}
}

func TestKill(t *testing.T) {
	f := start(t, Config{Faults: []Fault{{On: "play", Then: "kill"}}})
	f.expect(t, strings.Split(banner, "\n")...)
	f.send(t, "play wS1")
	if state := f.exit(t); state.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("the engine ended %v, want killed", state)
	}
}

// TestBigOutput: a flood at the end of the input, and a line far longer than a pipe holds.
func TestBigOutput(t *testing.T) {
	f := start(t, Config{Faults: []Fault{
		{On: "bestmove", Print: []string{strings.Repeat("x", 1024)}, Repeat: 1024, NoEOL: true, Then: "hang"},
		{On: "eof", Print: []string{"err Invalid command.", "ok"}, Repeat: -1},
	}})
	f.expect(t, strings.Split(banner, "\n")...)
	f.send(t, "bestmove depth 1")
	line := make([]byte, 1<<20+1)
	n, _ := io.ReadAtLeast(f.out, line, 1<<20) // the engine hangs after it: no line end comes
	if string(line[:n]) != strings.Repeat("x", 1<<20) {
		t.Errorf("read %d bytes, want 1 MiB of x and no line end", n)
	}
	g := start(t, Config{Faults: []Fault{{On: "eof", Print: []string{"err Invalid command.", "ok"}, Repeat: -1}}})
	g.expect(t, strings.Split(banner, "\n")...)
	g.in.Close()
	for range 1000 {
		g.expect(t, "err Invalid command.", "ok")
	}
}

func TestPidFileAndLatencyLog(t *testing.T) {
	dir := t.TempDir()
	pidFile, latency := filepath.Join(dir, "pid"), filepath.Join(dir, "gaps")
	f := start(t, Config{PidFile: pidFile, LatencyLog: latency})
	f.expect(t, strings.Split(banner, "\n")...)
	f.send(t, "bestmove depth 1")
	f.expect(t, "wS1", "ok")
	time.Sleep(50 * time.Millisecond)
	f.send(t, "play wS1", "bestmove depth 1", "validmoves", "exit")
	f.exit(t)
	if pid, err := os.ReadFile(pidFile); err != nil || string(pid) != strconv.Itoa(f.cmd.Process.Pid) {
		t.Errorf("pid file %q, %v; want %d", pid, err, f.cmd.Process.Pid)
	}
	data, err := os.ReadFile(fmt.Sprintf("%s.%d", latency, f.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	gaps := strings.Fields(string(data))
	if len(gaps) != 2 {
		t.Fatalf("gaps %q, want one per bestmove", gaps)
	}
	if first, _ := strconv.ParseInt(gaps[0], 10, 64); time.Duration(first) < 50*time.Millisecond {
		t.Errorf("the first gap is %v, want the 50 ms the client waited", time.Duration(first))
	}
}

func TestChild(t *testing.T) {
	for _, child := range []string{"group", "escaped"} {
		t.Run(child, func(t *testing.T) {
			f := start(t, Config{Child: child})
			var pid int
			if _, err := fmt.Sscanf(f.line(t), "child %d\n", &pid); err != nil {
				t.Fatal(err)
			}
			defer syscall.Kill(pid, syscall.SIGKILL)
			f.expect(t, strings.Split(banner, "\n")...)
			pgid, err := syscall.Getpgid(pid)
			if err != nil {
				t.Fatalf("the child: %v", err)
			}
			if inGroup := pgid == f.cmd.Process.Pid; inGroup != (child == "group") {
				t.Errorf("child in the engine's group: %v", inGroup)
			}
		})
	}
}

// TestLinesKeepTheirBytes: any line, UTF-8 or not, reaches the engine as it was.
func TestLinesKeepTheirBytes(t *testing.T) {
	cfg := Config{Faults: []Fault{{On: "validmoves", Print: []string{"\x00\x07 garbage \xff", "ok"}, Then: "silent"}}}
	f := start(t, cfg)
	f.expect(t, strings.Split(banner, "\n")...)
	f.send(t, "validmoves")
	f.expect(t, "\x00\x07 garbage \xff", "ok")
}

func FuzzLines(f *testing.F) {
	f.Add("plain", "\x00\x07 garbage \xff")
	f.Add(`{"go":"\"x\""}`, "\"")
	f.Add("a b\u00a0c\u2028", "\t\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		cfg := Config{Faults: []Fault{{Print: Lines{a, b}, Stderr: Lines{b}}}}
		env := Env(cfg)
		if strings.IndexFunc(env, unicode.IsSpace) >= 0 {
			t.Fatalf("%q holds a blank", env)
		}
		got, err := parse(strings.TrimPrefix(env, EnvVar+"="))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Faults[0].Print, cfg.Faults[0].Print) || !slices.Equal(got.Faults[0].Stderr, cfg.Faults[0].Stderr) {
			t.Fatalf("got %q, want %q", got.Faults[0].Print, cfg.Faults[0].Print)
		}
	})
}
