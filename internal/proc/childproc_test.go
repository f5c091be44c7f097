package proc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the program under test, as in os/exec's own tests: with
// CHILDPROC_TEST set it runs child instead of the tests, and the value names the scenario.
const scenarioEnv = "CHILDPROC_TEST"

func TestMain(m *testing.M) {
	// On Windows the test binary is its own Ctrl-C sender, as the arbiter is (see Main).
	Main()
	if s := os.Getenv(scenarioEnv); s != "" {
		os.Exit(child(s))
	}
	os.Exit(m.Run())
}

// child is the program Start starts. It returns its exit code.
func child(scenario string) int {
	switch scenario {
	case "parent":
		// Starts a grandchild that shares its group and its stdout, says both ids, and waits.
		gc := exec.Command(os.Args[0])
		gc.Env = append(os.Environ(), scenarioEnv+"=sleeper")
		gc.Stdout = os.Stdout
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Printf("%d %d\n", os.Getpid(), gc.Process.Pid)
		time.Sleep(time.Minute)
	case "sleeper":
		time.Sleep(time.Minute)
	case "fd3":
		// Echoes what arrives on file descriptor 3 to stdout.
		io.Copy(os.Stdout, os.NewFile(3, "fd3"))
	case "sigint":
		sigint := make(chan os.Signal, 1)
		signal.Notify(sigint, os.Interrupt)
		fmt.Println("ready")
		<-sigint
		fmt.Println("interrupted")
	case "crash":
		fmt.Fprintln(os.Stderr, "fatal: no luck")
		return 7
	case "stderr-flood":
		// Far more stderr than the tail keeps, in lines far longer than it keeps, then a
		// word on stdout to say it is over.
		line := strings.Repeat("e", 3*TailLineBytes)
		for i := range 5 * TailLines {
			fmt.Fprintf(os.Stderr, "%d %s\n", i, line)
		}
		fmt.Println("flooded")
		io.Copy(io.Discard, os.Stdin)
	case "until-eof":
		// Leaves at the end of its input, as a polite program does.
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
	case "stubborn":
		// Stays past the end of its input and SIGTERM, until killed.
		signal.Ignore(syscall.SIGTERM)
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		time.Sleep(time.Minute)
	case "escaped":
		// Starts a grandchild outside its group that holds its output, says its id, and
		// exits.
		gc := exec.Command(os.Args[0])
		gc.Env = append(os.Environ(), scenarioEnv+"=sleeper")
		gc.Stdout, gc.Stderr = os.Stdout, os.Stderr
		gc.SysProcAttr = outsideTheGroup()
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(gc.Process.Pid)
	case "echo":
		// Echoes stdin to stdout, and names its directory on stderr.
		wd, _ := os.Getwd()
		fmt.Fprintln(os.Stderr, wd)
		io.Copy(os.Stdout, os.Stdin)
	}
	return 0
}

func start(t *testing.T, scenario string, extra ...*os.File) *Process {
	t.Helper()
	p, err := Start(Spec{Command: []string{os.Args[0]}, Env: []string{scenarioEnv + "=" + scenario}, ExtraFiles: extra})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.KillGroup()
		p.Cmd.Wait()
		p.Release()
		p.Stdin.Close()
		p.Stdout.Close()
		p.Stderr.Close()
	})
	return p
}

// readAll reads r to its end, or fails the test after d.
func readAll(t *testing.T, r io.Reader, d time.Duration) string {
	t.Helper()
	type result struct {
		data []byte
		err  error
	}
	c := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(r)
		c <- result{data, err}
	}()
	select {
	case res := <-c:
		if res.err != nil {
			t.Fatal(res.err)
		}
		return string(res.data)
	case <-time.After(d):
		t.Fatalf("no end of output after %v", d)
		return ""
	}
}

// needTreeKill skips a test where killing a program cannot kill its children: neither a
// process group (Unix) nor a job object (Windows).
func needTreeKill(t *testing.T) {
	if !treeKill {
		t.Skip("no process groups or job objects")
	}
}

// KillGroup kills the program's children with it: its process group on Unix, its job
// object on Windows.
func TestKillGroupKillsGrandchild(t *testing.T) {
	needTreeKill(t)
	p := start(t, "parent")
	line, err := bufio.NewReader(p.Stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the ids: %v", err)
	}
	ids := strings.Fields(line)
	if len(ids) != 2 || ids[0] != strconv.Itoa(p.Cmd.Process.Pid) {
		t.Fatalf("the program said %q; want its id %d and its child's", line, p.Cmd.Process.Pid)
	}
	if err := p.KillGroup(); err != nil {
		t.Fatalf("KillGroup: %v", err)
	}
	err = p.Cmd.Wait()
	if ee, ok := errors.AsType[*exec.ExitError](err); !ok || ee.ExitCode() != killedExitCode {
		t.Errorf("Wait after KillGroup: %v; want exit code %d", err, killedExitCode)
	}
	// The grandchild holds a copy of stdout: the output ends only once it is dead too.
	readAll(t, p.Stdout, 10*time.Second)
	if err := p.KillGroup(); err != nil {
		t.Errorf("KillGroup of a group that has gone: %v", err)
	}
}

