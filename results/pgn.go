package results

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// PGNOptions fills the tags of a PGN game that a Record does not hold.
type PGNOptions struct {
	Event string // defaults to "Hive Arbiter"
	Site  string // defaults to "?"
}

// WritePGN writes one game in the PGN dialect MzingaViewer saves and loads: the tags GameType,
// Date, Event, Site, Round, White, Black and Result, then optional tags; every ply from the
// empty board on its own numbered line (opening plies included, since a Hive PGN has no set-up
// tag), each engine move followed by a comment with its thinking time; the result on its own line.
func WritePGN(w io.Writer, r *Record, opt PGNOptions) error {
	if opt.Event == "" {
		opt.Event = "Hive Arbiter"
	}
	if opt.Site == "" {
		opt.Site = "?"
	}
	// The game is made in one slice and written at once: a site of a rating list writes a
	// hundred thousand games, and formatting each ply with fmt cost more than the writing.
	b := make([]byte, 0, 512+24*len(r.Moves))
	tag := func(k, v string) {
		b = append(b, '[')
		b = append(b, k...)
		b = append(b, " \""...)
		b = append(b, pgnEscaper.Replace(v)...)
		b = append(b, "\"]\n"...)
	}
	tag("GameType", r.GameType)
	tag("Date", r.Started.UTC().Format("2006.01.02"))
	tag("Event", opt.Event)
	tag("Site", opt.Site)
	tag("Round", strconv.Itoa(r.Round))
	tag("White", r.White.Name)
	tag("Black", r.Black.Name)
	tag("Result", r.Result)
	if r.White.Time != "" && r.White.Time == r.Black.Time {
		tag("TimeControl", r.White.Time)
	} else {
		if r.White.Time != "" {
			tag("WhiteTimeControl", r.White.Time)
		}
		if r.Black.Time != "" {
			tag("BlackTimeControl", r.Black.Time)
		}
	}
	tag("Termination", string(r.Reason))
	if r.Detail != "" {
		tag("TerminationDetails", r.Detail)
	}
	tag("Game", strconv.Itoa(r.Game+1)) // numbered from 1, as on the console; the record's index is from 0
	opening := OpeningMoves(r.Opening)
	if len(opening) > 0 {
		tag("Opening", r.Opening)
	}
	if len(opening)+len(r.Moves) > 0 {
		b = append(b, '\n')
	}
	n := 1
	for _, m := range opening {
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, ". "...)
		b = append(b, m...)
		b = append(b, '\n')
		n++
	}
	for _, m := range r.Moves {
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, ". "...)
		b = append(b, m.Move...)
		b = append(b, "\n{"...)
		b = appendSeconds(b, m.Millis)
		b = append(b, "s}\n"...)
		n++
	}
	b = append(b, '\n')
	b = append(b, r.Result...)
	b = append(b, "\n\n"...)
	_, err := w.Write(b)
	return err
}

// appendSeconds appends milliseconds as seconds with three decimals, as %.3f prints them.
func appendSeconds(b []byte, millis int64) []byte {
	if millis < 0 {
		return strconv.AppendFloat(b, float64(millis)/1000, 'f', 3, 64)
	}
	b = strconv.AppendInt(b, millis/1000, 10)
	frac := millis % 1000
	return append(b, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
}

// pgnEscaper keeps a tag value on one line and free of the quote that would end it.
var pgnEscaper = strings.NewReplacer("\"", "'", "\n", " ", "\r", " ")

// OpeningMoves returns the MoveStrings of a GameString (the fields after the TurnString).
func OpeningMoves(gameString string) []string {
	fields := strings.Split(gameString, ";")
	if len(fields) <= 3 {
		return nil
	}
	moves := make([]string, 0, len(fields)-3)
	for _, m := range fields[3:] {
		moves = append(moves, strings.TrimSpace(m))
	}
	return moves
}

// PGNGame is one game read from a PGN file.
type PGNGame struct {
	Tags   map[string]string
	Moves  []string // MoveStrings, in order, as written
	Result string   // the result line or tag; "" if neither is present
	Line   int      // line of the file the game starts on
}

// GameType returns the game's GameType tag ("Base" when absent, as MzingaViewer assumes).
func (g *PGNGame) GameType() string {
	if t := g.Tags["GameType"]; t != "" {
		return t
	}
	return "Base"
}

// GameString returns the game as an (unvalidated) GameString for the referee to load.
func (g *PGNGame) GameString() string {
	var b strings.Builder
	b.WriteString(g.GameType())
	b.WriteString(";NotStarted;White[1]")
	for _, m := range g.Moves {
		b.WriteString(";")
		b.WriteString(m)
	}
	return b.String()
}

// PGNError reports a line of a PGN file that could not be read.
type PGNError struct {
	Line int
	Err  error
}

// Error returns what went wrong, as a user reads it.
func (e *PGNError) Error() string { return fmt.Sprintf("results: PGN line %d: %v", e.Line, e.Err) }

// Unwrap returns the error underneath, for errors.Is and errors.As.
func (e *PGNError) Unwrap() error { return e.Err }

var gameStates = map[string]bool{"NotStarted": true, "InProgress": true, WhiteWins: true, BlackWins: true, Draw: true}

// ParsePGN reads every game of a file in MzingaViewer's PGN dialect. A new game starts at a tag
// line that follows moves or a result. Comments in braces are skipped; move numbers are optional.
func ParsePGN(r io.Reader) ([]PGNGame, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var (
		games     []PGNGame
		cur       *PGNGame
		inComment bool
		inBody    bool // the current game's moves or result line have begun
		line      int
	)
	begin := func() {
		games = append(games, PGNGame{Tags: map[string]string{}, Line: line})
		cur = &games[len(games)-1]
		inBody = false
	}
	for sc.Scan() {
		line++
		s := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if inComment {
			if strings.HasSuffix(s, "}") {
				inComment = false
			}
			continue
		}
		switch {
		case s == "":
		case strings.HasPrefix(s, "{"):
			inComment = !strings.HasSuffix(s, "}")
		case strings.HasPrefix(s, "["):
			if !strings.HasSuffix(s, "]") {
				return nil, &PGNError{line, fmt.Errorf("unterminated tag %q", s)}
			}
			if cur == nil || inBody {
				begin()
			}
			body := strings.TrimSpace(s[1 : len(s)-1])
			key, val, ok := strings.Cut(body, " ")
			if !ok || key == "" {
				return nil, &PGNError{line, fmt.Errorf("malformed tag %q", s)}
			}
			val = strings.TrimSpace(val)
			val = strings.TrimSuffix(strings.TrimPrefix(val, "\""), "\"")
			cur.Tags[key] = val
			if key == "Result" && gameStates[val] {
				cur.Result = val
			}
		default:
			if cur == nil {
				begin()
			}
			inBody = true
			if gameStates[s] {
				cur.Result = s
				continue
			}
			move := strings.TrimLeft(s, "0123456789. ")
			if move == "" {
				return nil, &PGNError{line, fmt.Errorf("move number %q without a move", s)}
			}
			cur.Moves = append(cur.Moves, move)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &PGNError{line, err}
	}
	return games, nil
}
