package distributed

import (
	"context"
	"encoding/json"

	"github.com/nats-io/nats.go"

	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"hivearbiter/results"
)

// WorkerStats is what the coordinator knows of one worker.
type WorkerStats struct {
	Name     string    `json:"name"`
	Slots    int       `json:"slots"`
	LastSeen time.Time `json:"last_seen"`
	InFlight []int     `json:"in_flight"` // game indices, from the last heartbeat
	Refused  string    `json:"refused,omitempty"`
	Games    int       `json:"games"`
	// Wins, Draws and Losses are from the point of view of the engine configured first among
	// the two of each game: the same yardstick for every worker.
	Wins, Draws, Losses int
	Faults              int `json:"faults"`      // games ended by an engine's misbehaviour
	TimeLosses          int `json:"time_losses"` // of which by time
	Rejected            int `json:"rejected"`    // results the referee refused
	Duplicates          int `json:"duplicates"`  // results of games already recorded
	// PValue is the probability of results at least this far from the other workers' (a
	// chi-square test of its wins, draws and losses against theirs); Flagged marks one so
	// improbable that its games deserve a look.
	PValue  float64 `json:"p_value"`
	Flagged bool    `json:"flagged"`
}

// Score is the first engine's score in the worker's games, from 0 to 1.
func (w *WorkerStats) Score() float64 {
	if w.Games == 0 {
		return 0
	}
	return (float64(w.Wins) + float64(w.Draws)/2) / float64(w.Games)
}

// Connected reports whether the worker was heard from recently.
func (w *WorkerStats) Connected(now time.Time) bool {
	return w.Refused == "" && now.Sub(w.LastSeen) < 3*heartbeatInterval
}

// Status is where a distributed run stands, as "arbiter workers" shows it.
type Status struct {
	Run       string        `json:"run"`
	Scheduled int           `json:"scheduled"`
	Collected int           `json:"collected"` // games recorded from workers since the coordinator started
	Workers   []WorkerStats `json:"workers"`
	// TakenOut are the pairs taken out of the run after too many rejected results.
	TakenOut []TakenOut `json:"taken_out,omitempty"`
}

// flagP is the p-value under which a worker's results are flagged: with a few workers checked
// after every result, honest workers are flagged about once in a thousand runs.
const flagP = 1e-4

// minGamesToJudge is how many games a worker and the rest must have played before its results
// are judged.
const minGamesToJudge = 20

// count adds a recorded game to the worker's statistics; first is the name of the run's engine
// configured first of the two that played.
func (w *WorkerStats) count(r *results.Record, first string) {
	w.Games++
	switch s := r.ScoreOf(first); {
	case s == 1:
		w.Wins++
	case s == 0:
		w.Losses++
	default:
		w.Draws++
	}
	if r.Reason.IsFault() {
		w.Faults++
		if r.Reason == results.ReasonTimeForfeit {
			w.TimeLosses++
		}
	}
}

// judge computes every worker's p-value against the others' pooled results and flags the
// improbable ones, as fishtest does with its residuals.
func judge(workers []*WorkerStats) {
	var total [3]int
	for _, w := range workers {
		total[0] += w.Wins
		total[1] += w.Draws
		total[2] += w.Losses
	}
	for _, w := range workers {
		mine := [3]int{w.Wins, w.Draws, w.Losses}
		var rest [3]int
		for i := range rest {
			rest[i] = total[i] - mine[i]
		}
		w.PValue, w.Flagged = 1, false
		if sum(mine) < minGamesToJudge || sum(rest) < minGamesToJudge {
			continue
		}
		w.PValue = chiSquareP(mine, rest)
		w.Flagged = w.PValue < flagP
	}
}

func sum(c [3]int) int { return c[0] + c[1] + c[2] }

// chiSquareP is the p-value of Pearson's chi-square test that two rows of counts (wins, draws,
// losses) come from one distribution. Columns empty in both rows drop out, each taking a
// degree of freedom with them.
func chiSquareP(a, b [3]int) float64 {
	na, nb := float64(sum(a)), float64(sum(b))
	n := na + nb
	chi2, cols := 0.0, 0
	for i := range a {
		col := float64(a[i] + b[i])
		if col == 0 {
			continue
		}
		cols++
		for _, cell := range [2]struct{ obs, row float64 }{{float64(a[i]), na}, {float64(b[i]), nb}} {
			exp := cell.row * col / n
			chi2 += (cell.obs - exp) * (cell.obs - exp) / exp
		}
	}
	switch cols - 1 {
	case 1:
		return math.Erfc(math.Sqrt(chi2 / 2))
	case 2:
		return math.Exp(-chi2 / 2)
	}
	return 1
}

// WriteStatus prints the workers of a run as a table.
func WriteStatus(w io.Writer, s *Status, now time.Time) {
	connected := 0
	for i := range s.Workers {
		if s.Workers[i].Connected(now) {
			connected++
		}
	}
	fmt.Fprintf(w, "Run %s of %d games: %d recorded from workers since the coordinator started, %d workers connected\n", s.Run, s.Scheduled, s.Collected, connected)
	fmt.Fprintf(w, "%-24s %-9s %5s %9s %6s %7s %6s %5s %8s %9s\n", "worker", "state", "slots", "in flight", "games", "score", "faults", "time", "rejected", "p")
	for _, ws := range s.Workers {
		state := "gone"
		switch {
		case ws.Refused != "":
			state = "refused"
		case ws.Connected(now):
			state = "connected"
		}
		flag := ""
		if ws.Flagged {
			flag = " FLAGGED"
		}
		fmt.Fprintf(w, "%-24s %-9s %5d %9d %6d %6.1f%% %6d %5d %8d %9.3g%s\n", ws.Name, state, ws.Slots, len(ws.InFlight),
			ws.Games, 100*ws.Score(), ws.Faults, ws.TimeLosses, ws.Rejected, ws.PValue, flag)
	}
}

// progressWorkers is the workers' part of a progress line: "3 workers: a 2, b 1, c 0 in flight".
func progressWorkers(workers []*WorkerStats, now time.Time) string {
	var parts []string
	for _, w := range workers {
		if w.Connected(now) {
			parts = append(parts, fmt.Sprintf("%s %d", w.Name, len(w.InFlight)))
		}
	}
	sort.Strings(parts)
	return fmt.Sprintf("%d workers connected (games in flight: %s)", len(parts), strings.Join(parts, ", "))
}

// FetchStatus connects to the coordinator the credentials name, as client, and asks it
// where its run stands (see RequestStatus).
func FetchStatus(ctx context.Context, c *Credentials, client string) (*Status, error) {
	nc, err := Dial(c, client)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	return RequestStatus(ctx, nc, c.Run)
}

// RequestStatus asks the coordinator of a run where it stands.
func RequestStatus(ctx context.Context, nc *nats.Conn, run string) (*Status, error) {
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	m, err := nc.RequestWithContext(rctx, statusSubject(run), nil)
	if err != nil {
		return nil, fmt.Errorf("distributed: asking the coordinator of run %s: %w", run, err)
	}
	var s Status
	if err := json.Unmarshal(m.Data, &s); err != nil {
		return nil, fmt.Errorf("distributed: unreadable status: %w", err)
	}
	return &s, nil
}
