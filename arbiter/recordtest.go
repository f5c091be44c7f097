package arbiter

import "hivearbiter/results"

// recordTest is the test each record of the run carries (results.Record.Test): its SPRT, and
// as its cap the games of its whole schedule (every shard's); nil without an SPRT.
func (t *Tournament) recordTest() *results.Test {
	if t.cfg.SPRT == nil {
		return nil
	}
	return results.NewTest(t.cfg.SPRT.Test(), t.schedule.Len())
}
