package arbiter_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/driver"

	"hivearbiter/results"
	"hivearbiter/rules"
)

// testGameConfig's command timeout is what a player that stalls on a command costs a test; a
// player in this process answers in microseconds, but on a loaded machine a pause of a few
// hundred milliseconds happens.
func testGameConfig() arbiter.GameConfig {
	return arbiter.GameConfig{
		Run: "test", Index: 0, Round: 1, Opening: "Base+MLP;NotStarted;White[1]", OpeningIndex: -1,
		CommandTimeout: time.Second, DepthTimeout: time.Second,
		Adjudication: arbiter.Adjudication{MaxPlies: 300},
	}
}

// fastSide plays at 0.2 s a move, with a margin that no player in this process outlives
// unless it means to (a hang), even on a loaded machine: an honest player never loses on time.
func fastSide(name string, p driver.Player) arbiter.Side {
	return arbiter.Side{Name: name, Player: p, Time: driver.TimeControl{MoveTime: 200 * time.Millisecond}, Margin: 2 * time.Second}
}

// tightSide is fastSide with the margin cut to 50 ms, for a player whose loss on time is the
// point: it loses quickly, and a loss on time it suffers earlier under load is still its own.
func tightSide(name string, p driver.Player) arbiter.Side {
	s := fastSide(name, p)
	s.Margin = 50 * time.Millisecond
	return s
}

func TestPlayGameRandomToTheEnd(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		cfg := testGameConfig()
		rec, err := arbiter.PlayGame(context.Background(), cfg, fastSide("a", arbitertest.New("a", seed)), fastSide("b", arbitertest.New("b", seed+100)))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Reason.IsFault() || rec.Culprit != "" {
			t.Fatalf("seed %d: a game between legal players ended by a fault: %+v", seed, rec)
		}
		g, err := rules.ParseGameString(rec.GameString)
		if err != nil {
			t.Fatalf("seed %d: the recorded GameString does not load: %v", seed, err)
		}
		if g.Ply() != len(rec.Moves) {
			t.Errorf("seed %d: %d plies in the GameString, %d moves recorded", seed, g.Ply(), len(rec.Moves))
		}
		switch rec.Reason {
		case results.ReasonQueenSurrounded:
			if g.State().String() != rec.Result {
				t.Errorf("seed %d: result %s but the rules say %s", seed, rec.Result, g.State())
			}
		case results.ReasonMoveLimit:
			if g.Ply() != cfg.Adjudication.MaxPlies || rec.Result != results.Draw {
				t.Errorf("seed %d: move limit at ply %d, result %s", seed, g.Ply(), rec.Result)
			}
		default:
			t.Errorf("seed %d: unexpected reason %s", seed, rec.Reason)
		}
		if rec.White.ID != "a v1" || rec.White.Time != "st=0.2" || rec.Started.IsZero() || rec.Finished.Before(rec.Started) {
			t.Errorf("record metadata: %+v", rec)
		}
	}
}

