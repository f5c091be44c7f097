package pool

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// RunView is a run as the tables and the dashboard show it: its counts from the first
// engine's point of view, its Elo, its SPRT and its ETA.
type RunView struct {
	RunState
	Wins, Draws, Losses int
	// Elo and EloError are the first engine's against the second (the first pairing); NaN
	// when there is none yet.
	Elo, EloError float64
	// SPRT: LLR and its bounds, when the run has a test.
	SPRT               bool
	LLR, Lower, Upper  float64
	ETA                time.Duration // 0 when unknown or over
	Remaining, Percent int
}

// View computes what the tables show of a run.
func View(r RunState) RunView {
	v := RunView{RunState: r, Elo: math.NaN(), EloError: math.NaN()}
	if s := r.Summary; s != nil {
		if len(s.Pairings) > 0 {
			p := s.Pairings[0]
			v.Wins, v.Draws, v.Losses = p.Wins, p.Draws, p.Losses
			if p.Elo != nil {
				v.Elo = *p.Elo
			}
			if p.EloError != nil {
				v.EloError = *p.EloError
			}
		}
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

// StateText is "revoked", "flagged", "outdated" (an earlier arbiter the server cannot answer),
// "playing", "idle" (connected, no run), or "gone": not
// seen for a minute longer than the server's batch, after which a worker asks again.
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
	case ws.Outdated != "" && !ws.LastSeen.IsZero() && now.Sub(ws.LastSeen) <= batch+time.Minute:
		return "outdated"
	case ws.LastSeen.IsZero() || now.Sub(ws.LastSeen) > batch+time.Minute:
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
