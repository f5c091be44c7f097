package viewerbridge

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/driver"

	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// served is a Session over in-process fake players, with what it started.
type served struct {
	*Session
	dir     string
	started [2][]*arbitertest.Player // every player started per seat, the latest last
}

// faults gives each seat's first player a misbehaviour ("" for none) from a ply on.
type faults struct {
	fault [2]string
	atPly [2]int
	plays [2]*rules.GameType // the widest game type each seat's players play; nil: Base+MLP
	// silent seats have players that do not say which expansions they play.
	silent [2]bool
	// restart seats have engines with restart=on.
	restart [2]bool
}

func newServed(t *testing.T, f faults) *served {
	t.Helper()
	sv := &served{dir: t.TempDir()}
	var cfg SessionConfig
	for side, name := range []string{"alpha", "beta"} {
		// A margin no player in this process outlives on a loaded machine unless it hangs;
		// a seat that hangs gets a tight one, so that its loss on time comes quickly.
		margin := 2 * time.Second
		if f.fault[side] == "hang" {
			margin = 50 * time.Millisecond
		}
		cfg.Engines[side] = driver.EngineConfig{Name: name, Protocol: arbitertest.Name, Command: []string{name}, Time: driver.TimeControl{MoveTime: 100 * time.Millisecond}, Margin: margin, Restart: f.restart[side]}
	}
	cfg.Start = func(_ context.Context, e driver.EngineConfig, seat int) (driver.Player, error) {
		p := arbitertest.New(e.Name, uint64(10*seat+len(sv.started[seat])+1))
		if len(sv.started[seat]) == 0 && f.fault[seat] != "" {
			p.Misbehave(f.fault[seat], f.atPly[seat])
		}
		sv.started[seat] = append(sv.started[seat], p)
		plays := rules.BaseMLP
		if f.plays[seat] != nil {
			plays = *f.plays[seat]
		}
		if f.silent[seat] {
			return p, nil
		}
		return p.SetPlays(plays), nil
	}
	cfg.Out = filepath.Join(sv.dir, "serve.jsonl")
	cfg.PGNOut = filepath.Join(sv.dir, "serve.pgn")
	cfg.CommandTimeout = time.Second // what a player that stalls on play costs a test
	cfg.DepthTimeout = time.Second
	s, err := NewSession(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	sv.Session = s
	return sv
}

func (sv *served) player(seat int) *arbitertest.Player {
	return sv.started[seat][len(sv.started[seat])-1]
}

func (sv *served) records(t *testing.T) []results.Record {
	t.Helper()
	recs, err := results.ReadFile(sv.Out())
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return recs
}

// succeeds returns a function that takes a command's reply and fails the test on an error.
func succeeds(t *testing.T) func(string, error) string {
	return func(reply string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return reply
	}
}

// refusal returns the text of an err reply, failing the test for anything else.
func refusal(t *testing.T, err error) string {
	t.Helper()
	var e *uhpserver.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want an err reply", err)
	}
	return e.Message
}

func TestSessionInfo(t *testing.T) {
	all, mp := rules.BaseMLP, rules.BaseMP
	sv := newServed(t, faults{plays: [2]*rules.GameType{&all, &mp}})
	info := sv.Info()
	if info.ID != "Hive Arbiter serve v"+arbiter.Version+" (players: alpha vs beta)" {
		t.Errorf("id %q", info.ID)
	}
	if !slices.Equal(info.Capabilities, []string{"Mosquito", "Pillbug"}) {
		t.Errorf("capabilities %q, want those both players report", info.Capabilities)
	}
	ctx := context.Background()
	must := succeeds(t)
	if msg := refusal(t, errOnly(sv.NewGame(ctx, "Base+L"))); !strings.Contains(msg, "Not every player plays Base+L") {
		t.Errorf("newgame Base+L: %q", msg)
	}
	must(sv.NewGame(ctx, "Base+MP"))
	if gs := must(sv.NewGame(ctx, "remote")); gs != "Base+MP;NotStarted;White[1]" {
		t.Errorf("a remote game with no game type should have every expansion both play: %q", gs)
	}
}