// TestPlayGameTerminations produces every way a game can end through a player's fault.
func TestPlayGameTerminations(t *testing.T) {
	tests := []struct {
		fault   string
		atPly   int
		reason  results.Reason
		detail  string
		warning string
	}{
		{"illegal", 6, results.ReasonIllegalMove, "illegal move", ""},
		{"unreadable", 4, results.ReasonIllegalMove, `answered "xyzzy", which is not a MoveString`, ""},
		{"pass", 3, results.ReasonIllegalPass, "passed although it had", ""},
		{"hang", 5, results.ReasonTimeForfeit, "loses on time", ""},
		{"slow", 5, results.ReasonTimeForfeit, "loses on time", ""},
		{"crash", 7, results.ReasonCrash, "exit status 101", ""},
		{"crash-newgame", 0, results.ReasonCrash, "failed to start the game", ""},
		{"garbage", 2, results.ReasonProtocol, "no ok line", ""},
		{"stall-play", 4, results.ReasonStall, "failed to play", ""},
		{"reject-play", 4, results.ReasonDesync, "rejected the legal move", ""},
		{"desync", 6, results.ReasonDesync, "differs from the referee's", ""},
		{"false-claim", 6, results.ReasonFalseClaim, "claims Draw", ""},
		{"garbage-state", 6, results.ReasonProtocol, "unknown game state", ""},
	}
	for _, tc := range tests {
		for culprit, name := range []string{"White", "Black"} {
			for _, mode := range playModes {
				t.Run(tc.fault+"/"+name+"/"+mode.name, func(t *testing.T) {
					players := [2]*arbitertest.Player{arbitertest.New("w", 3), arbitertest.New("b", 4)}
					players[culprit].Misbehave(tc.fault, tc.atPly)
					sides := mode.sides(t, players[0], players[1])
					w, b := fastSide("w", sides[0]), fastSide("b", sides[1])
					if tc.reason == results.ReasonTimeForfeit {
						if culprit == 0 {
							w = tightSide("w", sides[0])
						} else {
							b = tightSide("b", sides[1])
						}
					}
					rec, err := arbiter.PlayGame(context.Background(), testGameConfig(), w, b)
					if err != nil {
						t.Fatal(err)
					}
					wantResult := results.BlackWins
					if culprit == 1 {
						wantResult = results.WhiteWins
					}
					if rec.Reason != tc.reason || rec.Culprit != name || rec.Result != wantResult {
						t.Fatalf("got %s %s culprit %q (%s), want %s %s culprit %s", rec.Result, rec.Reason, rec.Culprit, rec.Detail, wantResult, tc.reason, name)
					}
					if !strings.Contains(rec.Detail, tc.detail) || !strings.HasPrefix(rec.Detail, name+" (") {
						t.Errorf("detail %q does not name the %s player and %q", rec.Detail, name, tc.detail)
					}
					if tc.reason == results.ReasonIllegalMove && tc.fault == "illegal" && !strings.Contains(rec.Detail, ": You") {
						t.Errorf("illegal move detail %q does not give the rule in Mzinga's words", rec.Detail)
					}
				})
			}
		}
	}
}

func TestPlayGameAcceptsRespelledMoves(t *testing.T) {
	w, b := arbitertest.New("w", 5), arbitertest.New("b", 6)
	w.Misbehave("rewrite", 0)
	b.Misbehave("rewrite", 0)
	rec, err := arbiter.PlayGame(context.Background(), testGameConfig(), fastSide("w", w), fastSide("b", b))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason.IsFault() {
		t.Fatalf("an engine that spells moves differently was forfeited: %s", rec.Detail)
	}
}

func TestPlayGameRepetitionDraw(t *testing.T) {
	// Both queens shuffle back and forth: the position repeats.
	opening := "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"
	cfg := testGameConfig()
	cfg.Opening = opening
	cfg.Adjudication = arbiter.Adjudication{Repetitions: 3}
	shuffle := func(name string, moves ...string) driver.Player {
		return &scriptPlayer{Player: arbitertest.New(name, 1), script: moves}
	}
	rec, err := arbiter.PlayGame(context.Background(), cfg,
		fastSide("w", shuffle("w", "wQ \\wS1", "wQ -wS1", "wQ \\wS1", "wQ -wS1")),
		fastSide("b", shuffle("b", "bQ bS1\\", "bQ bS1-", "bQ bS1\\", "bQ bS1-")))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason != results.ReasonRepetition || rec.Result != results.Draw || len(rec.Moves) != 8 {
		t.Fatalf("got %s %s after %d moves (%s), want a repetition draw after 8", rec.Result, rec.Reason, len(rec.Moves), rec.Detail)
	}
}

// scriptPlayer plays a fixed list of moves.
type scriptPlayer struct {
	*arbitertest.Player
	script []string
}

func (p *scriptPlayer) BestMove(ctx context.Context, limit driver.SearchLimit) (string, error) {
	m := p.script[0]
	p.script = p.script[1:]
	return m, nil
}

