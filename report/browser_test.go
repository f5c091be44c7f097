package report

import (
	"context"
	"fmt"
	"hivearbiter/internal/testkit/testenv"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"hivearbiter/results"
	"hivearbiter/rules"
)

// browser is a headless Chromium driven over the DevTools protocol, which records every
// console error and uncaught exception of the pages it shows.
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

func newBrowser(t *testing.T, width, height int) *browser {
	t.Helper()
	path := testenv.NeedChromium(t)
	// The profile is removed after the browser, with retries: Chromium's helper processes may
	// still be writing to it for a moment after the browser has been stopped, which made
	// t.TempDir's cleanup fail now and then.
	profile, err := os.MkdirTemp("", "report-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for try := 0; ; try++ {
			err := os.RemoveAll(profile)
			if err == nil || try == 50 {
				if err != nil {
					t.Logf("leaving Chromium's profile %s: %v", profile, err)
				}
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile), chromedp.WindowSize(width, height))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	b := &browser{ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				b.errors = append(b.errors, "console.error: "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			b.errors = append(b.errors, "exception: "+ev.ExceptionDetails.Error())
		}
	})
	if err := chromedp.Run(ctx); err != nil { // start the browser
		t.Fatalf("starting chromium: %v", err)
	}
	return b
}

func (b *browser) run(t *testing.T, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// noErrors fails the test if a page logged an error or threw. The page's own list is read
// first: the round trip lets the browser's earlier console events reach the listener.
func (b *browser) noErrors(t *testing.T) {
	t.Helper()
	var pageErrors []string
	if err := chromedp.Run(b.ctx, chromedp.Evaluate(`window.hiveReport ? window.hiveReport.errors : ["no hiveReport"]`, &pageErrors)); err != nil {
		t.Error(err)
	}
	for _, e := range pageErrors {
		t.Error("page: " + e)
	}
	b.mu.Lock()
	logged := b.errors
	b.mu.Unlock()
	for _, e := range logged {
		t.Error(e)
	}
}

// open loads a page and waits until its script says it has drawn everything.
func (b *browser) open(t *testing.T, url string) {
	t.Helper()
	var ready string
	b.run(t, chromedp.Navigate(url),
		chromedp.WaitVisible(`body[data-ready]`, chromedp.ByQuery),
		chromedp.AttributeValue(`body`, "data-ready", &ready, nil, chromedp.ByQuery))
	if ready != "1" {
		b.noErrors(t)
		t.Fatalf("the page did not draw (data-ready=%q)", ready)
	}
}

// text returns the text of the first element the CSS selector finds, "" if none.
func (b *browser) text(t *testing.T, selector string) string {
	t.Helper()
	var s string
	b.run(t, chromedp.Evaluate(fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, selector), &s))
	return s
}

// drawnStacks reads the board a page draws: the pieces of each cell, bottom first, keyed by the
// referee's cell.
func (b *browser) drawnStacks(t *testing.T, board string) stacks {
	t.Helper()
	var cells []struct {
		Q, R  string
		Stack string
	}
	b.run(t, chromedp.Evaluate(fmt.Sprintf(`[...document.querySelectorAll(%q)].map(g => ({Q: g.dataset.q, R: g.dataset.r, Stack: g.dataset.stack}))`, board+" g.hexcell"), &cells))
	s := stacks{}
	for _, c := range cells {
		q, _ := strconv.Atoi(c.Q)
		r, _ := strconv.Atoi(c.R)
		var st []rules.Piece
		for _, name := range strings.Fields(c.Stack) {
			p, err := rules.ParsePiece(name)
			if err != nil {
				t.Fatal(err)
			}
			st = append(st, p)
		}
		s[wrap(axial{q, r})] = st
	}
	return s
}

// refereePositions replays a record through the referee and returns the position after each ply
// (index 0 is the empty board) and each ply's MoveString in Mzinga's notation, opening included.
func refereePositions(t *testing.T, rec *results.Record) ([]stacks, []string) {
	t.Helper()
	start, err := rules.ParseGameString(rec.Opening)
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGame(start.GameType())
	out := []stacks{refereeStacks(g.Board())}
	moves := start.Moves()
	for _, m := range rec.Moves {
		moves = append(moves, m.Move)
	}
	var canonical []string
	for _, m := range moves {
		mv, err := g.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		canonical = append(canonical, g.MoveString(mv))
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		out = append(out, refereeStacks(g.Board()))
	}
	return out, canonical
}