// TestSessionPlayerOfUnknownExpansions: a player that does not say which expansions it plays
// (as UGI engines do not) does not narrow the game types offered, as in a tournament.
func TestSessionPlayerOfUnknownExpansions(t *testing.T) {
	mp := rules.BaseMP
	sv := newServed(t, faults{plays: [2]*rules.GameType{nil, &mp}, silent: [2]bool{true, false}})
	if got := sv.Info().Capabilities; !slices.Equal(got, []string{"Mosquito", "Pillbug"}) {
		t.Errorf("capabilities %q, want those of the player that says", got)
	}
	if gs := succeeds(t)(sv.NewGame(context.Background(), "remote")); gs != "Base+MP;NotStarted;White[1]" {
		t.Errorf("remote game %q", gs)
	}
}

func errOnly(_ string, err error) error { return err }

// TestSessionWatchedGame plays a game the way a viewer watches an engine match: bestmove, then
// play what it said, to the end; the referee's game, the players' games and the record agree.
func TestSessionWatchedGame(t *testing.T) {
	sv := newServed(t, faults{})
	ctx := context.Background()
	must := succeeds(t)
	if gs := must(sv.NewGame(ctx, "")); gs != "Base;NotStarted;White[1]" {
		t.Fatalf("newgame: %q", gs)
	}
	var gs string
	for ply := 0; ply < 400; ply++ {
		move := must(sv.BestMove(ctx, uhpserver.BestMoveArgs{}))
		gs = must(sv.Play(ctx, move))
		if !strings.Contains(gs, ";InProgress;") {
			break
		}
	}
	ref, err := rules.ParseGameString(gs)
	if err != nil || !ref.State().IsOver() {
		t.Fatalf("the game did not end: %q %v", gs, err)
	}
	for seat := range 2 {
		if got := sv.player(seat).Game().GameString(); got != gs {
			t.Errorf("player %d holds %q, the viewer %q", seat, got, gs)
		}
	}
	if _, err := sv.Play(ctx, "pass"); refusal(t, err) != uhpserver.ErrGameOver {
		t.Errorf("play after the end: %v", err)
	}
	recs := sv.records(t)
	if len(recs) != 1 {
		t.Fatalf("%d records, want 1", len(recs))
	}
	r := recs[0]
	if r.GameString != gs || r.Result != ref.State().String() || r.Reason != results.ReasonQueenSurrounded || r.Culprit != "" {
		t.Errorf("record %+v does not match the game %q", r, gs)
	}
	if r.White.Name != "alpha" || r.Black.Name != "beta" || r.White.ID != "alpha v1" || !strings.HasPrefix(r.Run, "serve-") || r.Game != 0 {
		t.Errorf("record header %+v", r)
	}
	if len(r.Moves) != ref.Ply() {
		t.Errorf("%d moves recorded, %d played", len(r.Moves), ref.Ply())
	}
	pgn, err := os.ReadFile(sv.cfg.PGNOut)
	if err != nil || !bytes.Contains(pgn, []byte(`[Termination "queen-surrounded"]`)) {
		t.Errorf("PGN: %v\n%s", err, pgn)
	}
}

func TestSessionRefusesIllegalViewerMoves(t *testing.T) {
	sv := newServed(t, faults{})
	ctx := context.Background()
	must := succeeds(t)
	if _, err := sv.Play(ctx, "wS1"); refusal(t, err) != uhpserver.ErrNoGame {
		t.Errorf("play before newgame: %v", err)
	}
	must(sv.NewGame(ctx, "Base;InProgress;White[2];wS1;bS1 wS1-"))
	tests := []struct{ move, want string }{
		{"wQ", "invalidmove " + rules.ReasonOccupied},
		{"bQ -wS1", "invalidmove " + rules.ReasonNotYourTurn},
		{"wM wS1/", "invalidmove " + rules.ReasonNotEnabled},
		{"xyzzy", `invalidmove Unable to parse move "xyzzy".`},
		{"pass", "invalidmove " + rules.ReasonPassWithMoves},
	}
	for _, tc := range tests {
		_, err := sv.Play(ctx, tc.move)
		var invalid *uhpserver.InvalidMoveError
		if !errors.As(err, &invalid) || err.Error() != tc.want {
			t.Errorf("play %s: got %v, want %s", tc.move, err, tc.want)
		}
	}
	for seat := range 2 {
		if p := sv.player(seat); p.Game().Ply() != 2 {
			t.Errorf("player %d was sent an illegal move: %s", seat, p.Game().GameString())
		}
	}
	// A refused newgame keeps the game, as in Mzinga.
	if msg := refusal(t, errOnly(sv.NewGame(ctx, "Base;InProgress;White[1];wQ"))); !strings.HasPrefix(msg, "Unable to play 'wQ' in GameString") {
		t.Errorf("newgame with an illegal GameString: %q", msg)
	}
	if gs := must(sv.Play(ctx, "wQ -wS1")); gs != "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1" {
		t.Errorf("the legal move gave %q", gs)
	}
}

