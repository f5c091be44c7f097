package results

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"hivearbiter/elo"
)

// WriteFieldRatings writes the field table of three or more players and their
// maximum-likelihood ratings, or why there are none; running says that the run goes on (the
// ratings may come with more games).
func WriteFieldRatings(w io.Writer, t *Tally, running bool) error {
	if err := WriteFieldTable(w, t); err != nil {
		return err
	}
	r, err := FitRatings(t)
	var re *RatingsError
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

// SeparatePlayers renames the players of an engine name that stands for more than one player
// in recs, so that they are rated apart, and says so, a line for each name and way: a name
// that plays under several time controls becomes "NAME [TC]", one whose games are of several
// game types "NAME [GAMETYPE]", and one that is several programs by the id each gave and the
// program recorded of it, when the run knew it (another engine entered under a name already
// used, or a new build of it), "NAME [id HASH]", where the line maps each HASH, the start of
// the SHA-256 of the id and program, to them. An empty time control or game type, or a player
// with neither id nor program (an older record's), tells no players apart.
func SeparatePlayers(recs []Record) []string {
	type ways struct{ times, gameTypes, ids map[string]bool }
	byName := map[string]*ways{}
	for _, r := range recs {
		for _, p := range []Player{r.White, r.Black} {
			w := byName[p.Name]
			if w == nil {
				w = &ways{map[string]bool{}, map[string]bool{}, map[string]bool{}}
				byName[p.Name] = w
			}
			w.times[p.Time] = true
			if r.GameType != "" {
				w.gameTypes[r.GameType] = true
			}
			if id := identity(p); id != "" {
				w.ids[id] = true
			}
		}
	}
	var lines []string
	hashes := map[string]map[string]string{} // by name, by id
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		w := byName[name]
		if len(w.times) > 1 {
			lines = append(lines, fmt.Sprintf("engine %s plays under %d time controls (%s): rated apart as \"%s [TC]\"; -merge-names rates it as one player",
				name, len(w.times), strings.Join(slices.Sorted(maps.Keys(w.times)), ", "), name))
		}
		if len(w.gameTypes) > 1 {
			lines = append(lines, fmt.Sprintf("engine %s plays games of %d game types (%s): rated apart as \"%s [GAMETYPE]\"; -merge-names rates it as one player",
				name, len(w.gameTypes), strings.Join(slices.Sorted(maps.Keys(w.gameTypes)), ", "), name))
		}
		if len(w.ids) > 1 {
			ids := slices.Sorted(maps.Keys(w.ids))
			hashes[name] = idHashes(ids)
			named := make([]string, len(ids))
			by := "the id each gave"
			for i, id := range ids {
				named[i] = fmt.Sprintf("%s is %s", hashes[name][id], identityText(id))
				if strings.Contains(id, "\x00") {
					by = "the id each gave and the program recorded of it"
				}
			}
			lines = append(lines, fmt.Sprintf("engine %s is %d programs by %s (%s): rated apart as \"%s [id HASH]\"; if they are one engine, -merge-names rates it as one player",
				name, len(ids), by, strings.Join(named, ", "), name))
		}
	}
	for i := range recs {
		r := &recs[i]
		for _, p := range []*Player{&r.White, &r.Black} {
			w, name := byName[p.Name], p.Name
			if len(w.times) > 1 {
				p.Name += fmt.Sprintf(" [%s]", p.Time)
			}
			if len(w.gameTypes) > 1 && r.GameType != "" {
				p.Name += fmt.Sprintf(" [%s]", r.GameType)
			}
			if h, ok := hashes[name][identity(*p)]; ok {
				p.Name += fmt.Sprintf(" [id %s]", h)
			}
		}
	}
	return lines
}

// identity is what tells the programs of one engine name apart: the id the engine gave and the
// program recorded of it, "" when neither is known.
func identity(p Player) string {
	if p.Program == "" {
		return p.ID
	}
	return p.ID + "\x00" + p.Program
}

