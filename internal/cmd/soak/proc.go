//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"hivearbiter/enginekit/uhpserver/uhpfake"
)

// process is one program the soak started: an arbiter match, a coordinator or a worker.
type process struct {
	role    string
	cmd     *exec.Cmd
	started time.Time
	done    chan struct{} // closed when the process has been waited for
	err     error         // Wait's, once done is closed
	noted   bool          // its unexpected exit is in the soak's notes
}

// start runs argv with env added to the soak's own environment, appending its output to log.
func start(role string, argv, env []string, log io.Writer) (*process, error) {
	c := exec.Command(argv[0], argv[1:]...)
	c.Env = append(os.Environ(), env...)
	c.Stdout, c.Stderr = log, log
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("soak: starting the %s: %w", role, err)
	}
	p := &process{role: role, cmd: c, started: time.Now(), done: make(chan struct{})}
	go func() {
		p.err = c.Wait()
		close(p.done)
	}()
	return p, nil
}

func (p *process) pid() int { return p.cmd.Process.Pid }

// exitCode is the process's exit status once done, -1 if a signal ended it.
func (p *process) exitCode() int { return p.cmd.ProcessState.ExitCode() }

// killTree SIGKILLs the process and reports the processes it had started that outlive it by
// grace: engines that do not exit when their arbiter's pipes close (a fake that hangs is
// deaf). Those are killed too, by pid, and counted by kind.
func (p *process) killTree(grace time.Duration) map[string]int {
	tree := descendants(p.pid())
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) && len(alive(tree)) > 0 {
		time.Sleep(50 * time.Millisecond)
	}
	left := make(map[string]int)
	for _, d := range alive(tree) {
		left[kindOf(d.pid)]++
		syscall.Kill(d.pid, syscall.SIGKILL)
	}
	return left
}

// descendant is a process below another, known by pid and start time, so that a pid reused
// by the system is not taken for it.
type descendant struct {
	pid   int
	start string
}

// descendants lists the processes below pid, from /proc.
func descendants(pid int) []descendant {
	children := make(map[int][]int)
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if parent, _, ok := statOf(child); ok {
			children[parent] = append(children[parent], child)
		}
	}
	var out []descendant
	queue := children[pid]
	for len(queue) > 0 {
		c := queue[0]
		queue = append(queue[1:], children[c]...)
		if _, start, ok := statOf(c); ok {
			out = append(out, descendant{pid: c, start: start})
		}
	}
	return out
}

// children counts the processes whose parent is pid and that run (not zombies).
func children(pid int) int {
	n := 0
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if parent, _, ok := statOf(child); ok && parent == pid && !zombie(child) {
			n++
		}
	}
	return n
}

// alive are those of ds that still run (zombies included: nobody waits for an orphan's
// engines but init, which reaps them).
func alive(ds []descendant) []descendant {
	var out []descendant
	for _, d := range ds {
		if _, start, ok := statOf(d.pid); ok && start == d.start && !zombie(d.pid) {
			out = append(out, d)
		}
	}
	return out
}

// statOf reads a process's parent and start time from /proc/PID/stat.
func statOf(pid int) (parent int, start string, ok bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, "", false
	}
	// The command name, in parentheses, may hold blanks: fields count from its end.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, "", false
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 20 {
		return 0, "", false
	}
	parent, err = strconv.Atoi(fields[1])
	return parent, fields[19], err == nil
}

func zombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(data, ')')
	return i >= 0 && i+2 < len(data) && data[i+2] == 'Z'
}

// kindOf names a process by its program and, for a fake, its engine.
func kindOf(pid int) string {
	exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	kind := filepath.Base(strings.TrimSuffix(exe, " (deleted)"))
	env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	for _, kv := range bytes.Split(env, []byte{0}) {
		if cfg, ok := strings.CutPrefix(string(kv), uhpfake.EnvVar+"="); ok {
			if _, rest, ok := strings.Cut(cfg, `"ID":"uhpfake\u0020`); ok {
				name, _, _ := strings.Cut(rest, `"`)
				return "fake " + name
			}
		}
	}
	return kind
}

// freePort returns a loopback address no one listens on now.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("soak: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

var errDefect = errors.New("soak: defects found")