// TestSessionFailures makes each seat's engine fail in each way a viewer can meet: the viewer
// gets err naming the engine and the reason, the game is recorded against the culprit, and
// the culprit is restarted for the next game while the other keeps running.
func TestSessionFailures(t *testing.T) {
	tests := []struct {
		fault  string
		atPly  int
		reason results.Reason
		detail string
	}{
		{"desync", 4, results.ReasonDesync, "its game differs from the referee's"},
		{"reject-play", 4, results.ReasonDesync, "rejected the legal move"},
		{"stall-play", 4, results.ReasonStall, "failed to play"},
		{"crash", 3, results.ReasonCrash, "exit status 101"},
		{"hang", 3, results.ReasonTimeForfeit, "did not answer its 0.100 s search within"},
		{"illegal", 3, results.ReasonIllegalMove, "played the illegal move"},
		{"garbage", 3, results.ReasonProtocol, "no ok line"},
	}
	for _, tc := range tests {
		for seat, color := range []string{rules.White.String(), rules.Black.String()} {
			t.Run(tc.fault+"/"+color, func(t *testing.T) {
				t.Parallel()
				var f faults
				f.fault[seat], f.atPly[seat] = tc.fault, tc.atPly
				sv := newServed(t, f)
				ctx := context.Background()
				must := succeeds(t)
				must(sv.NewGame(ctx, "Base+MLP"))
				var err error
				for ply := 0; ply < 20 && err == nil; ply++ {
					var move string
					if move, err = sv.BestMove(ctx, uhpserver.BestMoveArgs{}); err == nil {
						_, err = sv.Play(ctx, move)
					}
				}
				msg := refusal(t, err)
				name := []string{"alpha", "beta"}[seat]
				if !strings.HasPrefix(msg, color+" ("+name+")") || !strings.Contains(msg, tc.detail) || !strings.Contains(msg, string(tc.reason)) {
					t.Errorf("err %q does not name %s (%s) and %q", msg, color, name, tc.detail)
				}
				if tc.fault == "desync" && strings.Count(msg, `"Base+MLP;`) != 2 {
					t.Errorf("a desync err should show both GameStrings: %q", msg)
				}
				recs := sv.records(t)
				if len(recs) != 1 || recs[0].Reason != tc.reason || recs[0].Culprit != color || recs[0].ScoreOf(name) != 0 {
					t.Fatalf("records %+v, want one game lost by %s for %s", recs, color, tc.reason)
				}
				if _, err := sv.ValidMoves(ctx); !strings.Contains(refusal(t, err), "The game is over: "+color) {
					t.Errorf("after the failure: %v", err)
				}
				if _, err := sv.Undo(ctx, 1); err == nil {
					t.Errorf("undo after a failure went through")
				}
				if !sv.player(seat).Closed() || len(sv.started[seat]) != 1 {
					t.Errorf("the culprit was not stopped")
				}
				must(sv.NewGame(ctx, ""))
				if len(sv.started[seat]) != 2 || len(sv.started[1-seat]) != 1 || sv.started[1-seat][0].Closed() {
					t.Errorf("starts %d/%d: want the culprit restarted, the other kept", len(sv.started[0]), len(sv.started[1]))
				}
			})
		}
	}
}

func TestSessionForfeit(t *testing.T) {
	sv := newServed(t, faults{})
	ctx := context.Background()
	must := succeeds(t)
	must(sv.NewGame(ctx, "Base;InProgress;Black[1];wS1"))
	if gs := must(sv.Play(ctx, "forfeit")); gs != "Base;WhiteWins;Black[1];wS1" {
		t.Errorf("forfeit: %q", gs)
	}
	if _, err := sv.BestMove(ctx, uhpserver.BestMoveArgs{}); !strings.Contains(refusal(t, err), "Black (beta) forfeited") {
		t.Errorf("bestmove after a forfeit: %v", err)
	}
	recs := sv.records(t)
	if len(recs) != 1 || recs[0].Reason != results.ReasonForfeit || recs[0].Result != results.WhiteWins || recs[0].Culprit != "" {
		t.Fatalf("records %+v", recs)
	}
	if recs[0].Opening != "Base;InProgress;Black[1];wS1" || len(recs[0].Moves) != 0 {
		t.Errorf("opening %q, moves %v", recs[0].Opening, recs[0].Moves)
	}
}

