package distributed

import (
	"fmt"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// Recheck replays a record through the referee as the coordinator does before it counts a
// worker's result: every move legal, the final GameString the moves' own, and the ending the
// one the rules, the adjudication adj or a fault of the culprit gives. Tools that audit a
// records file (the soak harness) use it, so that a record is judged by one referee.
func Recheck(r *results.Record, adj arbiter.Adjudication) error {
	return replay(r, adj, func(format string, args ...any) error {
		return fmt.Errorf("distributed: game %d: "+format, append([]any{r.Game + 1}, args...)...)
	})
}
