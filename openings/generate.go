package openings

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"hivearbiter/rules"
)

// GenerateConfig says which book to generate.
type GenerateConfig struct {
	GameType rules.GameType
	// Plies is how many random legal plies lead to each position.
	Plies int
	// Count is how many positions the book holds, at most.
	Count int
	// Seed decides the random plies and the order of the book.
	Seed uint64
	// Band keeps the positions whose evaluation, from White's point of view, lies within
	// [-Band, Band].
	Band int
	// Balance makes the book hold as many positions scored for White as for Black (one more
	// at most), taking them in the spread order and passing over those that would tip it.
	// With a playout evaluator, the book is then even in the evaluator's own games.
	Balance bool
	// Candidates is how many positions, distinct up to symmetry, are drawn and evaluated;
	// 0 means 10 per position of the book.
	Candidates int
}

// Evaluator scores a position from White's point of view: positive when White stands
// better. It is called once per candidate, one at a time.
type Evaluator interface {
	Evaluate(ctx context.Context, g *rules.Game) (int, error)
	// Describe says what the scores are, for the book's header.
	Describe() string
}

// Position is an opening of a book.
type Position struct {
	GameString string
	Score      int    // the evaluation, from White's point of view
	Bugs       string // the bugs each side has placed, e.g. "wAQ bGS"
	Shape      string // the number of neighbours of each occupied cell, sorted
}

// Generated is a generated book and what it was chosen from.
type Generated struct {
	Positions []Position
	// Distinct is how many positions, distinct up to symmetry, were drawn and evaluated;
	// InBand how many of those were within the band; Groups how many bug groups they fell in.
	Distinct, InBand, Groups int
	// Exhausted says the draw stopped finding new positions before it had Candidates: there
	// are no more at this ply count, or few enough that chance stopped finding them.
	Exhausted bool
}

// ErrGenerateConfig is wrapped by the errors of a configuration that cannot make a book
// (GenerateConfig, or an evaluator's settings).
var ErrGenerateConfig = errors.New("openings: bad configuration")

// maxRepeats is how many draws in a row may find only positions drawn before until the
// draw gives up looking for more.
const maxRepeats = 2000

// Generate draws, evaluates, filters and spreads positions into a book (see the package
// documentation). It is deterministic for a configuration, a seed and a deterministic
// evaluator.
func Generate(ctx context.Context, cfg GenerateConfig, ev Evaluator) (*Generated, error) {
	switch {
	case cfg.Plies < 1:
		return nil, fmt.Errorf("%w: plies %d: want 1 or more", ErrGenerateConfig, cfg.Plies)
	case cfg.Count < 1:
		return nil, fmt.Errorf("%w: count %d: want 1 or more", ErrGenerateConfig, cfg.Count)
	case cfg.Band < 0:
		return nil, fmt.Errorf("%w: band %d: want 0 or more", ErrGenerateConfig, cfg.Band)
	}
	candidates := cfg.Candidates
	if candidates <= 0 {
		candidates = 10 * cfg.Count
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6f70656e696e6773))
	games, exhausted := drawCandidates(cfg.GameType, cfg.Plies, candidates, rng)
	book := &Generated{Distinct: len(games), Exhausted: exhausted}
	var kept []Position
	for _, g := range games {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("openings: %w", err)
		}
		score, err := ev.Evaluate(ctx, g)
		if err != nil {
			return nil, fmt.Errorf("openings: evaluating %s: %w", g.GameString(), err)
		}
		if score < -cfg.Band || score > cfg.Band {
			continue
		}
		bugs, shape := describe(g.Board())
		kept = append(kept, Position{GameString: g.GameString(), Score: score, Bugs: bugs, Shape: shape})
	}
	book.InBand = len(kept)
	book.Positions, book.Groups = spread(kept, rng)
	if cfg.Balance {
		book.Positions = balance(book.Positions)
	}
	book.Positions = book.Positions[:min(cfg.Count, len(book.Positions))]
	return book, nil
}

