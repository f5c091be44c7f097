package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, errFailed) {
		fmt.Fprintln(os.Stderr, "testall:", err)
	}
	if err != nil {
		os.Exit(1)
	}
}

// errFailed means that tests failed; the summary has said which.
var errFailed = errors.New("tests failed")

// run runs go test -json with args and writes each package's lines and the summary to stdout.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	goArgs := []string{"test", "-json"}
	raceOff := ""
	if on, given := raceFlag(args); given {
		// The caller chose, as with go test; CI's loaded pass runs without it.
		if !on {
			raceOff = "turned off by the -race flag given"
		}
	} else if raceOff = raceUnavailable(ctx); raceOff == "" {
		goArgs = append(goArgs, "-race")
	} else if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
		return fmt.Errorf("CI=true requires the race detector, which is off: %s", raceOff)
	}
	if !timeoutGiven(args) {
		// go test's default of 10 minutes a package is too short for cmd/arbiter, which plays
		// real engines through every command, under the race detector on a small machine
		// (docs/experiments/measurements.md).
		goArgs = append(goArgs, "-timeout", "30m")
	}
	goArgs = append(goArgs, args...)
	if !namesPackages(args) {
		goArgs = append(goArgs, "./...")
	}
	fmt.Fprintln(stdout, "go", strings.Join(goArgs, " "))

	cmd := exec.CommandContext(ctx, "go", goArgs...)
	cmd.Stderr = stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	events, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r := newReport(stdout)
	readErr := r.read(events)
	if err := cmd.Wait(); err != nil {
		r.goFailed(fmt.Sprintf("go test: %v", err))
	}
	if readErr != nil {
		r.goFailed(fmt.Sprintf("reading go test's output: %v", readErr))
	}
	r.raceOff = raceOff
	r.summary()
	if r.failed() > 0 {
		return errFailed
	}
	return nil
}

// raceUnavailable returns "" when go can build with -race, or why it cannot, in go's words and
// with what would fix it. go list runs the same checks as go test.
func raceUnavailable(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "go", "list", "-race", "runtime").CombinedOutput()
	if err == nil {
		return ""
	}
	why := strings.TrimSpace(string(out))
	if why == "" {
		why = err.Error()
	}
	return why + " (on Linux and Windows -race needs a C compiler: apt-get install gcc)"
}

// raceFlag reports whether args set go test's -race flag (-race, -race=false, --race=1, ...),
// and to what.
func raceFlag(args []string) (on, given bool) {
	for _, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "race" {
			continue
		}
		on, given = true, true
		if hasValue {
			on, _ = strconv.ParseBool(value)
		}
	}
	return on, given
}

// namesPackages reports whether args name packages as relative paths; otherwise the suite
// is ./....
func namesPackages(args []string) bool {
	for _, a := range args {
		if a == "." || a == ".." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") {
			return true
		}
	}
	return false
}

// timeoutGiven reports whether args set go test's -timeout.
func timeoutGiven(args []string) bool {
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && name == "timeout" {
			return true
		}
	}
	return false
}