func TestReportInBrowser(t *testing.T) {
	b := newBrowser(t, 1280, 900)
	const pairs = 12
	recs := synthetic{engines: []string{"new", "old"}, games: 2 * pairs, minPlies: 30, maxPlies: 70, times: []string{"10+0.1", "st=0.2"}}.
		records(rand.New(rand.NewPCG(11, 11)))
	path := filepath.Join(t.TempDir(), "report.html")
	if err := WriteFile(path, Build(recs, Options{SPRT: sprtTest})); err != nil {
		t.Fatal(err)
	}
	b.open(t, "file://"+path)

	var points map[string]int
	b.run(t, chromedp.Evaluate(`Object.fromEntries(Object.entries(hiveReport.charts).map(([k, u]) => [k, u.data[0].length]))`, &points))
	for _, chart := range []string{"elo", "llr", "openings", "terminations", "time", "clock", "lengths"} {
		if _, ok := points[chart]; !ok {
			t.Errorf("no %s chart (charts: %v)", chart, points)
		}
	}
	if points["elo"] != pairs || points["llr"] != pairs {
		t.Errorf("Elo chart has %d points and LLR chart %d, want one per game pair (%d)", points["elo"], points["llr"], pairs)
	}
	var rows int
	b.run(t, chromedp.Evaluate(`document.querySelectorAll('#games tbody tr').length`, &rows))
	if rows != len(recs) {
		t.Errorf("the game list shows %d games, want %d", rows, len(recs))
	}

	// Replay game 3 from its first ply to its last with the arrow key, checking the board, the
	// move and the clocks against the referee at every ply.
	rec := &recs[3]
	want, moves := refereePositions(t, rec)
	openingPlies := len(want) - 1 - len(rec.Moves)
	b.run(t, chromedp.Click(`#games tbody tr[data-game="3"]`, chromedp.ByQuery), chromedp.KeyEvent(kb.Home))
	for ply := range want {
		if ply > 0 {
			b.run(t, chromedp.KeyEvent(kb.ArrowRight))
		}
		if got := b.drawnStacks(t, "#board"); !equalStacks(got, want[ply]) {
			t.Fatalf("ply %d: the page draws %v, the referee has %v", ply, got, want[ply])
		}
		move, white, black := b.text(t, "#move"), b.text(t, "#clock-white"), b.text(t, "#clock-black")
		if ply > 0 && !strings.Contains(move, moves[ply-1]) {
			t.Errorf("ply %d: the page shows %q, want the move %s", ply, move, moves[ply-1])
		}
		if ply > openingPlies {
			m := rec.Moves[ply-1-openingPlies]
			clockSide := white // the mover's clock: White moved the odd plies
			if ply%2 == 0 {
				clockSide = black
			}
			if m.ClockMillis != nil && !strings.Contains(clockSide, clockText(*m.ClockMillis)) {
				t.Errorf("ply %d: the clock shows %q, want %s", ply, clockSide, clockText(*m.ClockMillis))
			}
		}
	}
	if ending := b.text(t, "#ending:not(.hidden)"); !strings.Contains(ending, string(rec.Reason)) || !strings.Contains(ending, rec.Result) {
		t.Errorf("at the last ply the page shows %q, want the result %s and reason %s", ending, rec.Result, rec.Reason)
	}
	b.noErrors(t)
}

// clockText is how the page writes a clock: minutes and seconds to a tenth.
func clockText(ms int64) string {
	s := float64(ms) / 1000
	m := int(s / 60)
	return fmt.Sprintf("%d:%04.1f", m, s-60*float64(m))
}

// TestLivePageInBrowser plays a game into a live page and checks that every move shows on the
// game's board within a second, on the referee's position, and that the finished game can be
// replayed.
func TestLivePageInBrowser(t *testing.T) {
	b := newBrowser(t, 1280, 900)
	recs := synthetic{engines: []string{"new", "old"}, games: 2, minPlies: 24, maxPlies: 24, times: []string{"10+0.1"}}.
		records(rand.New(rand.NewPCG(12, 12)))
	live := NewLive(Options{Engines: []string{"new", "old"}, SPRT: sprtTest, Planned: 2})
	srv := httptest.NewServer(live)
	defer func() { srv.CloseClientConnections(); srv.Close() }() // the page's event stream never ends by itself
	live.GameFinished(&recs[0])
	b.open(t, srv.URL+"/")

	rec := &recs[1]
	want, _ := refereePositions(t, rec)
	openingPlies := len(want) - 1 - len(rec.Moves)
	live.GameStarted(rec.Game, rec.White, rec.Black, rec.Opening)
	status := fmt.Sprintf("#status-%d", rec.Game)
	var slowest, total time.Duration
	for i, m := range rec.Moves {
		ply := openingPlies + i + 1
		began := time.Now()
		live.MovePlayed(rec.Game, m)
		var shown bool
		b.run(t, chromedp.Poll(fmt.Sprintf(`((document.querySelector(%q) || {}).textContent || "").startsWith("ply %d: ")`, status, ply), &shown,
			chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(time.Second)))
		slowest, total = max(slowest, time.Since(began)), total+time.Since(began)
		if got := b.drawnStacks(t, fmt.Sprintf(`.running [data-game="%d"]`, rec.Game)); !equalStacks(got, want[ply]) {
			t.Fatalf("ply %d: the live board shows %v, the referee has %v", ply, got, want[ply])
		}
	}
	t.Logf("%d moves, each on the page within %v (%v on average)", len(rec.Moves), slowest, total/time.Duration(len(rec.Moves)))
	live.GameFinished(rec)
	var shown bool
	b.run(t, chromedp.Poll(`document.querySelectorAll('#games tbody tr').length == 2 && document.querySelectorAll('.running .game').length == 0`, &shown,
		chromedp.WithPollingTimeout(time.Second)))
	b.run(t, chromedp.Click(`#games tbody tr[data-game="1"]`, chromedp.ByQuery))
	// The page numbers games from 1, as the console and the PGN do: the record's game 1 is
	// the second game.
	var number string
	b.run(t, chromedp.Evaluate(`document.querySelector('#games tbody tr[data-game="1"] td').textContent`, &number))
	if number != "2" {
		t.Errorf("the record's game 1 is numbered %q on the page, want 2 (from 1, as on the console)", number)
	}
	if got := b.drawnStacks(t, "#board"); !equalStacks(got, want[len(want)-1]) {
		t.Errorf("the finished game replays to %v, the referee has %v", got, want[len(want)-1])
	}
	var llrPoints int
	b.run(t, chromedp.Evaluate(`hiveReport.charts.llr.data[0].length`, &llrPoints))
	if llrPoints != 1 {
		t.Errorf("the LLR chart has %d points after one game pair", llrPoints)
	}
	b.noErrors(t)
}