// identityText says an identity to a person: the id quoted, and the start of the program.
func identityText(identity string) string {
	id, program, _ := strings.Cut(identity, "\x00")
	text := strconv.Quote(id)
	if program != "" {
		text += " (program " + program[:min(len(program), 12)] + ")"
	}
	return text
}

// idHashes names each id by the shortest start of its SHA-256 in hex, 4 digits or more, that
// tells all of ids apart.
func idHashes(ids []string) map[string]string {
	sums := make([]string, len(ids))
	for i, id := range ids {
		sum := sha256.Sum256([]byte(id))
		sums[i] = hex.EncodeToString(sum[:])
	}
	for n := 4; ; n += 2 {
		seen := map[string]bool{}
		for _, s := range sums {
			seen[s[:n]] = true
		}
		if len(seen) == len(ids) || n == len(sums[0]) {
			out := make(map[string]string, len(ids))
			for i, id := range ids {
				out[id] = sums[i][:n]
			}
			return out
		}
	}
}

// WarningCounts says how many warnings (anomalies that decided no game) the records hold of
// each engine, "" if none. A warning of an older record, which does not say its engine, is
// not counted.
func WarningCounts(recs []Record) string {
	counts := map[string]int{}
	for _, r := range recs {
		for _, w := range r.Warnings {
			if w.Engine != "" {
				counts[w.Engine]++
			}
		}
	}
	if len(counts) == 0 {
		return ""
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", name, counts[name]))
	}
	return "Warnings in the records (anomalies that decided no game): " + strings.Join(parts, ", ")
}

// NewSPRTSummary summarizes an SPRT at an LLR computed from pairs game pairs.
func NewSPRTSummary(test elo.SPRT, llr float64, pairs int) *SPRTSummary {
	lower, upper := test.Bounds()
	return &SPRTSummary{Elo0: test.Elo0, Elo1: test.Elo1, Alpha: test.Alpha, Beta: test.Beta, Model: test.Model.String(),
		LLR: llr, Lower: lower, Upper: upper, Decision: test.Status(llr).String(), Pairs: pairs}
}

// WriteFile writes the summary to a file atomically: a reader never sees half a file. The
// temporary file has a name of its own, so two runs writing one summary do not mix theirs.
func (s *Summary) WriteFile(path string) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	if err := s.Write(f); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil { // CreateTemp makes it private
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}

// StatsOptions say what WriteStats writes besides the tables.
type StatsOptions struct {
	Files int       // the number of files the records come from
	SPRT  *elo.SPRT // a test of the first engine against the second, for two engines
	// SPRTFromRecords marks SPRT as the one the records carry (RecordsTest), not one asked
	// for: records of more than two engines are then tabled without it, not refused.
	SPRTFromRecords bool
	// MaxPairs is the run's cap in game pairs (Test.MaxPairs), at which SPRT decides by its
	// final threshold as the run did; 0 when not known.
	MaxPairs int
	Time     bool // each engine's time per move, overruns within the margin and faults
	// MergeNames rates an engine name as one player, whatever the time controls, game types
	// and programs (by their ids) it stands for.
	MergeNames bool
}

// StatsError is records that cannot give the tables asked for.
type StatsError struct {
	Msg string // the reason, without the package's name
}

func (e *StatsError) Error() string { return "results: " + e.Msg }

// Message is the error without the package's name.
func (e *StatsError) Message() string { return e.Msg }

