//go:build unix

package uhpclient

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/syncbuf"
)

// A play that is started is written at once, and its reply read only by WaitPlay: two engines
// are both sent a move before either reply is read, and each reply is its own engine's.
func TestStartPlayThenWait(t *testing.T) {
	var transcript syncbuf.Buffer
	log := func(c *Config) { c.Transcript = &transcript }
	engines := [2]*Engine{mustStartFake(t, "normal", log), mustStartFake(t, "normal", log)}
	ctx := t.Context()
	for _, e := range engines {
		if _, err := e.NewGame(ctx, "Base"); err != nil {
			t.Fatal(err)
		}
	}
	before := len(transcript.String())
	for _, e := range engines {
		if err := e.StartPlay(ctx, "wS1"); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range engines {
		if gs, err := e.WaitPlay(ctx); err != nil || gs != "Base;InProgress;Black[1];wS1" {
			t.Fatalf("got %q, %v", gs, err)
		}
	}
	got := regexp.MustCompile(`(?m)^\S+ (.*)$`).ReplaceAllString(transcript.String()[before:], "$1")
	want := "> play wS1\n> play wS1\n< Base;InProgress;Black[1];wS1\n< ok\n< Base;InProgress;Black[1];wS1\n< ok\n"
	if got != want {
		t.Errorf("the transcript says\n%s\nwant both plays sent before either reply is read:\n%s", got, want)
	}
	// A pass is started as a play is; the engine refuses it here, and stays usable.
	if err := engines[0].StartPass(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := engines[0].WaitPlay(ctx); !errors.As(err, new(*InvalidMoveError)) {
		t.Errorf("pass: %v; want an InvalidMoveError", err)
	}
	if _, err := engines[0].WaitPlay(ctx); err == nil || !strings.Contains(err.Error(), "without a play started") {
		t.Errorf("a second WaitPlay: %v", err)
	}
	if gs, err := engines[0].Play(ctx, "bS1 wS1-"); err != nil || gs != "Base;InProgress;White[2];wS1;bS1 wS1-" {
		t.Errorf("a play after them: %q, %v", gs, err)
	}
}

// A started play's failure is its own engine's: one engine dies on the move while the other
// answers it.
func TestStartedPlayFailsAlone(t *testing.T) {
	dying, healthy := mustStartFake(t, "self-kill"), mustStartFake(t, "normal")
	ctx := t.Context()
	for _, e := range []*Engine{dying, healthy} {
		if err := e.StartPlay(ctx, "wS1"); err != nil {
			t.Fatal(err)
		}
	}
	_, err := dying.WaitPlay(ctx)
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Command != "play wS1" {
		t.Errorf("the dying engine: %v; want its ExitError", err)
	} else {
		checkNamesEngine(t, err, "self-kill")
	}
	if gs, err := healthy.WaitPlay(ctx); err != nil || gs != "Base;InProgress;Black[1];wS1" {
		t.Errorf("the healthy engine: %q, %v", gs, err)
	}
	checkStaysBroken(t, dying, err, "validmoves")
}

// The context a play is started with bounds its reply: an engine that never answers it
// times out in WaitPlay, as in Play.
func TestStartedPlayTimesOut(t *testing.T) {
	e := mustStartFake(t, "hang-play")
	te, _ := checkTimesOut(t, e, 200*time.Millisecond, "play wS1", func(ctx context.Context) error {
		if err := e.StartPlay(ctx, "wS1"); err != nil {
			return err
		}
		_, err := e.WaitPlay(ctx)
		return err
	})
	checkStaysBroken(t, e, te, "validmoves")
}

// The replies an engine's commands read share one slice of lines; what Send returns and the
// info block are the caller's own, whatever is read after them.
func TestRepliesKeptByTheCaller(t *testing.T) {
	e := mustStartFake(t, "normal")
	ctx := t.Context()
	banner := slices.Clone(e.Info().Lines)
	lines, err := e.Send(ctx, "validmoves")
	if err != nil || len(lines) != 1 {
		t.Fatalf("validmoves: %q, %v", lines, err)
	}
	kept := slices.Clone(lines)
	for _, move := range []string{"wS1", "bS1 wS1-"} {
		if _, err := e.Play(ctx, move); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Send(ctx, "validmoves"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lines, kept) || !slices.Equal(e.Info().Lines, banner) {
		t.Errorf("replies read later changed what the caller kept: %q (was %q), info %q (was %q)", lines, kept, e.Info().Lines, banner)
	}
}

// A timeout says whether the engine had answered a command before it (TimeoutError.Replied):
// the banner alone is no answer, a reply ended with "ok" is, so that a silence after answers
// is not taken for output the engine never flushes.
func TestTimeoutSaysWhetherTheEngineHadReplied(t *testing.T) {
	for _, answerFirst := range []bool{false, true} {
		e := mustStartFake(t, "hang-play")
		if answerFirst {
			if _, err := e.Send(t.Context(), "validmoves"); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		_, err := e.Play(ctx, "wS1")
		cancel()
		te, ok := errors.AsType[*TimeoutError](err)
		if !ok {
			t.Fatalf("play of an engine that hangs: %v, want a TimeoutError", err)
		}
		if te.Replied != answerFirst {
			t.Errorf("answered validmoves first: %v; the timeout's Replied is %v", answerFirst, te.Replied)
		}
	}
}
