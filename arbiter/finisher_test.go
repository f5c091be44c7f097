package arbiter_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
)

// claimer is a player with its own idea of the result (driver.Finisher) that reports a search
// for every move (driver.SearchReporter).
type claimer struct {
	*arbitertest.Player
	claim string
	asked []string
	info  *results.SearchInfo
}

func (c *claimer) GameOver(_ context.Context, result string) (string, error) {
	c.asked = append(c.asked, result)
	return c.claim, nil
}

func (c *claimer) BestMove(ctx context.Context, l driver.SearchLimit) (string, error) {
	c.info = &results.SearchInfo{Depth: 3}
	return c.Player.BestMove(ctx, l)
}

func (c *claimer) TakeSearchInfo() *results.SearchInfo {
	info := c.info
	c.info = nil
	return info
}

func TestFinisherAndSearchReporter(t *testing.T) {
	for _, tc := range []struct {
		claim, warning string
	}{
		{"", ""},
		{"InProgress", ""},
		{"NotStarted", ""}, // not over either: the same as InProgress
		{"WhiteWins", "White (claimer): false claim: says the game is WhiteWins, but by the rules it is InProgress"},
		{"gameover true and result none", "White (claimer) says the game is gameover true and result none, but the rules give InProgress"},
	} {
		white := &claimer{Player: arbitertest.New("claimer", 1), claim: tc.claim}
		black := arbitertest.New("plain", 2)
		side := func(name string, p driver.Player) arbiter.Side {
			return arbiter.Side{Name: name, Player: p, Time: driver.TimeControl{Depth: 1}}
		}
		rec, err := arbiter.PlayGame(t.Context(), arbiter.GameConfig{Opening: "Base", CommandTimeout: time.Second, DepthTimeout: time.Second,
			Adjudication: arbiter.Adjudication{MaxPlies: 6}}, side("claimer", white), side("plain", black))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Result != results.Draw || rec.Reason != results.ReasonMoveLimit {
			t.Errorf("claim %q: the result changed: %s %s", tc.claim, rec.Result, rec.Reason)
		}
		if got := strings.Join(results.WarningTexts(rec.Warnings), "|"); got != tc.warning {
			t.Errorf("claim %q: warnings %q, want %q", tc.claim, got, tc.warning)
		}
		if len(white.asked) != 1 || white.asked[0] != results.Draw {
			t.Errorf("claim %q: asked %q", tc.claim, white.asked)
		}
		for i, m := range rec.Moves {
			if (m.Info != nil) != (i%2 == 0) {
				t.Errorf("ply %d: info %+v", i+1, m.Info)
			}
		}
	}
}

// A culprit is not asked how the game ended.
func TestFinisherCulprit(t *testing.T) {
	white := &claimer{Player: arbitertest.New("claimer", 1).Misbehave("illegal", 2), claim: "BlackWins"}
	rec, err := arbiter.PlayGame(t.Context(), arbiter.GameConfig{Opening: "Base", CommandTimeout: time.Second, DepthTimeout: time.Second},
		arbiter.Side{Name: "claimer", Player: white, Time: driver.TimeControl{Depth: 1}},
		arbiter.Side{Name: "plain", Player: arbitertest.New("plain", 2), Time: driver.TimeControl{Depth: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Culprit != "White" || len(white.asked) != 0 || len(rec.Warnings) != 0 {
		t.Errorf("got %s %s culprit %q, asked %q, warnings %q", rec.Result, rec.Reason, rec.Culprit, white.asked, rec.Warnings)
	}
}
