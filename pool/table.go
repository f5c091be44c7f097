package pool

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/elo"
	"hivearbiter/results"
)

// RunView is a run as the tables and the dashboard show it: its counts from the point of view
// of its side (Side: a match's first engine, a gauntlet's seeds) over all its pairings, its
// Elo, its SPRT and its ETA.
type RunView struct {
	RunState
	// Side are the engines whose results the counts are: a gauntlet's seeds (its first
	// engine, by default), else the first engine. Pairings counts the pairings summed: those
	// of the side against the others.
	Side                []string
	Pairings            int
	Wins, Draws, Losses int
	// Pentanomial are the side's game pairs by score (LL, LD, WL+DD, WD, WW), summed over its
	// pairings.
	Pentanomial [5]int
	// Elo and EloError are the side's against the others, from the counts summed over its
	// pairings (a match's: its one pairing's); NaN when there is none yet.
	Elo, EloError float64
	// SPRT: LLR and its bounds, when the run has a test.
	SPRT               bool
	LLR, Lower, Upper  float64
	ETA                time.Duration // 0 when unknown or over
	Remaining, Percent int
}

// View computes what the tables show of a run.
func View(r RunState) RunView {
	v := RunView{RunState: r, Elo: math.NaN(), EloError: math.NaN(), Side: r.side()}
	if s := r.Summary; s != nil {
		v.count(s.Pairings)
		if s.SPRT != nil {
			v.SPRT, v.LLR, v.Lower, v.Upper = true, s.SPRT.LLR, s.SPRT.Lower, s.SPRT.Upper
		}
	}
	v.Remaining = max(r.Scheduled-r.Games(), 0)
	if r.Scheduled > 0 {
		v.Percent = 100 * r.Games() / r.Scheduled
	}
	if r.State == StateActive && r.Rate > 0 {
		v.ETA = time.Duration(float64(v.Remaining) / r.Rate * float64(time.Second)).Round(time.Second)
	}
	return v
}

// side are the engines whose results a run's counts are from: a gauntlet's seeds, else its
// first engine.
func (r RunState) side() []string {
	n := 1
	if r.Format == string(arbiter.Gauntlet) {
		n = max(r.Seeds, 1)
	}
	return r.Engines[:min(n, len(r.Engines))]
}

// count sums the pairings of the view's side against the others, each from the side's point
// of view: a gauntlet's W/D/L are its seeds' against the whole field, not its first pairing's.
func (v *RunView) count(pairings []results.PairingSummary) {
	var one *results.PairingSummary // the only pairing summed, as the summary rates it
	swapped := false
	for i := range pairings {
		p := &pairings[i]
		first, second := slices.Contains(v.Side, p.First), slices.Contains(v.Side, p.Second)
		if first == second {
			continue // not the side's, or (two seeds) within it
		}
		v.Pairings++
		one, swapped = p, second
		if second {
			v.Wins, v.Draws, v.Losses = v.Wins+p.Losses, v.Draws+p.Draws, v.Losses+p.Wins
			for k, c := range p.Pentanomial {
				v.Pentanomial[4-k] += c
			}
			continue
		}
		v.Wins, v.Draws, v.Losses = v.Wins+p.Wins, v.Draws+p.Draws, v.Losses+p.Losses
		for k, c := range p.Pentanomial {
			v.Pentanomial[k] += c
		}
	}
	switch {
	case v.Pairings == 1:
		sign := 1.0
		if swapped {
			sign = -1
		}
		if one.Elo != nil {
			v.Elo = sign * *one.Elo
		}
		if one.EloError != nil {
			v.EloError = *one.EloError
		}
	case v.Pairings > 1:
		ptnml := elo.Pentanomial(v.Pentanomial)
		est := elo.TrinomialEstimate(elo.WDL{Wins: v.Wins, Draws: v.Draws, Losses: v.Losses})
		if ptnml.Pairs() > 0 {
			est = elo.PentanomialEstimate(ptnml)
		}
		if est.EloDefined() {
			v.Elo = est.Elo
		}
		if est.EloMarginFinite() {
			v.EloError = est.ErrorMargin
		}
	}
}

// EloText is "+12.3 ± 4.5", or "-" before there is one.
func (v RunView) EloText() string {
	if math.IsNaN(v.Elo) {
		return "-"
	}
	if math.IsNaN(v.EloError) {
		return fmt.Sprintf("%+.1f", v.Elo)
	}
	return fmt.Sprintf("%+.1f ± %.1f", v.Elo, v.EloError)
}

// LLRText is "1.23 (-2.94, 2.94)", or "-" for a run with no SPRT.
func (v RunView) LLRText() string {
	if !v.SPRT {
		return "-"
	}
	return fmt.Sprintf("%.2f (%.2f, %.2f)", v.LLR, v.Lower, v.Upper)
}

