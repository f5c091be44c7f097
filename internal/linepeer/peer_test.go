package linepeer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/lines"
	"hivearbiter/internal/proc"
)

// The test binary doubles as the peer: with LINEPEER_FAKE set it runs fakePeer.
const fakeEnv = "LINEPEER_FAKE"

func TestMain(m *testing.M) {
	proc.Main() // on Windows a copy of the test binary is its Ctrl-C sender
	if scenario := os.Getenv(fakeEnv); scenario != "" {
		os.Exit(fakePeer(scenario))
	}
	// Under the race detector every process sleeps a second at exit to let reports through;
	// the fakes this test starts inherit this and exit at once instead.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

func fakePeer(scenario string) int {
	switch scenario {
	case "crash":
		fmt.Fprintln(os.Stderr, "fatal: no luck")
		return 7
	case "long-line":
		fmt.Println(strings.Repeat("x", 100))
	case "deaf":
		time.Sleep(time.Minute)
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		switch line := in.Text(); line {
		case "bye":
			return 0
		case "ignore":
		default:
			fmt.Print("echo " + line + "\r\n")
		}
	}
	return 0
}

func startFake(t *testing.T, scenario string, cfg Config) *Peer {
	t.Helper()
	cfg.Command = []string{os.Args[0]}
	cfg.Env = []string{fakeEnv + "=" + scenario}
	cfg.Grace = 200 * time.Millisecond
	p, err := Start(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Kill() })
	return p
}

func TestConversation(t *testing.T) {
	var transcript strings.Builder
	p := startFake(t, "echo", Config{Name: "echoer", Transcript: &transcript})
	if err := p.Send(t.Context(), "hello world"); err != nil {
		t.Fatal(err)
	}
	line, err := p.Next(t.Context(), "an echo")
	if err != nil || line != "echo hello world" {
		t.Fatalf("got %q, %v", line, err)
	}
	if err := p.Send(t.Context(), "two\nlines"); err == nil {
		t.Error("a line with a line break was sent")
	}
	// A wait that ends with its context leaves the peer usable.
	p.Send(t.Context(), "ignore")
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err = p.Next(ctx, "nothing")
	var timeout *proc.TimeoutError
	if !errors.As(err, &timeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want a TimeoutError", err)
	}
	// The error is read by users, in a record's detail: it speaks their words, not Go's.
	if msg := err.Error(); !strings.HasPrefix(msg, "linepeer: echoer: no nothing within 0.0") || strings.Contains(msg, "deadline exceeded") {
		t.Errorf("the timeout says %q", msg)
	}
	p.Send(t.Context(), "again")
	if line, err := p.Next(t.Context(), "an echo"); err != nil || line != "echo again" {
		t.Fatalf("got %q, %v", line, err)
	}
	if err := p.Close(t.Context(), "bye"); err != nil {
		t.Errorf("close: %v", err)
	}
	if !strings.Contains(transcript.String(), "> hello world") || !strings.Contains(transcript.String(), "< echo hello world") {
		t.Errorf("transcript:\n%s", transcript.String())
	}
}

func TestCrash(t *testing.T) {
	p := startFake(t, "crash", Config{})
	_, err := p.Next(t.Context(), "a move")
	var exit *proc.ExitError
	if !errors.As(err, &exit) || exit.ExitCode != 7 || !strings.Contains(err.Error(), "fatal: no luck") {
		t.Fatalf("got %v", err)
	}
}

func TestLongLine(t *testing.T) {
	p := startFake(t, "long-line", Config{MaxLineBytes: 10})
	line, err := p.Next(t.Context(), "a line")
	if !errors.Is(err, lines.ErrTooLong) || line != strings.Repeat("x", 10) {
		t.Fatalf("got %q, %v", line, err)
	}
}

// TestDeafPeer: a peer that reads nothing is killed by Close after the grace period, and a
// send to it ends with its context.
func TestDeafPeer(t *testing.T) {
	p := startFake(t, "deaf", Config{})
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	big := strings.Repeat("y", 1<<16)
	var err error
	for i := 0; i < 100 && err == nil; i++ { // far more than a pipe holds
		err = p.Send(ctx, big)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want the context's end", err)
	}
	begin := time.Now()
	if err := p.Close(t.Context(), "bye"); err == nil {
		t.Error("a deaf peer left without being killed")
	}
	if took := time.Since(begin); took > 2*time.Second {
		t.Errorf("close took %v", took)
	}
}

func TestTCP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan struct{})
	go func() {
		defer close(served)
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		sc := bufio.NewScanner(conn)
		for sc.Scan() {
			fmt.Fprintf(conn, "echo %s\n", sc.Text())
		}
	}()
	p, err := Start(t.Context(), Config{Addr: ln.Addr().String(), Grace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p.Send(t.Context(), "over the wire")
	if line, err := p.Next(t.Context(), "an echo"); err != nil || line != "echo over the wire" {
		t.Fatalf("got %q, %v", line, err)
	}
	if err := p.Close(t.Context(), ""); err != nil {
		t.Errorf("close: %v", err)
	}
	<-served
	if _, err := p.Next(t.Context(), "anything"); err == nil {
		t.Error("a closed peer answered")
	}
}

func TestConfig(t *testing.T) {
	for _, cfg := range []Config{{}, {Command: []string{"x"}, Addr: "localhost:1"}} {
		if _, err := Start(t.Context(), cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}
