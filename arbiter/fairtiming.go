package arbiter

import (
	"slices"
	"strings"
)

// FairOption is the value that fair timing (docs/matches.md) gives an engine's option, and
// why, judged by the option's name and what the engine lists of it: its type, its value, and
// for an enum its values. A thread count is one search thread (NumThreads, Threads), helper
// threads none (Mzinga's MaxHelperThreads); pondering is off (PonderDuringIdle=Disabled); a
// hash table (Hash, TableSizeMiB, TranspositionTableSizeMB) keeps the size it has, written out, so that a gate's two builds think with equal
// memory whatever their defaults. ok is false for any other option, and for one whose fair
// value the engine does not offer.
func FairOption(name, typ, value string, choices []string) (fair, why string, ok bool) {
	lower, typ := strings.ToLower(name), strings.ToLower(typ)
	pick := func(wanted ...string) (string, bool) {
		for _, w := range wanted {
			if i := slices.IndexFunc(choices, func(c string) bool { return strings.EqualFold(c, w) }); i >= 0 {
				return choices[i], true
			}
		}
		return "", false
	}
	switch {
	case strings.Contains(lower, "ponder"):
		why = "no thinking on the opponent's time"
		switch typ {
		case "bool":
			return "false", why, true
		case "enum":
			fair, ok = pick("Disabled", "Off", "None", "false", "No", "Never")
			return fair, why, ok
		}
	case strings.Contains(lower, "thread"):
		switch {
		case strings.Contains(lower, "helper") && typ == "enum":
			fair, ok = pick("None", "0")
			return fair, "no helper threads", ok
		case strings.Contains(lower, "helper") && typ == "int":
			return "0", "no helper threads", true
		case typ == "int":
			return "1", "one search thread", true
		case typ == "enum":
			fair, ok = pick("1")
			return fair, "one search thread", ok
		}
	case (strings.Contains(lower, "hash") || strings.Contains(lower, "table") && (strings.Contains(lower, "size") || strings.Contains(lower, "mb") ||
		strings.Contains(lower, "mib"))) && value != "" && (typ == "int" || typ == "enum"):
		return value, "the table's size written out, the same for every build", true
	}
	return "", "", false
}
