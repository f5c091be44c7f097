package results

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"hivearbiter/elo"
)

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
