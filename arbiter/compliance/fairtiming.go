package compliance

import (
	"fmt"
	"slices"
	"strings"

	"hivearbiter/arbiter/driver"
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
		case "bool": // as the engine writes its bools: nokamute refuses false for False
			if strings.HasPrefix(value, "T") || strings.HasPrefix(value, "F") {
				return "False", why, true
			}
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

// ListedOption is an engine's option as the engine lists it: its name, its type in UHP's words
// (int, bool, enum, string), its value, and for an enum its values.
type ListedOption struct {
	Name, Type, Value string
	Choices           []string
}

// FairTimingCheck is the name of the check row that says which options fair timing sets.
const FairTimingCheck = "options for fair timing"

// AdviseFairTiming records the check FairTimingCheck: the engine's options that fair timing
// sets (FairOption), as settings of the match line, but for those the engine is checked with.
func (s *Session[E]) AdviseFairTiming(listed []ListedOption, set []driver.EngineOption) {
	var settings, why []string
	for _, o := range listed {
		fair, reason, ok := FairOption(o.Name, o.Type, o.Value, o.Choices)
		if !ok || slices.ContainsFunc(set, func(set driver.EngineOption) bool { return strings.EqualFold(set.Name, o.Name) }) {
			continue
		}
		settings = append(settings, "option."+o.Name+"="+fair)
		why = append(why, fmt.Sprintf("option.%s=%s (%s)", o.Name, fair, reason))
	}
	if len(settings) == 0 {
		s.Pass(FairTimingCheck, "it lists no thread, ponder or hash option to set")
		return
	}
	s.Advise(FairTimingCheck, "fair timing (one search thread, no pondering, the same table for every build) sets "+strings.Join(why, ", "), settings...)
}
