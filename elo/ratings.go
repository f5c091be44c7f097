package elo

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// eloPerLogit converts the natural log-odds of the logistic model to Elo: 400/ln 10.
const eloPerLogit = 400 / math.Ln10

// Match aggregates the games of one pairing with fixed colours: White had the first move in
// all of them, and the counts are White's results.
type Match struct {
	White, Black int
	WDL
}

// Anchor fixes one player's rating.
type Anchor struct {
	Player int
	Elo    float64
}

// RatingOptions configures Ratings. The zero value fits ratings alone, centred on mean 0.
type RatingOptions struct {
	// WhiteAdvantage also fits the Elo bonus of moving first, which matters in Hive.
	WhiteAdvantage bool
	// Anchor, if set, fixes one player's rating instead of centring the ratings on 0. The
	// anchored player then has a standard error of 0, and the others' errors are relative to
	// it.
	Anchor *Anchor
	// VirtualDraws adds this many drawn games, half with each colour, to every pair of
	// players who met: a prior in the manner of BayesElo that keeps ratings finite when some
	// players scored every point, or none, against the rest. 0 gives the plain
	// maximum-likelihood fit.
	VirtualDraws float64
}

// RatingResult holds maximum-likelihood ratings and their uncertainty. Slices are indexed by
// player.
type RatingResult struct {
	// Elo is each player's rating, with mean 0 or relative to the anchor.
	Elo []float64
	// StdErr is the standard error of each rating, from the inverse of the observed
	// information.
	StdErr []float64
	// Covariance is the covariance matrix of the ratings, in Elo².
	Covariance [][]float64
	// LOS[i][j] is the likelihood that player i is stronger than player j:
	// Φ((Rᵢ-Rⱼ)/SE(Rᵢ-Rⱼ)). The diagonal is 0.5.
	LOS [][]float64
	// WhiteAdvantage is the fitted Elo bonus of moving first, and WhiteAdvantageStdErr its
	// standard error; both are 0 unless RatingOptions.WhiteAdvantage is set.
	WhiteAdvantage, WhiteAdvantageStdErr float64
	// Games is each player's number of games, virtual draws not included.
	Games []int
	// Score is each player's mean score against the field, the basis of the "Elo" that
	// fastchess and cutechess print for tournaments: EloFromScore(Score[i]). It is 0.5 for a
	// player without games.
	Score []float64
}

// Interval returns the 95% confidence interval of player i's rating, Elo ± z·StdErr.
func (r RatingResult) Interval(i int) (lower, upper float64) {
	return r.Elo[i] - z95*r.StdErr[i], r.Elo[i] + z95*r.StdErr[i]
}

// RatingError reports players whose maximum-likelihood ratings do not exist: they have no
// games, are not connected to the others by games, or scored every point (or none) against a
// part of the field, which makes their rating infinite. Setting RatingOptions.VirtualDraws
// repairs the last case.
type RatingError struct {
	Players []int
	Reason  string
	// Apart is set when the players are not connected by games to player 0: Reason then
	// ends where player 0 is named, so that a caller can name it its own way (Explain).
	Apart bool
}

// Error implements error.
func (e *RatingError) Error() string {
	ids := make([]string, len(e.Players))
	for i, p := range e.Players {
		ids[i] = fmt.Sprint(p)
	}
	return fmt.Sprintf("elo: no finite ratings for players %s: %s", strings.Join(ids, ", "), e.Explain(nil))
}

// Explain is the reason, with the player it relates the others to named by name (nil: as
// "player N").
func (e *RatingError) Explain(name func(player int) string) string {
	if !e.Apart {
		return e.Reason
	}
	if name == nil {
		name = func(player int) string { return fmt.Sprintf("player %d", player) }
	}
	return e.Reason + " " + name(0)
}

