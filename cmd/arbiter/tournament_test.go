package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hivearbiter/results"
	"hivearbiter/results/render"
)

// TestFieldTournamentTables plays a round-robin of three engines and a gauntlet of one against
// two, through real engine processes, and checks the tables a field gets: the score-vs-field
// table, the maximum-likelihood ratings, the cross table, the misbehaviour counts, and the
// JSON summary.
func TestFieldTournamentTables(t *testing.T) {
	tests := []struct {
		format   string
		games    int
		pairings int
	}{
		{"round-robin", 6, 3},
		{"gauntlet", 4, 2},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			summaryPath := filepath.Join(dir, "summary.json")
			args := []string{"-format", tc.format, "-json", summaryPath, "-rounds", "1", "-concurrency", "2",
				"-openings", "plies=2", "-maxplies", "60", "-each", "st=0.05", "fractional=true", "-failure-streak", "0"}
			args = append(args, fakeEngineArgs("a", "random")...)
			args = append(args, fakeEngineArgs("b", "random")...)
			args = append(args, fakeEngineArgs("c", "illegal@6")...) // c loses every game by an illegal move
			recs, out, err := playMatchTo(t, filepath.Join(dir, "games.jsonl"), args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if len(recs) != tc.games {
				t.Fatalf("%d games recorded, want %d", len(recs), tc.games)
			}
			for _, want := range []string{
				"Ptnml(0-2)", "nElo", // the field table
				"LOS next", "Maximum-likelihood ratings (Bradley-Terry", // the ratings
				"Timeouts", "FalseClaims", // the faults
				"Finished " + tc.format + ": " + strconv.Itoa(tc.games) + " games recorded",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			var s results.Summary
			data, err := os.ReadFile(summaryPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &s); err != nil {
				t.Fatal(err)
			}
			if s.Games != tc.games || len(s.Engines) != 3 || len(s.Pairings) != tc.pairings || s.Ratings == nil || len(s.Ratings.Elo) != 3 {
				t.Fatalf("summary: %d games, %d engines, %d pairings, ratings %+v", s.Games, len(s.Engines), len(s.Pairings), s.Ratings)
			}
			// Who beat whom, after the standings, as the job summary and the report show it (in
			// the gauntlet b and c never met).
			var cross strings.Builder
			if err := render.WriteCrossTable(&cross, s.CrossTable()); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, cross.String()) || (tc.format == "gauntlet") != strings.Contains(cross.String(), " - |") {
				t.Errorf("output lacks the cross table\n%s\n%s", cross.String(), out)
			}
			cGames := 2
			if tc.format == "round-robin" {
				cGames = 4
			}
			if got := s.Faults["c"][results.ReasonIllegalMove]; got != cGames {
				t.Errorf("c lost %d games by illegal moves, want %d (faults %v)", got, cGames, s.Faults)
			}
			// c lost every game, so the ratings put it last (in the gauntlet b may have lost all
			// of its games too).
			if tc.format != "round-robin" {
				return
			}
			c := slices.Index(s.Ratings.Players, "c")
			for i, name := range s.Ratings.Players {
				if name != "c" && s.Ratings.Elo[i] <= s.Ratings.Elo[c] {
					t.Errorf("%s is rated %.1f, not above c: %v %v", name, s.Ratings.Elo[i], s.Ratings.Players, s.Ratings.Elo)
				}
			}
		})
	}
}
