package uhpfake

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"time"

	"hivearbiter/enginekit/uhpserver"
)

// Main runs the fake engine that EnvVar describes and exits, or returns at once if EnvVar is
// not set. Call it first in TestMain, so that the test binary doubles as the engine:
//
//	func TestMain(m *testing.M) {
//		uhpfake.Main()
//		os.Exit(m.Run())
//	}
func Main() {
	value, ok := os.LookupEnv(EnvVar)
	if !ok {
		return
	}
	cfg, err := parse(value)
	if err == nil {
		err = Run(context.Background(), cfg, os.Stdin, os.Stdout, os.Stderr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Run is the fake engine cfg describes, on in and out, until "exit", the end of in, or ctx's
// end. It handles SIGINT as cfg.OnSIGINT says, so it is meant for a process of its own; a
// fault that exits or kills ends that process. A Child holds out and errOut only when they
// are files.
func Run(ctx context.Context, cfg Config, in io.Reader, out, errOut io.Writer) error {
	if cfg.PidFile != "" {
		if err := os.WriteFile(cfg.PidFile, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			return fmt.Errorf("uhpfake: %w", err)
		}
	}
	stdout, stderr := newStream(out, cfg.BOM, cfg.CRLF), newStream(errOut, cfg.BOM, cfg.CRLF)
	h := newHandler(cfg, stdout, stderr)

	var opts []uhpserver.ServerOption
	var wg sync.WaitGroup
	defer wg.Wait()
	switch cfg.OnSIGINT {
	case "ignore":
		signal.Ignore(os.Interrupt)
	case "report", "interrupt":
		signals := make(chan os.Signal, 1)
		signal.Notify(signals, os.Interrupt)
		defer signal.Stop(signals)
		if cfg.OnSIGINT == "interrupt" {
			opts = append(opts, uhpserver.WithInterrupts(signals))
			break
		}
		done := make(chan struct{})
		defer close(done)
		wg.Go(func() {
			for {
				select {
				case <-signals:
					stderr.raw([]byte(IgnoredSIGINT + "\n"))
				case <-done:
					return
				}
			}
		})
	}

	if cfg.Child != "" {
		pid, err := startChild(cfg.Child == "escaped", out, errOut)
		if err != nil {
			return err
		}
		stdout.raw(fmt.Appendf(nil, "child %d\n", pid))
	}
	stdout.hold = cfg.Unflushed
	defer stdout.release()
	h.before("start", "")
	if cfg.BannerOnInfo {
		stdout.silence() // the banner; "info" prints it
	}
	input := &input{r: bufio.NewReader(in), h: h}
	err := uhpserver.NewServer(h, opts...).Serve(ctx, input, stdout)
	if cfg.LatencyLog != "" {
		var b strings.Builder
		for _, gap := range h.gaps {
			fmt.Fprintln(&b, gap)
		}
		if err := os.WriteFile(fmt.Sprintf("%s.%d", cfg.LatencyLog, os.Getpid()), []byte(b.String()), 0o644); err != nil {
			return fmt.Errorf("uhpfake: %w", err)
		}
	}
	return err
}

// startChild starts the test binary as a process that sleeps a minute, holding out and
// errOut; escaped puts it in a session, and so a process group, of its own.
func startChild(escaped bool, out, errOut io.Writer) (int, error) {
	c := exec.Command(os.Args[0])
	sleeper := Config{Faults: []Fault{{On: "start", Delay: time.Minute, Then: "exit"}}}
	c.Env = append(os.Environ(), Env(sleeper))
	c.Stdout, c.Stderr = out, errOut
	if escaped {
		c.SysProcAttr = newSession()
	}
	if err := c.Start(); err != nil {
		return 0, fmt.Errorf("uhpfake: starting a child: %w", err)
	}
	return c.Process.Pid, nil
}

// input is the engine's input as the server reads it: it carries out the faults of the
// moments "ready", "exit" and "eof", which the server does not show the handler.
type input struct {
	r       *bufio.Reader
	h       *Handler
	ready   bool
	pending []byte
	err     error
}

func (in *input) Read(p []byte) (int, error) {
	if !in.ready { // the server reads only once the banner is out
		in.ready = true
		in.h.before("ready", "")
	}
	for len(in.pending) == 0 {
		if in.err != nil {
			return 0, in.err
		}
		line, err := in.r.ReadString('\n')
		if line != "" {
			// Here, not in the handler: the server hands the line over on a goroutine,
			// which is the fake's cost and not the client's.
			in.h.received()
		}
		if err != nil {
			in.err = err
			in.h.before("eof", "")
		}
		fields := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' })
		if len(fields) > 0 && strings.EqualFold(fields[0], "exit") && in.h.before("exit", strings.Join(fields[1:], " ")) {
			continue // the exit is ignored
		}
		in.pending = []byte(line)
	}
	n := copy(p, in.pending)
	in.pending = in.pending[n:]
	return n, nil
}