// WriteStats writes every table of records, as arbiter stats prints them: the result block of
// two engines (with the SPRT's line), or the field table, ratings and cross table of more, the
// engines' faults, warnings of what the tables merge, and with opts.Time the time table. It returns
// the records' summary. Unless opts.MergeNames, it renames the players of an engine name that
// stands for several players (SeparatePlayers).
func WriteStats(w io.Writer, recs []Record, opts StatsOptions) (*Summary, error) {
	warnings := WarningCounts(recs) // by the engines' own names
	if !opts.MergeNames {
		for _, line := range SeparatePlayers(recs) {
			fmt.Fprintln(w, "Warning:", line)
		}
	}
	tally := NewTally(recs, nil)
	fmt.Fprintf(w, "%d games from %d file(s)\n", len(recs), opts.Files)
	if len(tally.Runs) > 1 {
		fmt.Fprintf(w, "Warning: the records come from %d different runs (%s), merged into one table: the shards and resumes of one run share its id, other runs may differ in any setting\n",
			len(tally.Runs), strings.Join(tally.Runs, ", "))
	}
	if warnings != "" {
		fmt.Fprintln(w, warnings)
	}
	var sprt *SPRTSummary
	switch {
	case len(tally.Players) == 2:
		pairing := tally.Pairing(tally.Players[0].Name, tally.Players[1].Name)
		var line *SPRTLine
		if test := opts.SPRT; test != nil {
			ptnml := pairing.Pairs.Pentanomial()
			llr := test.LLR(ptnml)
			lower, upper := test.Bounds()
			line = &SPRTLine{LLR: llr, Lower: lower, Upper: upper, Elo0: test.Elo0, Elo1: test.Elo1}
			sprt = NewSPRTSummary(*test, llr, ptnml.Pairs())
			if c := test.Conclude(ptnml, opts.MaxPairs); c.AtCap {
				threshold := c.Threshold
				sprt.Decision, sprt.DecidedAtCap, sprt.Threshold = c.Decision.String(), true, &threshold
			}
		}
		WriteMatchBlock(w, pairing, MatchInfo{SPRT: line})
	case opts.SPRT != nil && !opts.SPRTFromRecords:
		return nil, &StatsError{fmt.Sprintf("an SPRT compares 2 engines; the records hold %d", len(tally.Players))}
	default:
		if err := WriteFieldRatings(w, tally, false); err != nil {
			return nil, err
		}
		if err := WriteCrossTable(w, tally.CrossTable()); err != nil {
			return nil, err
		}
	}
	if err := WriteFaults(w, tally); err != nil {
		return nil, err
	}
	if opts.Time {
		if err := WriteTimeTable(w, NewTimings(recs, tally.Names())); err != nil {
			return nil, err
		}
	}
	return NewSummary("records", tally, sprt), nil
}

// WriteSPRTVerdict writes what the SPRT test of records (their Summary, of WriteStats) decided,
// in the words of a match's last lines, and what that says of the engines; it returns the
// decision.
func WriteSPRTVerdict(w io.Writer, test elo.SPRT, s *Summary) elo.Decision {
	d := test.Status(s.SPRT.LLR)
	verdict := sprtVerdict(test, d, s.SPRT.Pairs)
	if s.SPRT.DecidedAtCap && s.SPRT.Threshold != nil {
		d = elo.AcceptH0
		if s.SPRT.Decision == elo.AcceptH1.String() {
			d = elo.AcceptH1
		}
		verdict = sprtVerdict(test, d, s.SPRT.Pairs) + fmt.Sprintf(" at its cap (LLR %.2f against the final threshold %.2f)", s.SPRT.LLR, *s.SPRT.Threshold)
	}
	fmt.Fprintln(w, verdict)
	if len(s.Pairings) > 0 {
		fmt.Fprintln(w, SPRTConclusion(test, d, s.Pairings[0].First, s.Pairings[0].Second))
	}
	return d
}

// sprtVerdict is the line that says what an SPRT of records decided.
func sprtVerdict(test elo.SPRT, d elo.Decision, pairs int) string {
	verdict := "has no decision yet"
	switch d {
	case elo.AcceptH1:
		verdict = "completed - H1 was accepted"
	case elo.AcceptH0:
		verdict = "completed - H0 was accepted"
	}
	return fmt.Sprintf("SPRT ([%.2f, %.2f], %s) %s after %d game pairs", test.Elo0, test.Elo1, test.Model, verdict, pairs)
}