// Ratings fits ratings on the Elo scale to the matches of players players (numbered from 0)
// by maximum likelihood, in the Bradley–Terry model with draws counted as half a win and half
// a loss: White's expected score against Black is ScoreFromElo(R_white + A - R_black), where
// the White advantage A is 0 unless opts.WhiteAdvantage is set. The maximum is found by
// Newton's method. Unlike the score-against-the-field Elo, the ratings account for who played
// whom, and uncertainties come from the curvature of the likelihood.
//
// It returns a *RatingError when the likelihood has no finite maximum, and another error for
// malformed input (a player index out of range, a player meeting itself, negative counts, or
// an out-of-range anchor).
func Ratings(players int, matches []Match, opts RatingOptions) (RatingResult, error) {
	if players < 1 {
		return RatingResult{}, errors.New("elo: Ratings needs at least one player")
	}
	if a := opts.Anchor; a != nil && (a.Player < 0 || a.Player >= players) {
		return RatingResult{}, fmt.Errorf("elo: anchor player %d out of range [0, %d)", a.Player, players)
	}
	if opts.VirtualDraws < 0 || math.IsNaN(opts.VirtualDraws) || math.IsInf(opts.VirtualDraws, 0) {
		return RatingResult{}, fmt.Errorf("elo: invalid virtual draws %v", opts.VirtualDraws)
	}
	t, err := newMatchTable(players, matches)
	if err != nil {
		return RatingResult{}, err
	}
	result := RatingResult{Games: t.playerGames, Score: make([]float64, players)}
	for i := range players {
		result.Score[i] = 0.5
		if t.playerGames[i] > 0 {
			result.Score[i] = t.playerPoints[i] / float64(t.playerGames[i])
		}
	}
	t.addVirtualDraws(opts.VirtualDraws)
	if err := checkIdentifiable(players, t.games, t.points); err != nil {
		return RatingResult{}, err
	}
	// Virtual draws are colour-neutral, so they cannot make the White advantage finite.
	if opts.WhiteAdvantage && t.allGames > 0 && (t.whitePoints == 0 || t.whitePoints == t.allGames) {
		return RatingResult{}, &RatingError{Reason: "the White advantage is infinite: one colour scored every point"}
	}

	f := &fit{players: players, games: t.games, points: t.points, white: opts.WhiteAdvantage}
	x, cov, err := f.maximize()
	if err != nil {
		return RatingResult{}, err
	}
	result.setElo(f, x, cov, opts.Anchor)
	if opts.WhiteAdvantage {
		last := f.dim() - 1
		result.WhiteAdvantage = eloPerLogit * x[last]
		result.WhiteAdvantageStdErr = eloPerLogit * math.Sqrt(max(cov[last][last], 0))
	}
	return result, nil
}

// matchTable holds the games and White's points of each ordered pair of players.
type matchTable struct {
	games, points         [][]float64 // by White, then Black
	playerGames           []int
	playerPoints          []float64
	allGames, whitePoints float64
}

func newMatchTable(players int, matches []Match) (*matchTable, error) {
	t := &matchTable{games: make([][]float64, players), points: make([][]float64, players),
		playerGames: make([]int, players), playerPoints: make([]float64, players)}
	for i := range t.games {
		t.games[i] = make([]float64, players)
		t.points[i] = make([]float64, players)
	}
	for _, m := range matches {
		switch {
		case m.White < 0 || m.White >= players || m.Black < 0 || m.Black >= players:
			return nil, fmt.Errorf("elo: match %d-%d: player out of range [0, %d)", m.White, m.Black, players)
		case m.White == m.Black:
			return nil, fmt.Errorf("elo: player %d cannot play itself", m.White)
		case m.Wins < 0 || m.Draws < 0 || m.Losses < 0:
			return nil, fmt.Errorf("elo: match %d-%d: negative counts %+v", m.White, m.Black, m.WDL)
		}
		n, s := float64(m.Games()), m.Points()
		t.games[m.White][m.Black] += n
		t.points[m.White][m.Black] += s
		t.playerGames[m.White] += m.Games()
		t.playerGames[m.Black] += m.Games()
		t.playerPoints[m.White] += s
		t.playerPoints[m.Black] += n - s
		t.allGames += n
		t.whitePoints += s
	}
	return t, nil
}

// addVirtualDraws adds v draws, half with each colour, to every pairing that played.
func (t *matchTable) addVirtualDraws(v float64) {
	if v <= 0 {
		return
	}
	for i := range t.games {
		for j := range i {
			if t.games[i][j]+t.games[j][i] > 0 {
				t.games[i][j] += v / 2
				t.points[i][j] += v / 4
				t.games[j][i] += v / 2
				t.points[j][i] += v / 4
			}
		}
	}
}