func TestSessionRemote(t *testing.T) {
	sv := newServed(t, faults{})
	ctx := context.Background()
	must := succeeds(t)
	// Alternating sides: the viewer has White first, so Black's engine (beta) replies.
	if gs := must(sv.NewGame(ctx, "remote Base")); gs != "Base;NotStarted;White[1]" {
		t.Fatalf("newgame remote: %q", gs)
	}
	reply := must(sv.Play(ctx, "wS1"))
	lines := strings.Split(reply, "\n")
	if len(lines) != 3 || lines[0] != "Base;InProgress;Black[1];wS1" || lines[2] != gameOf(t, "wS1", lines[1]) {
		t.Fatalf("remote play: %q", reply)
	}
	if sv.player(1).Game().GameString() != lines[2] || sv.player(0).Game() != nil {
		t.Errorf("beta holds %q, alpha %v: only the opponent plays a remote game", sv.player(1).Game().GameString(), sv.player(0).Game())
	}
	if _, err := sv.BestMove(ctx, uhpserver.BestMoveArgs{}); err == nil {
		t.Error("bestmove in a remote game gave the viewer a move")
	}
	if _, err := sv.Undo(ctx, 1); !strings.Contains(refusal(t, err), "must be left to move") {
		t.Errorf("undo 1 in a remote game: %v", err)
	}
	if gs := must(sv.Undo(ctx, 2)); gs != "Base;NotStarted;White[1]" || sv.player(1).Game().Ply() != 0 {
		t.Errorf("undo 2: %q, beta at ply %d", gs, sv.player(1).Game().Ply())
	}
	// Then Black: White's engine (alpha) opens at once.
	gs := must(sv.NewGame(ctx, "remote"))
	g, err := rules.ParseGameString(gs)
	if err != nil || g.Ply() != 1 || g.GameType() != rules.BaseMLP {
		t.Fatalf("newgame remote as Black: %q", gs)
	}
	if got := must(sv.NewGame(ctx, "remote black Base")); strings.Count(got, ";") != 3 {
		t.Errorf("newgame remote black: %q", got)
	}
	must(sv.Play(ctx, "forfeit"))
	recs := sv.records(t)
	if len(recs) != 1 || recs[0].Black.Name != ViewerName || recs[0].White.Name != "alpha" || recs[0].White.Time != "st=0.1" || recs[0].Result != results.WhiteWins {
		t.Errorf("records %+v", recs)
	}
}

// quickWin is a short game that Black wins by surrounding White's queen.
var quickWin = []string{"wG1", "bG1 wG1\\", "wQ wG1/", "bG2 bG1-", "wQ \\bG2", "bS1 bG2-", "wS1 wQ/", "bQ bS1/", "wG2 -wS1", "bQ wS1\\"}