func TestPlayGameClockForfeit(t *testing.T) {
	w, b := arbitertest.New("w", 1), arbitertest.New("b", 2)
	w.SetDelay(60 * time.Millisecond) // about 1/3 of the clock per move: falls on the fourth
	tc := driver.TimeControl{Base: 200 * time.Millisecond}
	// Black's margin is wide: on a loaded machine its few moves may take a while, and White's
	// fall is the point.
	rec, err := arbiter.PlayGame(context.Background(), testGameConfig(),
		arbiter.Side{Name: "w", Player: w, Time: tc, Margin: 5 * time.Millisecond},
		arbiter.Side{Name: "b", Player: b, Time: tc, Margin: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason != results.ReasonTimeForfeit || rec.Culprit != "White" {
		t.Fatalf("got %s culprit %q (%s), want White to lose on time", rec.Reason, rec.Culprit, rec.Detail)
	}
	for i, m := range rec.Moves {
		if m.ClockMillis == nil {
			t.Fatalf("move %d has no clock reading in a clock game", i)
		}
	}
}

func TestPlayGameInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	w := arbitertest.New("w", 1).Misbehave("hang", 4)
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	cfg := testGameConfig()
	side := arbiter.Side{Name: "w", Player: w, Time: driver.TimeControl{MoveTime: time.Hour}}
	rec, err := arbiter.PlayGame(ctx, cfg, side, fastSide("b", arbitertest.New("b", 2)))
	if !errors.Is(err, arbiter.ErrInterrupted) || rec != nil {
		t.Fatalf("got %+v, %v; want an interrupted game without a record", rec, err)
	}
}

func TestPlayGameBadOpening(t *testing.T) {
	cfg := testGameConfig()
	cfg.Opening = "Base;InProgress;White[2];wS1;wS2"
	if _, err := arbiter.PlayGame(context.Background(), cfg, fastSide("a", arbitertest.New("a", 1)), fastSide("b", arbitertest.New("b", 2))); err == nil {
		t.Fatal("an illegal opening was played")
	}
}

// statelessPlayer keeps no game it reports: it answers newgame and play with nothing, as UGI
// engines, Hive API modules and one-engine bots do.
type statelessPlayer struct{ *arbitertest.Player }

func (p statelessPlayer) Info() driver.PlayerInfo {
	info := p.Player.Info()
	info.ReportsState = false
	return info
}

func (p statelessPlayer) NewGame(ctx context.Context, gs string) (string, error) {
	_, err := p.Player.NewGame(ctx, gs)
	return "", err
}

func (p statelessPlayer) Play(ctx context.Context, move string) (string, error) {
	_, err := p.Player.Play(ctx, move)
	return "", err
}

// TestPlayGameStatelessPlayer: a player that reports no state is not cross-checked, and the
// record says so; one that reports its state always is.
func TestPlayGameStatelessPlayer(t *testing.T) {
	rec, err := arbiter.PlayGame(context.Background(), testGameConfig(),
		fastSide("w", statelessPlayer{arbitertest.New("w", 1)}), fastSide("b", arbitertest.New("b", 2)))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason.IsFault() {
		t.Fatalf("a stateless player's game ended by a fault: %s", rec.Detail)
	}
	if !rec.White.NotCrossChecked || rec.Black.NotCrossChecked {
		t.Errorf("white not cross-checked %v, black %v: want only white marked", rec.White.NotCrossChecked, rec.Black.NotCrossChecked)
	}
	// A player that says it reports its state and then reports nothing is a broken conversation.
	liar := statelessPlayer{arbitertest.New("b", 2)}
	rec, err = arbiter.PlayGame(context.Background(), testGameConfig(),
		fastSide("w", arbitertest.New("w", 1)), fastSide("b", reportingLiar{liar}))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason != results.ReasonProtocol || rec.Culprit != "Black" {
		t.Errorf("got %s by %q (%s), want a protocol violation by Black", rec.Reason, rec.Culprit, rec.Detail)
	}
}

// reportingLiar says it reports its state but reports nothing.
type reportingLiar struct{ statelessPlayer }

func (p reportingLiar) Info() driver.PlayerInfo { return p.Player.Info() }

// warningPlayer warns of something after its first search, as a UHP engine whose budget had
// to be rounded does.
type warningPlayer struct {
	*arbitertest.Player
	searches int
}

func (p *warningPlayer) BestMove(ctx context.Context, l driver.SearchLimit) (string, error) {
	p.searches++
	return p.Player.BestMove(ctx, l)
}

func (p *warningPlayer) Warnings() []driver.Warning {
	if p.searches == 1 {
		return []driver.Warning{{Text: "its budget was rounded"}}
	}
	return nil
}

func TestPlayerWarningsReachTheRecord(t *testing.T) {
	white := &warningPlayer{Player: arbitertest.New("a", 1)}
	rec, err := arbiter.PlayGame(t.Context(), testGameConfig(), fastSide("a", white), fastSide("b", arbitertest.New("b", 2)))
	if err != nil {
		t.Fatal(err)
	}
	want := driver.Warning{Side: "White", Engine: "a", Text: "White (a): its budget was rounded"}
	if len(rec.Warnings) != 1 || rec.Warnings[0] != want {
		t.Errorf("warnings %+v; want once %+v", rec.Warnings, want)
	}
}

// repetitionClaimer plays a fixed line of moves and, as nokamute does, reports a draw once its
// position has occurred three times.
type repetitionClaimer struct {
	name  string
	moves []string
	game  *rules.Game
}

func (p *repetitionClaimer) Info() driver.PlayerInfo {
	return driver.PlayerInfo{ID: p.name, ReportsState: true}
}

func (p *repetitionClaimer) report() string {
	gs := p.game.GameString()
	if p.game.Repetitions() >= 3 {
		gs = strings.Replace(gs, ";InProgress;", ";Draw;", 1)
	}
	return gs
}

func (p *repetitionClaimer) NewGame(ctx context.Context, gs string) (string, error) {
	g, err := rules.ParseGameString(gs)
	p.game = g
	if err != nil {
		return "", err
	}
	return p.report(), nil
}

func (p *repetitionClaimer) Play(ctx context.Context, move string) (string, error) {
	if err := p.game.Play(move); err != nil {
		return "", err
	}
	return p.report(), nil
}

func (p *repetitionClaimer) BestMove(ctx context.Context, l driver.SearchLimit) (string, error) {
	return p.moves[p.game.Ply()], nil
}

func (p *repetitionClaimer) Close(ctx context.Context) error { return nil }

// An engine that claims a draw by threefold repetition is right when the arbiter adjudicates
// repetitions (-repetitions 3): the game is a draw by repetition, not a false claim.
func TestRepetitionClaimWithRepetitionAdjudication(t *testing.T) {
	line := strings.Split(`wS1;bB1 wS1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-`, ";")
	for _, tc := range []struct {
		repetitions int
		reason      results.Reason
	}{{3, results.ReasonRepetition}, {0, results.ReasonFalseClaim}} {
		cfg := testGameConfig()
		cfg.Opening = "Base"
		cfg.Adjudication.Repetitions = tc.repetitions
		rec, err := arbiter.PlayGame(t.Context(), cfg,
			fastSide("a", &repetitionClaimer{name: "a", moves: line}), fastSide("b", &repetitionClaimer{name: "b", moves: line}))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Reason != tc.reason {
			t.Errorf("repetitions %d: game ended by %s (%s); want %s", tc.repetitions, rec.Reason, rec.Detail, tc.reason)
		}
	}
}

// failsAtTheEnd is a legal player that fails to play the move that ends the game, as an
// engine that crashes or stalls on it does.
type failsAtTheEnd struct{ *arbitertest.Player }

func (p failsAtTheEnd) Play(ctx context.Context, move string) (string, error) {
	gs, err := p.Player.Play(ctx, move)
	if err == nil && p.Game().State() != rules.InProgress && p.Game().State() != rules.NotStarted {
		return "", &driver.PlayerError{Reason: results.ReasonCrash, Err: errors.New("exited on the last move")}
	}
	return gs, err
}

// A player that fails to be told of the move that ended the game by the rules does not lose
// it: the result is the rules' (the soak found games recorded as a stall of the winner).
func TestFailureOnTheDecidingMoveKeepsTheRulesResult(t *testing.T) {
	decided := 0
	for seed := uint64(1); seed <= 8; seed++ {
		for i := range 2 * len(playModes) {
			failing, mode := i%2, playModes[i/2]
			players := [2]driver.Player{arbitertest.New("a", seed), arbitertest.New("b", seed+100)}
			players[failing] = failsAtTheEnd{players[failing].(*arbitertest.Player)}
			players = mode.sides(t, players[0], players[1])
			rec, err := arbiter.PlayGame(context.Background(), testGameConfig(), fastSide("a", players[0]), fastSide("b", players[1]))
			if err != nil {
				t.Fatal(err)
			}
			if rec.Reason == results.ReasonMoveLimit {
				continue
			}
			decided++
			g, err := rules.ParseGameString(rec.GameString)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Reason != results.ReasonQueenSurrounded || rec.Result != g.State().String() || rec.Culprit != "" {
				t.Errorf("seed %d, side %d failing, %s: recorded %s (%s) culprit %q: %s; the rules say %s",
					seed, failing, mode.name, rec.Result, rec.Reason, rec.Culprit, rec.Detail, g.State())
			}
			if !strings.Contains(rec.Detail, "afterwards") {
				t.Errorf("seed %d: the detail does not tell of the failure: %s", seed, rec.Detail)
			}
		}
	}
	if decided == 0 {
		t.Fatal("no game was decided by the rules; the test proves nothing")
	}
}

// A move that runs late by more than half its engine's margin is warned of, once a game, before
// a later one loses on time, with the margin to give instead: the margin does not cover the
// engine's overshoot. One that runs late by less than half is not.
func TestPlayGameWarnsOfAMoveNearItsMargin(t *testing.T) {
	for _, tc := range []struct {
		name  string
		delay time.Duration
		warns bool
	}{
		// 3.1 s over its 0.1 s: 78% of its margin, with 0.9 s to spare for a loaded machine.
		{"78%", 3200 * time.Millisecond, true},
		// 2.4 s over: 60%, which check's margin (twice the slowest overshoot it saw) leaves
		// only to a slower engine than the one checked.
		{"60%", 2500 * time.Millisecond, true},
		// 1.4 s over: 35%.
		{"35%", 1500 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			late := arbitertest.New("late", 1).SetDelay(tc.delay)
			cfg := testGameConfig()
			cfg.Adjudication.MaxPlies = 2
			rec, err := arbiter.PlayGame(context.Background(), cfg,
				arbiter.Side{Name: "late", Player: late, Time: driver.TimeControl{MoveTime: 100 * time.Millisecond}, Margin: 4 * time.Second},
				fastSide("b", arbitertest.New("b", 2)))
			if err != nil {
				t.Fatal(err)
			}
			if rec.Reason == results.ReasonTimeForfeit {
				t.Fatalf("the late player lost on time inside its margin: %s", rec.Detail)
			}
			var near []results.Warning
			for _, w := range rec.Warnings {
				if w.Kind == results.WarningNearMargin {
					near = append(near, w)
				}
			}
			if !tc.warns {
				if len(near) > 0 {
					t.Errorf("warnings %+v for a move late by a third of its margin", near)
				}
				return
			}
			if len(near) != 1 || near[0].Engine != "late" || !strings.Contains(near[0].Text, fmt.Sprintf("White (late) ran %d.", int((tc.delay-100*time.Millisecond).Seconds()))) ||
				!strings.Contains(near[0].Text, " at move 1, ") || !strings.Contains(near[0].Text, "of its 4.000 s margin: a little slower and it loses on time; give it margin=") {
				t.Fatalf("warnings %+v, want one that White (late) ran near its margin", rec.Warnings)
			}
			// The margin to use covers twice the overshoot and a loaded machine's quarter second.
			over := (tc.delay - 100*time.Millisecond).Seconds()
			_, after, _ := strings.Cut(near[0].Text, "give it margin=")
			word, _, _ := strings.Cut(after, " ")
			if use, err := strconv.ParseFloat(word, 64); err != nil || use < 2*over+0.25 || use > 2*(over+0.2)+0.35 {
				t.Errorf("the margin to use, %q (%v), does not cover twice an overshoot of %.1f s and a quarter second: %s", word, err, over, near[0].Text)
			}
		})
	}
}
