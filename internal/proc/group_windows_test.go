//go:build windows

package proc

import (
	"bufio"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The job object is made to kill what it holds once its last handle closes: when the arbiter
// dies, however it dies, the system closes its handles and its engines die with it, as
// Pdeathsig has them do on Linux. Release is that close.
func TestReleaseKillsTheJob(t *testing.T) {
	p := start(t, "parent")
	line, err := bufio.NewReader(p.Stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the ids: %v", err)
	}
	ids := strings.Fields(line)
	if len(ids) != 2 {
		t.Fatalf("the program said %q; want its id and its child's", line)
	}
	grandchild, _ := strconv.Atoi(ids[1])
	if gone(grandchild) || gone(p.Cmd.Process.Pid) {
		t.Fatal("a process is gone before Release: the test shows nothing")
	}
	p.Release()
	for deadline := time.Now().Add(5 * time.Second); !gone(grandchild) || !gone(p.Cmd.Process.Pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			kill(grandchild)
			t.Fatal("the program or its child outlived the job object's last handle")
		}
	}
}
