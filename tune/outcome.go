package tune

import (
	"fmt"
	"io"
)

// WriteOutcome prints where a tune ended: the values as option words and as a TOML line, or,
// for a tune stopped early, how to resume it.
func WriteOutcome(w io.Writer, out *Outcome, cfg Config) {
	fmt.Fprintf(w, "Tune of %s: %d of %d game pairs (plus side +%d =%d -%d)\n", engineName(cfg.Engine), out.Pairs, cfg.Gains.Iterations, out.Wins, out.Draws, out.Losses)
	if out.Pairs < cfg.Gains.Iterations {
		fmt.Fprintf(w, "Stopped before its end: the values so far are below; run the same command again to resume from %s.\n", cfg.Out)
	}
	fmt.Fprintf(w, "Values: %s\n", Words(out.Params, out.Theta))
	fmt.Fprintf(w, "In a configuration file, the tuned options of the engine's [[engine]]:\n  %s\n", TOML(out.Params, out.Theta))
}