// setElo maps the fit's free parameters x (player 0's log-odds rating is fixed at 0), with
// their covariance, to Elo ratings, centred or anchored (r = M·x), their covariance, standard
// errors and likelihoods of superiority.
func (r *RatingResult) setElo(f *fit, x []float64, cov [][]float64, anchor *Anchor) {
	players := f.players
	m := make([][]float64, players)
	for i := range m {
		m[i] = make([]float64, f.dim())
		for j := 1; j < players; j++ {
			w := -1 / float64(players)
			if anchor != nil {
				w = 0
				if j == anchor.Player {
					w = -1
				}
			}
			if i == j {
				w++
			}
			m[i][j-1] = eloPerLogit * w
		}
	}
	offset := 0.0
	if anchor != nil {
		offset = anchor.Elo
	}
	r.Elo = make([]float64, players)
	for i := range players {
		r.Elo[i] = offset
		for j, xj := range x {
			r.Elo[i] += m[i][j] * xj
		}
	}
	r.Covariance = make([][]float64, players)
	r.StdErr = make([]float64, players)
	for i := range players {
		r.Covariance[i] = make([]float64, players)
		for k := range players {
			var c float64
			for j := range x {
				for l := range x {
					c += m[i][j] * cov[j][l] * m[k][l]
				}
			}
			r.Covariance[i][k] = c
		}
		r.StdErr[i] = math.Sqrt(max(r.Covariance[i][i], 0))
	}
	r.LOS = make([][]float64, players)
	for i := range players {
		r.LOS[i] = make([]float64, players)
		for j := range players {
			c := r.Covariance
			se := math.Sqrt(max(c[i][i]+c[j][j]-2*c[i][j], 0))
			r.LOS[i][j] = normalCDFRatio(r.Elo[i]-r.Elo[j], se)
			if i == j {
				r.LOS[i][j] = 0.5
			}
		}
	}
}

// checkIdentifiable returns a *RatingError unless the graph with an edge from i to j whenever
// i scored against j is strongly connected, the condition (Zermelo, Ford) for finite
// Bradley–Terry ratings.
func checkIdentifiable(players int, games, points [][]float64) error {
	var idle []int
	for i := range players {
		var n float64
		for j := range players {
			n += games[i][j] + games[j][i]
		}
		if n == 0 {
			idle = append(idle, i)
		}
	}
	if players == 1 {
		return nil
	}
	if len(idle) > 0 {
		return &RatingError{Players: idle, Reason: "no games"}
	}
	met := func(i, j int) bool { return games[i][j]+games[j][i] > 0 }
	scored := func(i, j int) bool { return points[i][j]+games[j][i]-points[j][i] > 0 }
	if group := reach(players, 0, met); len(group) < players {
		return &RatingError{Players: complement(players, group), Reason: "not connected by games to", Apart: true}
	}
	// The players whom player 0 scored against, directly or through others, and the players
	// who scored against player 0 in the same sense; both must be everyone.
	down := reach(players, 0, scored)
	up := reach(players, 0, func(i, j int) bool { return scored(j, i) })
	switch {
	case len(down) < players:
		return &RatingError{Players: complement(players, down), Reason: "never lost a point to the other players"}
	case len(up) < players:
		return &RatingError{Players: complement(players, up), Reason: "never scored a point against the other players"}
	}
	return nil
}