// drawCandidates plays random legal plies until it has n positions distinct up to symmetry, or until
// maxRepeats draws in a row found none new. Positions where the game is over are skipped.
func drawCandidates(t rules.GameType, plies, n int, rng *rand.Rand) (games []*rules.Game, exhausted bool) {
	seen := map[rules.Canonical]bool{}
	for repeats := 0; len(games) < n; {
		if repeats >= maxRepeats {
			return games, true
		}
		g := rules.NewGame(t)
		for g.Ply() < plies && !g.State().IsOver() {
			moves := g.ValidMoves()
			if err := g.PlayMove(moves[rng.IntN(len(moves))]); err != nil {
				panic(fmt.Sprintf("openings: the referee rejected its own valid move: %v", err))
			}
		}
		c := g.Canonical()
		if g.State().IsOver() || seen[c] {
			repeats++
			continue
		}
		seen[c] = true
		repeats = 0
		games = append(games, g)
	}
	return games, false
}

// bugLetters names the bugs as the GameString's pieces do.
var bugLetters = [rules.NumBugs]byte{'Q', 'S', 'B', 'G', 'A', 'M', 'L', 'P'}

// describe returns what the book spreads positions over: the bugs each side has on the board
// (sorted letters, "-" for none), and the shape of the hive as the sorted neighbour counts of
// its occupied cells, which no symmetry changes.
func describe(b *rules.Board) (bugs, shape string) {
	var sides [2][]byte
	var cells []rules.Cell
	for p := range rules.Piece(rules.NumPieces) {
		c := b.CellOf(p)
		if c == rules.NoCell {
			continue
		}
		sides[p.Color()] = append(sides[p.Color()], bugLetters[p.Bug()])
		if b.Level(p) == 0 {
			cells = append(cells, c)
		}
	}
	var counts []byte
	for _, c := range cells {
		n := 0
		for d := range rules.Direction(rules.NumDirections) {
			if b.Height(c.Neighbor(d)) > 0 {
				n++
			}
		}
		counts = append(counts, byte('0'+n))
	}
	slices.Sort(counts)
	side := func(s []byte) string {
		if len(s) == 0 {
			return "-"
		}
		slices.Sort(s)
		return string(s)
	}
	return "w" + side(sides[rules.White]) + " b" + side(sides[rules.Black]), string(counts)
}

// spread orders the positions round-robin over their bug groups, in an order of the
// groups shuffled by rng, each group's positions taken round-robin over their shapes in draw
// order. It returns the positions in the order taken, so any prefix of the book is spread too,
// and the number of groups.
func spread(kept []Position, rng *rand.Rand) ([]Position, int) {
	groups := map[string][]Position{}
	for _, p := range kept {
		groups[p.Bugs] = append(groups[p.Bugs], p)
	}
	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	slices.Sort(names)
	rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	queues := make([][]Position, len(names))
	for i, name := range names {
		queues[i] = byShape(groups[name])
	}
	var out []Position
	for round := 0; len(out) < len(kept); round++ {
		for _, q := range queues {
			if round < len(q) {
				out = append(out, q[round])
			}
		}
	}
	return out, len(names)
}

// balance keeps the positions in order, passing over a position scored for one side while
// that side already has one more than the other.
func balance(ps []Position) []Position {
	var out []Position
	white, black := 0, 0
	for _, p := range ps {
		switch {
		case p.Score > 0 && white > black:
		case p.Score < 0 && black > white:
		default:
			out = append(out, p)
			if p.Score > 0 {
				white++
			} else if p.Score < 0 {
				black++
			}
		}
	}
	return out
}

// byShape orders a group's positions round-robin over their shapes (shapes in order of first
// appearance, positions in draw order).
func byShape(ps []Position) []Position {
	var order []string
	byName := map[string][]Position{}
	for _, p := range ps {
		if _, ok := byName[p.Shape]; !ok {
			order = append(order, p.Shape)
		}
		byName[p.Shape] = append(byName[p.Shape], p)
	}
	out := make([]Position, 0, len(ps))
	for round := 0; len(out) < len(ps); round++ {
		for _, s := range order {
			if round < len(byName[s]) {
				out = append(out, byName[s][round])
			}
		}
	}
	return out
}

// Write writes the book: the header lines as comments, then one GameString per line with a
// comment giving its evaluation, bugs and shape.
func (b *Generated) Write(w io.Writer, header []string) error {
	var sb strings.Builder
	for _, h := range header {
		sb.WriteString("# " + h + "\n")
	}
	for _, p := range b.Positions {
		fmt.Fprintf(&sb, "%s # eval %+d, bugs %s, shape %s\n", p.GameString, p.Score, p.Bugs, p.Shape)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}
