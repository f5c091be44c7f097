package uhp

import (
	"errors"

	"hivearbiter/arbiter/driver"
	"hivearbiter/uhpclient"
)

// diagnose gives a UHP client's error the diagnosis of the table (driver.Diagnoses) that
// explains it, when one does: what the client saw is the evidence, the table says the cause
// and the fix. A match, the check before its first game and "arbiter check" all pass their
// engine's errors through here, so that they say the same of one fault. search says the
// error ended a bestmove: silence there is an overrun; elsewhere nothing received, unless the
// engine had answered a command before (its output is flushed, then).
func diagnose(err error, search bool) error {
	if err == nil {
		return nil
	}
	if id := diagnosisOf(err, search); id != "" {
		return driver.Diagnose(id, err)
	}
	return err
}

// diagnosisOf is the ID of the diagnosis that explains err, or "".
func diagnosisOf(err error, search bool) string {
	if pe, ok := errors.AsType[*uhpclient.ProtocolError](err); ok {
		switch pe.Fault {
		case uhpclient.MissingOK:
			return driver.DiagnosisMissingOK
		case uhpclient.BannerOnInfo:
			return driver.DiagnosisBannerOnInfo
		case uhpclient.NotAMoveString:
			return driver.DiagnosisMoveNotation
		}
		return ""
	}
	if te, ok := errors.AsType[*uhpclient.TimeoutError](err); ok {
		switch {
		case te.Partial != "":
			return driver.DiagnosisNoNewline
		case len(te.Lines) > 0:
			return ""
		case search:
			return driver.DiagnosisOverrun
		case te.Replied:
			// It answered other commands before this one (a slow bench, a hung command):
			// its output reaches the arbiter, so it is no fault of flushing; the error says
			// what it did not answer in how long.
			return ""
		}
		return driver.DiagnosisNoOutput
	}
	if _, ok := errors.AsType[*uhpclient.ExitError](err); ok {
		return driver.DiagnosisCrash
	}
	return ""
}