// reach returns the players reachable from start along edge, in increasing order.
func reach(players, start int, edge func(i, j int) bool) []int {
	seen := make([]bool, players)
	seen[start] = true
	stack := []int{start}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for j := range players {
			if !seen[j] && edge(i, j) {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	var out []int
	for i, s := range seen {
		if s {
			out = append(out, i)
		}
	}
	return out
}

func complement(players int, set []int) []int {
	var out []int
	for i := range players {
		if !slices.Contains(set, i) {
			out = append(out, i)
		}
	}
	return out
}

// fit is the log-likelihood of the Bradley–Terry model in natural log-odds units. Its
// parameters are the ratings of players 1..n-1 (player 0 is fixed at 0, which removes the
// model's translation invariance) followed, if white is set, by the White advantage.
type fit struct {
	players       int
	games, points [][]float64
	white         bool
}

func (f *fit) dim() int {
	if f.white {
		return f.players
	}
	return f.players - 1
}

// logLikelihood returns the log-likelihood at x and, if grad and info are not nil, fills
// in its gradient and the observed information (the negated Hessian).
func (f *fit) logLikelihood(x, grad []float64, info [][]float64) float64 {
	for i := range grad {
		grad[i] = 0
		for j := range info[i] {
			info[i][j] = 0
		}
	}
	var ll float64
	var idx [3]int
	var sgn [3]float64
	for w := range f.players {
		for b := range f.players {
			n := f.games[w][b]
			if n == 0 {
				continue
			}
			s := f.points[w][b]
			d := 0.0
			k := 0
			if w > 0 {
				d += x[w-1]
				idx[k], sgn[k] = w-1, 1
				k++
			}
			if b > 0 {
				d -= x[b-1]
				idx[k], sgn[k] = b-1, -1
				k++
			}
			if f.white {
				d += x[f.players-1]
				idx[k], sgn[k] = f.players-1, 1
				k++
			}
			ll += s*logSigmoid(d) + (n-s)*logSigmoid(-d)
			if grad == nil {
				continue
			}
			p := sigmoid(d)
			g := s - n*p
			h := n * p * (1 - p)
			for a := range k {
				grad[idx[a]] += sgn[a] * g
				for c := range k {
					info[idx[a]][idx[c]] += sgn[a] * sgn[c] * h
				}
			}
		}
	}
	return ll
}

// maxLogit bounds the parameters: beyond 40 natural units (about 7000 Elo) the maximum is
// taken to be at infinity.
const maxLogit = 40

// maximize runs Newton's method with step halving from x = 0 and returns the maximum and the
// inverse of the information there, the asymptotic covariance of the estimate.
func (f *fit) maximize() (x []float64, cov [][]float64, err error) {
	dim := f.dim()
	x = make([]float64, dim)
	grad := make([]float64, dim)
	info := newMatrix(dim)
	trial := make([]float64, dim)
	ll := f.logLikelihood(x, grad, info)
	for range 200 {
		step, ok := solveSPD(info, grad)
		if !ok {
			return nil, nil, &RatingError{Reason: "the likelihood has no unique maximum"}
		}
		var size float64
		for _, s := range step {
			size = max(size, math.Abs(s))
		}
		// Near the maximum the full Newton step is right and rounding can hide its gain in
		// likelihood; further out, halve it until the likelihood does not fall.
		t := 1.0
		for size >= 1e-6 && t > 1e-6 {
			for i := range x {
				trial[i] = x[i] + t*step[i]
			}
			if f.logLikelihood(trial, nil, nil) >= ll {
				break
			}
			t /= 2
		}
		for i := range x {
			x[i] += t * step[i]
		}
		ll = f.logLikelihood(x, grad, info)
		for i, v := range x {
			if math.Abs(v) > maxLogit {
				if f.white && i == dim-1 {
					return nil, nil, &RatingError{Reason: "the White advantage is infinite"}
				}
				return nil, nil, &RatingError{Reason: "the ratings diverge"}
			}
		}
		if size < 1e-10 {
			cov, ok := invertSPD(info)
			if !ok {
				return nil, nil, &RatingError{Reason: "the likelihood has no unique maximum"}
			}
			return x, cov, nil
		}
	}
	return nil, nil, &RatingError{Reason: "Newton's method did not converge"}
}

func sigmoid(d float64) float64 { return 1 / (1 + math.Exp(-d)) }

// logSigmoid returns ln(1/(1+e^-d)) without overflow.
func logSigmoid(d float64) float64 {
	if d > 0 {
		return -math.Log1p(math.Exp(-d))
	}
	return d - math.Log1p(math.Exp(d))
}

func newMatrix(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

// cholesky returns the lower triangular L with a = L·Lᵀ, or false if a is not positive
// definite.
func cholesky(a [][]float64) ([][]float64, bool) {
	n := len(a)
	l := newMatrix(n)
	for i := range n {
		for j := 0; j <= i; j++ {
			sum := a[i][j]
			for k := range j {
				sum -= l[i][k] * l[j][k]
			}
			if i == j {
				if !(sum > 0) {
					return nil, false
				}
				l[i][i] = math.Sqrt(sum)
			} else {
				l[i][j] = sum / l[j][j]
			}
		}
	}
	return l, true
}

// choleskySolve solves L·Lᵀ·x = b.
func choleskySolve(l [][]float64, b []float64) []float64 {
	n := len(l)
	y := make([]float64, n)
	for i := range n {
		sum := b[i]
		for k := range i {
			sum -= l[i][k] * y[k]
		}
		y[i] = sum / l[i][i]
	}
	for i := n - 1; i >= 0; i-- {
		sum := y[i]
		for k := i + 1; k < n; k++ {
			sum -= l[k][i] * y[k]
		}
		y[i] = sum / l[i][i]
	}
	return y
}

// solveSPD solves a·x = b for a symmetric positive definite a.
func solveSPD(a [][]float64, b []float64) ([]float64, bool) {
	l, ok := cholesky(a)
	if !ok {
		return nil, false
	}
	return choleskySolve(l, b), true
}

// invertSPD inverts a symmetric positive definite matrix.
func invertSPD(a [][]float64) ([][]float64, bool) {
	l, ok := cholesky(a)
	if !ok {
		return nil, false
	}
	n := len(a)
	inv := newMatrix(n)
	e := make([]float64, n)
	for j := range n {
		clear(e)
		e[j] = 1
		col := choleskySolve(l, e)
		for i := range n {
			inv[i][j] = col[i]
		}
	}
	return inv, true
}