// ProgressText is the run in a line, as "arbiter submit -wait" follows it: "active: 24/200
// games, W/D/L 10/4/10, Elo +3.1 ± 20.0, LLR 0.53 (-2.94, 2.94), ETA 1m0s".
func (v RunView) ProgressText() string {
	s := fmt.Sprintf("%s: %d/%d games, W/D/L %d/%d/%d", v.State, v.Games(), v.Scheduled, v.Wins, v.Draws, v.Losses)
	if v.Pairings > 1 {
		s += fmt.Sprintf(" (%s against the others)", strings.Join(v.Side, ", "))
	}
	s += ", Elo " + v.EloText()
	if v.SPRT {
		s += ", LLR " + v.LLRText()
	}
	if v.ETA > 0 {
		s += ", ETA " + v.ETAText()
	}
	if v.Reason != "" {
		s += ": " + v.Reason
	}
	if v.Unplayable != "" {
		s += "; waits: " + v.Unplayable
	}
	return s
}

// ETAText is the time left at the run's rate, or "-".
func (v RunView) ETAText() string {
	if v.ETA <= 0 {
		return "-"
	}
	return v.ETA.String()
}

// WriteRuns prints the pool's runs as a table.
func WriteRuns(w io.Writer, runs []RunState) {
	fmt.Fprintf(w, "%-12s %-9s %4s %5s %-9s %-13s %11s %-16s %-22s %s\n", "run", "state", "prio", "share", "format", "games", "W/D/L", "Elo", "LLR (bounds)", "ETA")
	for _, r := range runs {
		v := View(r)
		fmt.Fprintf(w, "%-12s %-9s %4d %5.3g %-9s %-13s %11s %-16s %-22s %s\n", r.ID, r.State, r.Priority, r.Share, r.Format,
			fmt.Sprintf("%d/%d", r.Games(), r.Scheduled), fmt.Sprintf("%d/%d/%d", v.Wins, v.Draws, v.Losses),
			v.EloText(), v.LLRText(), v.ETAText())
		if r.Reason != "" {
			fmt.Fprintf(w, "%12s %s\n", "", r.Reason)
		}
		if r.Unplayable != "" {
			fmt.Fprintf(w, "%12s waits: %s\n", "", r.Unplayable)
		}
		if r.Scale != nil && r.State == StateActive {
			fmt.Fprintf(w, "%12s %s: %s\n", "", r.Scale, orDash(scalesText(r.Scales)))
		}
		if r.Values != "" {
			fmt.Fprintf(w, "%12s %s\n", "", r.Values)
		}
		for _, out := range r.TakenOut {
			fmt.Fprintf(w, "%12s pair %d taken out: %s\n", "", out.Pair, out.Reason)
		}
		for _, ex := range r.Excluded {
			fmt.Fprintf(w, "%12s worker %s taken out by %s: %s\n", "", ex.Worker, personOr(ex.By), exclusionGames(ex))
		}
	}
}

// WriteWorkers prints the pool's workers as a table.
func WriteWorkers(w io.Writer, workers []WorkerState, now time.Time) {
	fmt.Fprintf(w, "%-20s %-9s %-12s %5s %5s %-14s %6s %6s %8s %s\n", "worker", "state", "run", "slots", "cores", "platform", "games", "faults", "rejected", "flags")
	for _, ws := range workers {
		fmt.Fprintf(w, "%-20s %-9s %-12s %5d %5d %-14s %6d %6d %8d %s\n", ws.Name, ws.StateText(now), orDash(ws.Run), ws.Slots, ws.Cores,
			orDash(ws.Platform), ws.Games, ws.Faults, ws.Rejected, ws.FlagsText())
		for _, b := range ws.Benches {
			fmt.Fprintf(w, "%20s %s\n", "", b)
		}
	}
}

// WriteFit says which of the pool's current workers can play a run just submitted, and why
// each of the others cannot; or, when none can, why the run waits (it is taken all the same).
func WriteFit(w io.Writer, st *RunState) {
	if st.Unplayable != "" {
		fmt.Fprintf(w, "Warning: run %s waits: %s\n", st.ID, st.Unplayable)
		return
	}
	fmt.Fprintf(w, "Workers that can play it: %s\n", strings.Join(st.PlayableBy(), ", "))
	for _, f := range st.Fit {
		if f.Reason != "" {
			fmt.Fprintf(w, "Worker %s cannot: %s\n", f.Worker, f.Reason)
		}
	}
}

// StateText is "revoked", "flagged", "outdated" (an earlier arbiter the server cannot answer),
// "playing", "idle" (connected, no run), "unknown" (not heard from since the server started:
// a worker asks again at once when its connection comes back, or at its batch's end), or
// "gone": not seen for a minute longer than the server's batch, after which a worker asks
// again.
func (ws WorkerState) StateText(now time.Time) string {
	batch := ws.Batch
	if batch <= 0 {
		batch = DefaultBatch
	}
	switch {
	case ws.Revoked:
		return "revoked"
	case len(ws.Flagged) > 0:
		return "flagged"
	case ws.LastSeen.IsZero():
		return "unknown"
	case ws.Outdated != "" && now.Sub(ws.LastSeen) <= batch+time.Minute:
		return "outdated"
	case now.Sub(ws.LastSeen) > batch+time.Minute:
		return "gone"
	case ws.Run != "":
		return "playing"
	}
	return "idle"
}

// FlagsText lists why a worker is flagged or cannot play runs.
func (ws WorkerState) FlagsText() string {
	var parts []string
	for _, id := range ws.Flagged {
		parts = append(parts, "quarantined: results improbable in run "+id)
	}
	if ws.Outdated != "" {
		parts = append(parts, ws.Outdated)
	}
	parts = append(parts, ws.Unfit...)
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
