package outcome

import (
	"encoding/json"
	"testing"
)

// TestIsFault: the ends that play gives are no fault; every other end is a player's.
func TestIsFault(t *testing.T) {
	for _, tc := range []struct {
		reason Reason
		fault  bool
	}{
		{ReasonQueenSurrounded, false},
		{ReasonRepetition, false},
		{ReasonMoveLimit, false},
		{ReasonForfeit, false},
		{ReasonIllegalMove, true},
		{ReasonIllegalPass, true},
		{ReasonTimeForfeit, true},
		{ReasonCrash, true},
		{ReasonStall, true},
		{ReasonProtocol, true},
		{ReasonDesync, true},
		{ReasonFalseClaim, true},
	} {
		if got := tc.reason.IsFault(); got != tc.fault {
			t.Errorf("%s.IsFault() = %v, want %v", tc.reason, got, tc.fault)
		}
	}
}

// TestWarningJSON: a warning reads back as written, and the bare text of an older record
// reads as a warning about no side.
func TestWarningJSON(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Warning
	}{
		{`"White (dev): rounded budget"`, Warning{Text: "White (dev): rounded budget"}},
		{`{"side":"Black","engine":"x","text":"late","kind":"near-margin"}`,
			Warning{Side: "Black", Engine: "x", Text: "late", Kind: WarningNearMargin}},
	} {
		var got Warning
		if err := json.Unmarshal([]byte(tc.in), &got); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if got != tc.want {
			t.Errorf("%s read as %+v, want %+v", tc.in, got, tc.want)
		}
		out, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		var again Warning
		if err := json.Unmarshal(out, &again); err != nil || again != got {
			t.Errorf("%s written as %s, read back as %+v (%v)", tc.in, out, again, err)
		}
	}
	if err := json.Unmarshal([]byte(`{"text":`), new(Warning)); err == nil {
		t.Error("a cut-off warning read without an error")
	}
}
