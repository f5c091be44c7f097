package results

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"hivearbiter/elo"
)

// Ratings are the maximum-likelihood ratings of a tally's players.
type Ratings struct {
	elo.RatingResult
	// VirtualDraws is the number of virtual draws added to each pairing to keep the ratings
	// finite (0 unless some players scored every point, or none, against the rest of the
	// field): a prior, which the tables must say.
	VirtualDraws float64
	// Infinite says, when VirtualDraws is set, whose ratings would be infinite without them
	// and why: "A never lost a point to the other players".
	Infinite string
}

// FitRatings fits maximum-likelihood ratings (Bradley-Terry on the Elo scale, with White's
// first-move advantage) to the games of the tally, for its players in its order. Players who
// scored every point (or none) against the rest of the field have no finite
// maximum-likelihood rating; one virtual draw per pairing, as BayesElo adds, keeps such
// ratings finite, and is used only when needed.
func FitRatings(t *Tally) (Ratings, error) {
	matches := make([]elo.Match, 0, len(t.colourOrder))
	for _, k := range t.colourOrder {
		matches = append(matches, elo.Match{White: k[0], Black: k[1], WDL: *t.colours[k]})
	}
	opts := elo.RatingOptions{WhiteAdvantage: true}
	r, err := elo.Ratings(len(t.Players), matches, opts)
	var infinite *elo.RatingError
	why := ""
	if errors.As(err, &infinite) {
		why = t.whyInfinite(infinite)
		opts.VirtualDraws = 1
		r, err = elo.Ratings(len(t.Players), matches, opts)
	}
	if errors.As(err, &infinite) {
		return Ratings{}, t.ratingError(infinite)
	}
	return Ratings{RatingResult: r, VirtualDraws: opts.VirtualDraws, Infinite: why}, err
}

// whyInfinite says whose ratings are infinite and why, as a sentence: "A never lost a point to
// the other players".
func (t *Tally) whyInfinite(e *elo.RatingError) string {
	names := make([]string, len(e.Players))
	for i, p := range e.Players {
		names[i] = t.Players[p].Name
	}
	return strings.Join(names, ", ") + " " + e.Explain(func(i int) string { return t.Players[i].Name })
}

// ratingError says which players have no rating, by name: elo numbers them.
func (t *Tally) ratingError(e *elo.RatingError) error {
	name := func(i int) string {
		if i >= 0 && i < len(t.Players) {
			return t.Players[i].Name
		}
		return fmt.Sprint(i)
	}
	names := make([]string, len(e.Players))
	for i, p := range e.Players {
		names[i] = name(p)
	}
	reason := e.Explain(name)
	if len(names) == 0 {
		return &RatingsError{fmt.Sprintf("no finite ratings: %s", reason)}
	}
	return &RatingsError{fmt.Sprintf("no finite ratings for %s: %s", strings.Join(names, ", "), reason)}
}

// RatingsError says why a tally has no maximum-likelihood ratings.
type RatingsError struct {
	Msg string // the reason, without the package's name
}

func (e *RatingsError) Error() string { return "results: " + e.Msg }

// Message is the error without the package's name.
func (e *RatingsError) Message() string { return e.Msg }

// WriteRatingTable writes the maximum-likelihood ratings with their 95% intervals, games and
// score, and the likelihood that each player is stronger than the next one down.
func WriteRatingTable(w io.Writer, t *Tally, r Ratings) error {
	order := make([]int, len(t.Players))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return r.Elo[order[a]] > r.Elo[order[b]] })
	table := newTable(w)
	table.Header("Rank", "Name", "Rating", "+/-", "Games", "Score", "LOS next")
	for rank, i := range order {
		los := "-"
		if rank+1 < len(order) {
			los = fmt.Sprintf("%.1f%%", 100*r.LOS[i][order[rank+1]])
		}
		_, upper := r.Interval(i)
		if err := table.Append(fmt.Sprint(rank+1), t.Players[i].Name, fixed1(r.Elo[i]), fixed1(upper-r.Elo[i]),
			fmt.Sprint(r.Games[i]), fmt.Sprintf("%.1f%%", 100*r.Score[i]), los); err != nil {
			return err
		}
	}
	if err := table.Render(); err != nil {
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