// gameOf is the GameString of a Base game after moves.
func gameOf(t *testing.T, moves ...string) string {
	t.Helper()
	g := rules.NewGame(rules.Base)
	for _, m := range moves {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g.GameString()
}

// TestSessionUndo takes moves back in the middle of a game and after its end: the players are
// re-synchronized, and a game that ends again is recorded again.
func TestSessionUndo(t *testing.T) {
	sv := newServed(t, faults{})
	ctx := context.Background()
	must := succeeds(t)
	must(sv.NewGame(ctx, gameOf(t, quickWin[:8]...)))
	if msg := refusal(t, errOnly(sv.Undo(ctx, 9))); msg != "Unable to undo 9 moves." {
		t.Errorf("undo 9: %q", msg)
	}
	back := must(sv.Undo(ctx, 2))
	if back != gameOf(t, quickWin[:6]...) || sv.player(0).Game().GameString() != back || sv.player(1).Game().GameString() != back {
		t.Fatalf("undo 2: %q; players %q, %q", back, sv.player(0).Game().GameString(), sv.player(1).Game().GameString())
	}
	var end string
	for _, m := range quickWin[6:] {
		end = must(sv.Play(ctx, m))
	}
	if end != gameOf(t, quickWin...) || !strings.Contains(end, ";BlackWins;") {
		t.Fatalf("the game did not end: %q", end)
	}
	must(sv.Undo(ctx, 1))
	must(sv.Play(ctx, quickWin[9]))
	recs := sv.records(t)
	if len(recs) != 2 || recs[0].Game != 0 || recs[1].Game != 1 {
		t.Fatalf("records %+v, want the ending recorded twice as games 0 and 1", recs)
	}
	for _, r := range recs {
		if r.Opening != gameOf(t, quickWin[:6]...) || len(r.Moves) != 4 || r.Result != results.BlackWins || r.GameString != end {
			t.Errorf("record opening %q moves %v result %s", r.Opening, r.Moves, r.Result)
		}
	}
}

// TestSessionRecordsContinue opens a records file that already holds a session's games: the
// numbering goes on.
func TestSessionRecordsContinue(t *testing.T) {
	sv := newServed(t, faults{})
	ctx := context.Background()
	must := succeeds(t)
	must(sv.NewGame(ctx, ""))
	must(sv.Play(ctx, "forfeit"))
	out := sv.Out()
	sv.Close(ctx)

	again := newServed(t, faults{})
	again.cfg.Out = out
	must(again.NewGame(ctx, ""))
	must(again.Play(ctx, "forfeit"))
	recs, err := results.ReadFiles(out)
	if err != nil || len(recs) != 2 || recs[1].Game != 1 || recs[0].Run != recs[1].Run {
		t.Fatalf("records %+v, %v", recs, err)
	}
}

// TestSessionRecordsBesideARun: arbiter serve writes its records and PGN through the sink a
// tournament writes through (results.Sink), under the same locks: while a run holds the files,
// a game served is not written (the error says they are locked) and neither file changes; once
// the run has closed them, the next game is written after the run's, in both files.
func TestSessionRecordsBesideARun(t *testing.T) {
	sv := newServed(t, faults{})
	ctx := context.Background()
	must := succeeds(t)
	run, err := results.OpenSink(sv.cfg.Out, results.SinkOptions{PGN: sv.cfg.PGNOut, RebuildPGN: true}, func(*results.Record) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	runs := results.Record{Schema: results.SchemaVersion, Run: "run-1", White: results.Player{Name: "x"}, Black: results.Player{Name: "y"},
		GameType: "Base", Result: results.WhiteWins, Reason: results.ReasonForfeit, GameString: "Base;WhiteWins;White[1]"}
	if err := run.Append(&runs); err != nil {
		t.Fatal(err)
	}
	files := func() string {
		records, _ := os.ReadFile(sv.cfg.Out)
		pgn, _ := os.ReadFile(sv.cfg.PGNOut)
		return string(records) + "\x00" + string(pgn)
	}
	before := files()
	must(sv.NewGame(ctx, ""))
	must(sv.Play(ctx, "forfeit"))
	var locked *results.LockedError
	if !errors.As(sv.writeErr, &locked) {
		t.Errorf("a game served while a run writes the files: %v, want a *results.LockedError", sv.writeErr)
	}
	if files() != before {
		t.Error("the game served while a run writes the files changed them")
	}
	if err := run.Close(); err != nil {
		t.Fatal(err)
	}
	must(sv.NewGame(ctx, ""))
	must(sv.Play(ctx, "forfeit"))
	sv.Close(ctx)
	recs := sv.records(t)
	if len(recs) != 2 || recs[0].Run != "run-1" || recs[1].Run != sv.Run() || recs[1].Game != 0 {
		t.Fatalf("records %+v", recs)
	}
	f, err := os.Open(sv.cfg.PGNOut)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := results.ParsePGN(f)
	if err != nil || len(games) != 2 || games[0].Tags["White"] != "x" || games[1].Tags["White"] != "alpha" {
		t.Errorf("PGN: %d games, %v", len(games), err)
	}
}

// An engine with restart=on gets a fresh process for every game, as in a match; the other
// keeps its own.
func TestSessionRestartsOnRequest(t *testing.T) {
	sv := newServed(t, faults{restart: [2]bool{true, false}})
	ctx := context.Background()
	must := succeeds(t)
	for range 3 {
		must(sv.NewGame(ctx, ""))
		must(sv.Play(ctx, "forfeit"))
	}
	if got := [2]int{len(sv.started[0]), len(sv.started[1])}; got != [2]int{3, 1} {
		t.Errorf("players started per seat: %v; want [3 1] (restart=on for White's engine only)", got)
	}
}

func TestSessionBestMoveHint(t *testing.T) {
	sv := newServed(t, faults{})
	ctx := context.Background()
	must := succeeds(t)
	must(sv.NewGame(ctx, ""))
	sv.started[0][0].SetDelay(30 * time.Millisecond)
	move := must(sv.BestMove(ctx, uhpserver.BestMoveArgs{Time: 500 * time.Millisecond}))
	must(sv.Play(ctx, move))
	must(sv.Play(ctx, "forfeit"))
	recs := sv.records(t)
	if len(recs) != 1 || len(recs[0].Moves) != 1 || recs[0].Moves[0].Millis < 30 {
		t.Fatalf("records %+v: the engine's move should carry its thinking time", recs)
	}
}

func TestSessionInterrupted(t *testing.T) {
	sv := newServed(t, faults{fault: [2]string{"hang"}})
	ctx, cancel := context.WithCancel(context.Background())
	must := succeeds(t)
	must(sv.NewGame(ctx, ""))
	go func() { time.Sleep(30 * time.Millisecond); cancel() }()
	_, err := sv.BestMove(ctx, uhpserver.BestMoveArgs{Time: time.Hour})
	if !strings.Contains(refusal(t, err), "interrupted") {
		t.Errorf("got %v", err)
	}
	if recs := sv.records(t); len(recs) != 0 {
		t.Errorf("an interrupted game was recorded: %+v", recs)
	}
	must(sv.NewGame(context.Background(), ""))
	if len(sv.started[0]) != 2 {
		t.Error("the interrupted engine was not restarted")
	}
}

func TestParseNewGame(t *testing.T) {
	tests := []struct {
		arg      string
		remote   bool
		side     int
		gameType string
		start    string
		err      string
	}{
		{arg: "", side: -1, start: "Base;NotStarted;White[1]"},
		{arg: "Base+MLP", side: -1, start: "Base+MLP;NotStarted;White[1]"},
		{arg: "Base;InProgress;Black[1];wS1", side: -1, start: "Base;InProgress;Black[1];wS1"},
		{arg: "remote", remote: true, side: -1},
		{arg: "REMOTE black", remote: true, side: 1},
		{arg: "remote Base+M White", remote: true, side: 0, gameType: "Base+M"},
		{arg: "Base+X", err: "Unable to parse 'Base+X' in GameString."},
		{arg: "Base;InProgress;White[1];wQ", err: "Unable to play 'wQ' in GameString: " + rules.ReasonQueenFirstTurn},
		{arg: "remote white black", err: "Unable to parse 'black'"},
		{arg: "remote Base Base", err: "Unable to parse 'Base'"},
		{arg: "remote later", err: "Unable to parse 'later'"},
	}
	for _, tc := range tests {
		req, err := parseNewGame(tc.arg)
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("%q: got %v, want %q", tc.arg, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.arg, err)
			continue
		}
		gameType := ""
		if req.hasType {
			gameType = req.gameType.String()
		}
		start := ""
		if req.start != nil {
			start = req.start.GameString()
		}
		if req.remote != tc.remote || req.side != tc.side || gameType != tc.gameType || start != tc.start {
			t.Errorf("%q: got %+v (start %q)", tc.arg, req, start)
		}
	}
}

func FuzzParseNewGame(f *testing.F) {
	for _, s := range []string{"", "remote", "remote white Base+MLP", "Base;InProgress;Black[1];wS1", "Base+MLP", "remote remote"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		req, err := parseNewGame(arg)
		if err != nil {
			var e *uhpserver.Error
			if !errors.As(err, &e) {
				t.Fatalf("%q: error %v is not an err reply", arg, err)
			}
			return
		}
		if req.remote == (req.start != nil) || req.side < -1 || req.side > 1 {
			t.Fatalf("%q: inconsistent request %+v", arg, req)
		}
		if req.start != nil {
			again, err := rules.ParseGameString(req.start.GameString())
			if err != nil || again.GameString() != req.start.GameString() {
				t.Fatalf("%q: the game does not round-trip: %v", arg, err)
			}
		}
	})
}
