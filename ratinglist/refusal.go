package ratinglist

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Refusal is an entrant the list did not let in: its check failed, or it could not start or
// play a game under the list's conditions. It is kept beside the entrant's check report, so
// that a list run again (or resumed after a kill) knows it without checking the same program
// again, and the table and the site say why the entrant is not rated.
type Refusal struct {
	Entrant string `json:"entrant"` // the entrant's player name
	// List is the list's ID when the entrant was refused: a refusal under other conditions
	// does not hold.
	List string `json:"list"`
	// Program is the hash of the program refused (Identify): a changed program is checked
	// again.
	Program string `json:"program,omitempty"`
	Reason  string `json:"reason"`
	// Report is the file of the check report, the failure that refused it included.
	Report string `json:"report"`
}

// refusalPath is where an entrant's refusal is kept: beside its check report.
func (l *List) refusalPath(e Entrant) string {
	return strings.TrimSuffix(l.CheckReport(e), ".txt") + ".refused.json"
}

// failedReport is where the check report of a refused entrant is kept.
func (l *List) failedReport(e Entrant) string {
	return strings.TrimSuffix(l.CheckReport(e), ".txt") + ".failed.txt"
}

// Refusals reads the refusals kept in the list's checks folder that hold, by player name: under
// the list's conditions, and of the entrant's program as it is now, where it is known
// (IdentifyAll): a program changed since is entered again. A list without a checks folder has
// none.
func (l *List) Refusals() (map[string]Refusal, error) {
	out := map[string]Refusal{}
	if l.Checks == "" {
		return out, nil
	}
	id := l.ID()
	for _, e := range l.Entrants {
		path := l.refusalPath(e)
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("ratinglist: %w", err)
		}
		var r Refusal
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, &Error{fmt.Sprintf("%s: not a refusal the list wrote (%v): remove it, and the entrant is checked again", path, err)}
		}
		if r.List == id && r.Entrant == e.Player() && (e.Engine.Program == "" || r.Program == e.Engine.Program) {
			out[e.Player()] = r
		}
	}
	return out, nil
}

// Refuse keeps an entrant's refusal, why and its report, in the list's checks folder,
// replacing any refusal kept before and the report of a check it passed: it enters again by a
// check. A list run refuses entrants itself; Refuse is for a keeper of its own.
func (l *List) Refuse(e Entrant, reason, report string) (*RefusedError, error) {
	if err := os.MkdirAll(l.Checks, 0o755); err != nil {
		return nil, fmt.Errorf("ratinglist: %w", err)
	}
	if err := os.Remove(l.CheckReport(e)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("ratinglist: %w", err)
	}
	r := Refusal{Entrant: e.Player(), List: l.ID(), Program: e.Engine.Program, Reason: reason, Report: l.failedReport(e)}
	if err := os.WriteFile(r.Report, []byte(report), 0o644); err != nil {
		return nil, fmt.Errorf("ratinglist: %w", err)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("ratinglist: %w", err)
	}
	if err := writeAtomic(l.refusalPath(e), append(b, '\n')); err != nil {
		return nil, err
	}
	return r.err(), nil
}

// admit forgets an entrant's refusal: it passed its check.
func (l *List) admit(e Entrant) error {
	if err := os.Remove(l.refusalPath(e)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("ratinglist: %w", err)
	}
	return nil
}

func (r Refusal) err() *RefusedError {
	return &RefusedError{Entrant: r.Entrant, Reason: r.Reason, Report: r.Report}
}

// writeAtomic writes a file whole under a temporary name and renames it, so that a run killed
// while writing it leaves the old file or the new one, never half of one.
func writeAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("ratinglist: %w", err)
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("ratinglist: %w", err)
	}
	return nil
}
