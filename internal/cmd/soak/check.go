//go:build linux

package main

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/distributed"
	"hivearbiter/results"
)

// audit is what the records file says of a finished soak.
type audit struct {
	Scheduled  int
	Recorded   int            // records read
	Missing    []int          // game indexes with no record
	Duplicated []int          // game indexes with more than one
	Invalid    []string       // records the referee rejects
	Endings    map[string]int // "reason culprit-engine" (or "reason" for a rules ending)
	// HealthyTimeLosses and HealthyFaults are the records in which a healthy engine lost on
	// time, or by any fault of its own.
	HealthyTimeLosses []string
	HealthyFaults     []string
}

// ok reports whether the records pass: every game once, each one valid, no healthy engine at
// fault.
func (a *audit) ok() bool {
	return a.Recorded == a.Scheduled && len(a.Missing) == 0 && len(a.Duplicated) == 0 &&
		len(a.Invalid) == 0 && len(a.HealthyTimeLosses) == 0 && len(a.HealthyFaults) == 0
}

// auditRecords checks recs against a schedule of n games: each index once, each record
// replayed through the referee as a coordinator replays a worker's (distributed.Recheck).
func auditRecords(recs []results.Record, n int, adj arbiter.Adjudication) *audit {
	a := &audit{Scheduled: n, Recorded: len(recs), Endings: make(map[string]int)}
	seen := make(map[int]int)
	run := ""
	for i := range recs {
		r := &recs[i]
		seen[r.Game]++
		if run == "" {
			run = r.Run
		}
		if r.Run != run {
			a.Invalid = append(a.Invalid, fmt.Sprintf("game %d: run %s, the others' is %s", r.Game+1, r.Run, run))
		}
		if r.Game < 0 || r.Game >= n {
			a.Invalid = append(a.Invalid, fmt.Sprintf("game %d: outside the schedule of %d games", r.Game+1, n))
		}
		if err := distributed.Recheck(r, adj); err != nil {
			a.Invalid = append(a.Invalid, err.Error())
		}
		culprit := culpritName(r)
		key := string(r.Reason)
		if culprit != "" {
			key += " " + culprit
		}
		a.Endings[key]++
		if healthy[culprit] && r.Reason.IsFault() {
			line := fmt.Sprintf("game %d: %s by %s: %s", r.Game+1, r.Reason, culprit, r.Detail)
			a.HealthyFaults = append(a.HealthyFaults, line)
			if r.Reason == results.ReasonTimeForfeit {
				a.HealthyTimeLosses = append(a.HealthyTimeLosses, line)
			}
		}
	}
	for g := range n {
		switch seen[g] {
		case 0:
			a.Missing = append(a.Missing, g)
		case 1:
		default:
			a.Duplicated = append(a.Duplicated, g)
		}
	}
	return a
}

// culpritName is the name of the engine at fault in r, or "".
func culpritName(r *results.Record) string {
	switch r.Culprit {
	case "White":
		return r.White.Name
	case "Black":
		return r.Black.Name
	}
	return ""
}

// countFaults counts the lines of a uhpfake fault log by the fault's name.
func countFaults(path string) (map[string]int, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return map[string]int{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("soak: %w", err)
	}
	defer f.Close()
	counts := make(map[string]int)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, _, ok := strings.Cut(sc.Text(), " "); ok {
			counts[name]++
		}
	}
	return counts, sc.Err()
}

// sortedCounts writes counts as "name n, name n" in order of name.
func sortedCounts(counts map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// countLines counts the lines of a file that begin with prefix.
func countLines(path, prefix string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("soak: %w", err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), prefix) {
			n++
		}
	}
	return n, sc.Err()
}