func TestStartMissingProgram(t *testing.T) {
	before := openFiles(t)
	for _, command := range [][]string{{"./no-such-program"}, {"no-such-program-on-path"}, {}, {""}} {
		p, err := Start(Spec{Command: command})
		if p != nil || err == nil {
			t.Fatalf("Start(%q) = %v, %v; want an error", command, p, err)
		}
		if _, ok := errors.AsType[*StartError](err); !ok {
			t.Errorf("Start(%q): %T %v; want a *StartError", command, err, err)
		}
		if len(command) > 0 && command[0] != "" && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, exec.ErrNotFound) {
			t.Errorf("Start(%q): %v; want it to say the program is not there", command, err)
		}
	}
	if after := openFiles(t); after != before {
		t.Errorf("%d files open after failed starts; %d before", after, before)
	}
}

// openFiles counts this process's open file descriptors, or returns -1 where it cannot:
// on Windows (under wine /proc/self/fd is wine's own, which comes and goes with its threads)
// and on systems without /proc or /dev/fd.
func openFiles(t *testing.T) int {
	if runtime.GOOS == "windows" {
		return -1
	}
	for _, dir := range []string{"/proc/self/fd", "/dev/fd"} {
		if entries, err := os.ReadDir(dir); err == nil {
			return len(entries)
		}
	}
	t.Log("cannot count open files")
	return -1
}

func TestExtraFilesAreFD3(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no ExtraFiles")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	p := start(t, "fd3", r)
	r.Close() // Start leaves the caller's copy to the caller
	fmt.Fprint(w, "through fd 3")
	w.Close()
	if got := readAll(t, p.Stdout, 10*time.Second); got != "through fd 3" {
		t.Errorf("the program read %q on fd 3", got)
	}
}

func TestPipesAndDir(t *testing.T) {
	dir := t.TempDir()
	p, err := Start(Spec{Command: []string{os.Args[0]}, Dir: dir, Env: []string{scenarioEnv + "=echo"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stdout.Close()
	defer p.Stderr.Close()
	fmt.Fprint(p.Stdin, "hello")
	p.Stdin.Close() // the program's EOF: Start kept no copy of the read end
	if got := readAll(t, p.Stdout, 10*time.Second); got != "hello" {
		t.Errorf("stdout %q; want the echo of stdin", got)
	}
	if got := strings.TrimSpace(readAll(t, p.Stderr, 10*time.Second)); got != dir {
		t.Errorf("the program ran in %q; want %q", got, dir)
	}
	if err := p.Cmd.Wait(); err != nil {
		t.Errorf("Wait: %v", err)
	}
}

// Interrupt reaches the program, which lives on, and nothing else: not another program, not
// the arbiter. On Unix it is SIGINT to the program; on Windows a CTRL_C_EVENT to the
// program's own console, sent by a copy of the test binary attached to that console, and
// Go's runtime takes the event for os.Interrupt, as the C runtime takes it for SIGINT.
func TestInterrupt(t *testing.T) {
	self := make(chan os.Signal, 1)
	signal.Notify(self, os.Interrupt)
	defer signal.Stop(self)
	p, other := start(t, "sigint"), start(t, "sigint")
	out, otherOut := bufio.NewReader(p.Stdout), bufio.NewReader(other.Stdout)
	for _, r := range []*bufio.Reader{out, otherOut} {
		if line, err := r.ReadString('\n'); line != "ready\n" {
			t.Fatalf("read %q, %v; want ready", line, err)
		}
	}
	otherLine := make(chan string, 1)
	go func() {
		line, _ := otherOut.ReadString('\n')
		otherLine <- line
	}()
	begin := time.Now()
	if err := p.Interrupt(); err != nil {
		t.Fatalf("Interrupt: %v", err)
	}
	sent := time.Since(begin)
	if line, err := out.ReadString('\n'); line != "interrupted\n" {
		t.Fatalf("read %q, %v after Interrupt", line, err)
	}
	t.Logf("Interrupt returned after %v; the program answered after %v", sent, time.Since(begin))
	if err := p.Cmd.Wait(); err != nil {
		t.Errorf("Wait: %v", err)
	}
	select {
	case line := <-otherLine:
		t.Errorf("the other program, not interrupted, said %q", line)
	case <-self:
		t.Error("the interrupt reached the test process")
	case <-time.After(300 * time.Millisecond):
	}
	if err := p.Interrupt(); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("Interrupt after exit: %v; want os.ErrProcessDone", err)
	}
}
