package tune

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"

	"hivearbiter/results"
)

// Header is the first line of a tune's records: what the tune is, so that a file of another
// tune is not resumed.
type Header struct {
	Engine     string  `json:"engine"`
	Params     []Param `json:"params"`
	Seed       int64   `json:"seed"`
	Iterations int     `json:"iterations"`
	A          float64 `json:"a_warmup"`
	Alpha      float64 `json:"alpha"`
	Gamma      float64 `json:"gamma"`
	// Games says how the pairs are played: the limit, game type, openings and move limit.
	Games string `json:"games"`
}

// Game is one game of a pair, from the tune's point of view.
type Game struct {
	PlusWhite bool    `json:"plus_white"`
	Result    string  `json:"result"` // the GameStateString, as in results.Record
	Reason    string  `json:"reason"`
	Plies     int     `json:"plies"`
	PlusScore float64 `json:"plus_score"`
}

// Record is one finished game pair: its perturbation, its games, its result and theta before
// and after the update it made.
type Record struct {
	Perturbation
	Opening string    `json:"opening"`
	Games   []Game    `json:"games"`
	Result  int       `json:"result"` // wins - losses of the plus side
	Before  []float64 `json:"before"`
	After   []float64 `json:"after"`
}

// line is one line of the records file: the header or a pair.
type line struct {
	Tune *Header `json:"tune,omitempty"`
	*Record
}

// RecordsError reports a records file that cannot be resumed.
type RecordsError struct {
	File string
	Line int // 0 for the file as a whole
	Err  error
}

// Error names the file and line, when there is one, and the problem; a records file's own error
// names its file itself.
func (e *RecordsError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("tune: %s:%d: %v", e.File, e.Line, e.Err)
	}
	if m, ok := e.Err.(interface{ Message() string }); ok {
		return "tune: " + m.Message() // results' errors name the file themselves
	}
	return fmt.Sprintf("tune: %s: %v", e.File, e.Err)
}

// Unwrap returns the problem, for errors.Is and errors.As.
func (e *RecordsError) Unwrap() error { return e.Err }

// ReadRecords reads a tune's records file. A last line without its line end (a write cut short
// by a kill, or under way) is left out and its length returned as torn.
func ReadRecords(file string) (h *Header, recs []Record, torn int, err error) {
	r := recordsReader{file: file}
	damage, err := results.ReadLines(file, r.line)
	if err != nil {
		return nil, nil, 0, r.wrap(err)
	}
	return r.h, r.recs, int(damage.CutTail), nil
}

// recordsReader takes a tune's records a line at a time: the header on the first line, the
// pairs of its parameters on the others.
type recordsReader struct {
	file string
	h    *Header
	recs []Record
}

// line takes line n (from 1), as results.ReadLines and results.OpenLines hand it on.
func (r *recordsReader) line(n int, text []byte) error {
	var l line
	if err := json.Unmarshal(text, &l); err != nil {
		return &RecordsError{File: r.file, Line: n, Err: err}
	}
	switch {
	case n == 1 && l.Tune != nil:
		r.h = l.Tune
	case n > 1 && l.Tune == nil && l.Record != nil && len(l.After) == len(r.h.Params):
		r.recs = append(r.recs, *l.Record)
	default:
		return &RecordsError{File: r.file, Line: n, Err: errors.New("not a tune's record: the first line is the tune's header, the others its game pairs")}
	}
	return nil
}

// wrap is err as a *RecordsError: its own, or results' (the file cannot be opened, read or
// written, or another run writes it) wrapped.
func (r *recordsReader) wrap(err error) error {
	var re *RecordsError
	if errors.As(err, &re) {
		return err
	}
	return &RecordsError{File: r.file, Err: err}
}

// sameTune says how a records file's header differs from this tune's, "" if it does not.
func (h *Header) sameTune(want *Header) string {
	if h == nil {
		return "it has no header"
	}
	if !reflect.DeepEqual(h, want) {
		got, _ := json.Marshal(h)
		wanted, _ := json.Marshal(want)
		return fmt.Sprintf("it holds the tune %s, not %s", got, wanted)
	}
	return ""
}

// IsRecords reports whether file starts as a tune's records file does, with the tune's
// header, so that a command given records can tell a tune's from a match's games.
func IsRecords(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(`{"tune":`))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == `{"tune":`
}
