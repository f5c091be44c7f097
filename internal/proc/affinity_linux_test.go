package proc

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"testing"
)

// A process started under WithAffinity runs on the CPUs given, and so does the process it
// starts in turn; the starting thread gets its own affinity back.
func TestWithAffinityPinsChildrenAndTheirChildren(t *testing.T) {
	// On one thread throughout, so that what is read after is the starting thread's.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	all, err := AllowedCPUs()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 2 {
		t.Skipf("this process may run on %d CPU: nothing to pin to", len(all))
	}
	want := []int{all[len(all)-1]}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), scenarioEnv+"=parent")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := WithAffinity(want, cmd.Start); err != nil {
		t.Fatal(err)
	}
	var child, grandchild int
	_, err = fmt.Fscan(stdout, &child, &grandchild)
	defer func() {
		cmd.Process.Kill()
		if grandchild > 0 {
			if p, err := os.FindProcess(grandchild); err == nil {
				p.Kill()
			}
		}
		cmd.Wait()
	}()
	if err != nil {
		t.Fatal(err)
	}
	for _, pid := range []int{child, grandchild} {
		got, err := ProcessCPUs(pid)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("process %d runs on CPUs %v (%v), want %v", pid, got, err, want)
		}
	}
	if got, _ := AllowedCPUs(); !slices.Equal(got, all) {
		t.Errorf("after WithAffinity this process may run on %v, want %v again", got, all)
	}
}
