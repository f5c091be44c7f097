// The tables of a field of players, as a terminal shows them: each player against the field,
// the maximum-likelihood ratings, and the games each lost by misbehaviour.

package render

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"hivearbiter/elo"
	"hivearbiter/results"
)

// WriteFieldTable writes one row per player with its results against the whole field, as
// fastchess and cutechess do for more than two engines: Elo from the aggregate score (which
// overstates differences, see the maximum-likelihood ratings), games, score, draws and the
// pentanomial counts of its game pairs. Rows are ordered by score.
func WriteFieldTable(w io.Writer, t *results.Tally) error {
	rows := append([]*results.PlayerTally(nil), t.Players...)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].WDL.Score() > rows[j].WDL.Score() })
	table := NewTable("Rank", "Name", "Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw", "Ptnml(0-2)")
	for i, p := range rows {
		ptnml := p.Pairs.Pentanomial()
		est := elo.TrinomialEstimate(p.WDL)
		ptnmlText := "-"
		if ptnml.Pairs() > 0 {
			est = elo.PentanomialEstimate(ptnml)
			ptnmlText = fmt.Sprintf("[%d, %d, %d, %d, %d]", ptnml[0], ptnml[1], ptnml[2], ptnml[3], ptnml[4])
		}
		table.Append(fmt.Sprint(i+1), p.Name,
			eloText(est), eloMarginText(est), tableNormalized(est), marginText(est, est.NormalizedErrorMargin),
			fmt.Sprint(p.WDL.Games()), fmt.Sprintf("%.1f%%", 100*p.WDL.Score()),
			fmt.Sprintf("%.1f%%", 100*p.WDL.DrawRatio()), ptnmlText)
	}
	return table.WriteText(w)
}

// faultColumns are the misbehaviours counted per engine, in the order they are shown.
var faultColumns = []struct {
	reason results.Reason
	title  string
}{
	{results.ReasonTimeForfeit, "Timeouts"},
	{results.ReasonCrash, "Crashes"},
	{results.ReasonStall, "Stalls"},
	{results.ReasonIllegalMove, "Illegal"},
	{results.ReasonIllegalPass, "BadPass"},
	{results.ReasonDesync, "Desyncs"},
	{results.ReasonFalseClaim, "FalseClaims"},
	{results.ReasonProtocol, "Protocol"},
}

// A FaultColumn is a misbehaviour counted per engine and the title of its column.
type FaultColumn struct {
	Reason results.Reason
	Title  string
}

// FaultColumns lists the misbehaviours counted per engine in the order the tables show them,
// for tables written elsewhere (a job summary's Markdown).
func FaultColumns() []FaultColumn {
	out := make([]FaultColumn, len(faultColumns))
	for i, c := range faultColumns {
		out[i] = FaultColumn{c.reason, c.title}
	}
	return out
}

// WriteFaults writes, for each engine, how many games it lost by each kind of misbehaviour.
// It writes nothing when no engine misbehaved.
func WriteFaults(w io.Writer, t *results.Tally) error {
	misbehaved := false
	for _, p := range t.Players {
		misbehaved = misbehaved || p.FaultTotal() > 0
	}
	if !misbehaved {
		return nil
	}
	table := NewTable("Engine")
	for _, c := range faultColumns {
		table.Header = append(table.Header, c.title)
	}
	for _, p := range t.Players {
		row := []string{p.Name}
		for _, c := range faultColumns {
			row = append(row, fmt.Sprint(p.Faults[c.reason]))
		}
		table.Append(row...)
	}
	return table.WriteText(w)
}

// WriteFieldRatings writes the field table of three or more players and their
// maximum-likelihood ratings, or why there are none; running says that the run goes on (the
// ratings may come with more games).
func WriteFieldRatings(w io.Writer, t *results.Tally, running bool) error {
	if err := WriteFieldTable(w, t); err != nil {
		return err
	}
	r, err := results.FitRatings(t)
	var re *results.RatingsError
	switch {
	case errors.As(err, &re) && running:
		_, err = fmt.Fprintf(w, "No maximum-likelihood ratings yet: %s\n", re.Msg)
		return err
	case errors.As(err, &re):
		_, err = fmt.Fprintf(w, "No maximum-likelihood ratings: %s\n", re.Msg)
		return err
	case err != nil:
		return err
	}
	return WriteRatingTable(w, t, r)
}

// WriteRatingTable writes the maximum-likelihood ratings with their 95% intervals, games and
// score, and the likelihood that each player is stronger than the next one down.
func WriteRatingTable(w io.Writer, t *results.Tally, r results.Ratings) error {
	order := make([]int, len(t.Players))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return r.Elo[order[a]] > r.Elo[order[b]] })
	table := NewTable("Rank", "Name", "Rating", "+/-", "Games", "Score", "LOS next")
	for rank, i := range order {
		los := "-"
		if rank+1 < len(order) {
			los = fmt.Sprintf("%.1f%%", 100*r.LOS[i][order[rank+1]])
		}
		_, upper := r.Interval(i)
		table.Append(fmt.Sprint(rank+1), t.Players[i].Name, fixed1(r.Elo[i]), fixed1(upper-r.Elo[i]),
			fmt.Sprint(r.Games[i]), fmt.Sprintf("%.1f%%", 100*r.Score[i]), los)
	}
	if err := table.WriteText(w); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "Maximum-likelihood ratings (Bradley-Terry, mean 0); White's first-move advantage: %s +/- %s Elo\n",
		fixed1(r.WhiteAdvantage), fixed1(z95*r.WhiteAdvantageStdErr)); err != nil {
		return err
	}
	if r.VirtualDraws > 0 {
		// Without them the engines named would be rated +/-infinity.
		_, err := fmt.Fprintf(w, "(%s: %g virtual draw(s) per pairing, as BayesElo adds, keep the ratings finite.)\n", r.Infinite, r.VirtualDraws)
		return err
	}
	return nil
}

// z95 is the two-sided 95% quantile of the standard normal distribution, by which the ratings'
// standard errors become the table's intervals.
const z95 = 1.959963984540054
