package results

import (
	"errors"
	"fmt"
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

// Error returns what went wrong, as a user reads it.
func (e *RatingsError) Error() string { return "results: " + e.Msg }

// Message is the error without the package's name.
func (e *RatingsError) Message() string { return e.Msg }
