package gamestring_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	_ "hivearbiter/proto/ugi" // protocols register themselves, as in the arbiter binary
	_ "hivearbiter/proto/uhp"
	"hivearbiter/results"
)

// TestMixedRoundRobin plays a refereed round-robin of hivebot over UHP, hivebot over UGI and a
// random bot of the one-engine model that keeps no rules: one tournament, three protocols, every move checked by
// the same referee.
func TestMixedRoundRobin(t *testing.T) {
	dir := t.TempDir()
	hivebot := driver.EngineConfig{Command: []string{os.Args[0], "-profile", "weak"}, Env: []string{hivebotEnv + "=1"}}
	uhp, ugi := hivebot, hivebot
	uhp.Name, uhp.Protocol, uhp.Time = "hivebot-uhp", "uhp", driver.TimeControl{Depth: 1}
	ugi.Name, ugi.Protocol, ugi.Time = "hivebot-ugi", "ugi", driver.TimeControl{Base: 20 * time.Second, Increment: 100 * time.Millisecond}
	// The bot keeps no rules: it plays one of the moves it is sent.
	bot := driver.EngineConfig{Name: "random-bot", Protocol: "gamestring", Command: []string{os.Args[0]},
		Env: []string{fakeEnv + "=listed"}, Settings: map[string]string{"validmoves": "true"}, Time: driver.TimeControl{MoveTime: time.Second}}
	out := filepath.Join(dir, "games.jsonl")
	tour, err := arbiter.NewTournament(arbiter.Config{
		Format: arbiter.RoundRobin, Engines: []driver.EngineConfig{uhp, ugi, bot}, GameType: "Base+MLP",
		Adjudication: arbiter.Adjudication{MaxPlies: 80}, Out: out, Seed: 3,
	}, arbiter.TournamentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	outcome, err := tour.Play(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if outcome.Scheduled != 6 || outcome.Interrupted {
		t.Fatalf("outcome %+v", outcome)
	}
	recs, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Fatalf("%d records", len(recs))
	}
	for _, r := range recs {
		t.Logf("%s vs %s: %s %s (%d plies)", r.White.Name, r.Black.Name, r.Result, r.Reason, len(r.Moves))
		for _, p := range []results.Player{r.White, r.Black} {
			if want := map[string]string{"random-bot": "bot listed"}[p.Name]; want != "" && p.ID != want {
				t.Errorf("game %d: %s has the id %q, want its greeting %q", r.Game, p.Name, p.ID, want)
			}
		}
		if r.Reason.IsFault() || len(r.Warnings) > 0 {
			t.Errorf("game %d, %s vs %s: %s %s: %s %q", r.Game, r.White.Name, r.Black.Name, r.Result, r.Reason, r.Detail, r.Warnings)
		}
		for i, m := range r.Moves {
			ugiMoved := (i%2 == 0) == (r.White.Name == "hivebot-ugi") && (r.White.Name == "hivebot-ugi" || r.Black.Name == "hivebot-ugi")
			if ugiMoved != (m.Info != nil) {
				t.Errorf("game %d, ply %d (%s): info %+v", r.Game, i+1, m.Move, m.Info)
				break
			}
		}
	}
}
