package results

import (
	"encoding/json"
	"io"
	"maps"
	"math"

	"hivearbiter/elo"
)

// Summary is the machine-readable outcome of a tournament or of a set of records: what the
// tables show, as JSON, for CI jobs and dashboards.
type Summary struct {
	Status   string            `json:"status"` // finished, H1, H0, inconclusive, interrupted, strict-stop, or "records" for arbiter stats
	Runs     []string          `json:"runs"`
	Games    int               `json:"games"`
	Engines  []EngineSummary   `json:"engines"`
	Pairings []PairingSummary  `json:"pairings"`
	Ratings  *RatingsSummary   `json:"ratings,omitempty"`
	SPRT     *SPRTSummary      `json:"sprt,omitempty"`
	Faults   map[string]Faults `json:"faults"`
}

// Faults counts an engine's games lost by misbehaviour, by reason.
type Faults map[Reason]int

// EngineSummary is one engine's results against the field.
type EngineSummary struct {
	Name   string  `json:"name"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Points float64 `json:"points"`
	Score  float64 `json:"score"`
}

// PairingSummary is the head-to-head statistics of two engines, from First's point of view.
type PairingSummary struct {
	First       string `json:"first"`
	Second      string `json:"second"`
	Games       int    `json:"games"`
	Wins        int    `json:"wins"`
	Draws       int    `json:"draws"`
	Losses      int    `json:"losses"`
	Pentanomial [5]int `json:"pentanomial"`
	Unpaired    int    `json:"unpaired"`
	// Estimate is "regular" when Elo, nElo and their errors are all numbers; otherwise it says
	// why some are null: "all-won" and "all-lost" (Elo and nElo are +/-infinity), "no-spread"
	// (every game or pair scored alike: Elo is a number, nElo and the errors are not) or
	// "no-results".
	Estimate              string   `json:"estimate"`
	Elo                   *float64 `json:"elo"`                           // null when infinite or undefined
	EloError              *float64 `json:"elo_error"`                     // null without spread, or when unbounded
	EloErrorUnbounded     bool     `json:"elo_error_unbounded,omitempty"` // too few games: the 95% interval reaches infinity
	NormalizedElo         *float64 `json:"nelo"`                          // null when infinite or undefined
	NormalizedEloError    *float64 `json:"nelo_error"`                    // null without spread
	EloInfinity           int      `json:"elo_infinity,omitempty"`        // +1 or -1 when Elo is +/-infinity
	LOS                   float64  `json:"los"`
	DrawRatio             float64  `json:"draw_ratio"`
	PairsRatio            *float64 `json:"pairs_ratio"` // null when infinite
	StatisticsPentanomial bool     `json:"statistics_pentanomial"`
}

// RatingsSummary holds the maximum-likelihood ratings.
type RatingsSummary struct {
	Players             []string    `json:"players"`
	Elo                 []float64   `json:"elo"`
	Error95             []float64   `json:"error95"`
	LOS                 [][]float64 `json:"los"`
	WhiteAdvantage      float64     `json:"white_advantage"`
	WhiteAdvantageError float64     `json:"white_advantage_error95"`
	// VirtualDraws is the number of draws added to each pairing to keep the ratings finite
	// (BayesElo's prior): 0 unless some engines scored every point, or none, against the rest
	// of the field.
	VirtualDraws float64 `json:"virtual_draws"`
}

// SPRTSummary is the state of an SPRT.
type SPRTSummary struct {
	Elo0     float64 `json:"elo0"`
	Elo1     float64 `json:"elo1"`
	Alpha    float64 `json:"alpha"`
	Beta     float64 `json:"beta"`
	Model    string  `json:"model"`
	LLR      float64 `json:"llr"`
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
	Decision string  `json:"decision"` // continue, H0 or H1
	Pairs    int     `json:"pairs"`    // the game pairs LLR is computed from: up to the decision, if any
	// DecidedAtCap is set when the test decided at its cap, by the final threshold on the LLR
	// (elo.SPRT Conclude): H1 at or above Threshold, H0 below.
	DecidedAtCap bool     `json:"decided_at_cap,omitempty"`
	Threshold    *float64 `json:"threshold,omitempty"`
}

// Decided is the test's Decision: Continue unless Decision names H0 or H1.
func (s *SPRTSummary) Decided() elo.Decision {
	d, _ := elo.ParseDecision(s.Decision)
	return d
}

// FaultGames counts the games the summary's engines lost by misbehaviour, every engine's
// faults added together.
func (s *Summary) FaultGames() int {
	n := 0
	for _, f := range s.Faults {
		for _, c := range f {
			n += c
		}
	}
	return n
}

// NewSummary summarises the records of a tally. sprt, if not nil, is included as given.
func NewSummary(status string, t *Tally, sprt *SPRTSummary) *Summary {
	s := &Summary{Status: status, Games: t.Games, SPRT: sprt, Faults: map[string]Faults{},
		Engines: []EngineSummary{}, Pairings: []PairingSummary{}, Runs: append([]string{}, t.Runs...)}
	for _, p := range t.Players {
		s.Engines = append(s.Engines, EngineSummary{Name: p.Name, Games: p.WDL.Games(), Wins: p.WDL.Wins, Draws: p.WDL.Draws,
			Losses: p.WDL.Losses, Points: p.WDL.Points(), Score: round(p.WDL.Score())})
		if p.FaultTotal() > 0 {
			// A copy: the summary outlives the call (a pool keeps a run's, and sends it to
			// whoever asks), while the tally counts on.
			s.Faults[p.Name] = maps.Clone(Faults(p.Faults))
		}
	}
	for _, p := range t.Pairings {
		ptnml := p.Pairs.Pentanomial()
		paired := ptnml.Pairs() > 0
		est := elo.TrinomialEstimate(p.WDL)
		drawRatio := p.WDL.DrawRatio()
		var pairsRatio *float64
		if paired {
			est = elo.PentanomialEstimate(ptnml)
			drawRatio = ptnml.DrawRatio()
			if r := ptnml.PairsRatio(); !math.IsInf(r, 0) {
				r = round(r)
				pairsRatio = &r
			}
		}
		s.Pairings = append(s.Pairings, PairingSummary{
			First: p.First, Second: p.Second, Games: p.WDL.Games(), Wins: p.WDL.Wins, Draws: p.WDL.Draws, Losses: p.WDL.Losses,
			Pentanomial: ptnml, Unpaired: p.Unpaired, Estimate: est.Degeneracy.String(),
			Elo: defined(est.EloDefined(), est.Elo), EloError: defined(est.EloMarginFinite(), est.ErrorMargin), EloErrorUnbounded: est.MarginDefined() && est.Unbounded,
			NormalizedElo: defined(est.NormalizedEloDefined(), est.NormalizedElo), NormalizedEloError: defined(est.MarginDefined(), est.NormalizedErrorMargin),
			EloInfinity: eloInfinity(est), LOS: round(est.LOS), DrawRatio: round(drawRatio), PairsRatio: pairsRatio, StatisticsPentanomial: paired,
		})
	}
	if len(t.Players) > 2 {
		if r, err := FitRatings(t); err == nil {
			rs := &RatingsSummary{WhiteAdvantage: round(r.WhiteAdvantage), WhiteAdvantageError: round(z95 * r.WhiteAdvantageStdErr), VirtualDraws: r.VirtualDraws}
			for i, p := range t.Players {
				rs.Players = append(rs.Players, p.Name)
				rs.Elo = append(rs.Elo, round(r.Elo[i]))
				rs.Error95 = append(rs.Error95, round(z95*r.StdErr[i]))
				row := make([]float64, len(r.LOS[i]))
				for j, v := range r.LOS[i] {
					row[j] = round(v)
				}
				rs.LOS = append(rs.LOS, row)
			}
			s.Ratings = rs
		}
	}
	return s
}

// defined returns x rounded, or nil (JSON null) when it is not an estimate.
func defined(ok bool, x float64) *float64 {
	if !ok {
		return nil
	}
	r := round(x)
	return &r
}

func eloInfinity(est elo.Estimate) int {
	switch est.Degeneracy {
	case elo.AllWon:
		return 1
	case elo.AllLost:
		return -1
	}
	return 0
}

// z95 is the two-sided 95% quantile of the standard normal distribution.
const z95 = 1.959963984540054

// round keeps four decimals: enough for any table, and stable in golden files.
func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// Write writes the summary as indented JSON.
func (s *Summary) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}
