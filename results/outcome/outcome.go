package outcome

import "encoding/json"

// Reason says why a game ended. The values are stable: tools may match on them.
type Reason string

// Every way a game can end.
const (
	ReasonQueenSurrounded Reason = "queen-surrounded"   // by the rules: one or both queens surrounded
	ReasonIllegalMove     Reason = "illegal-move"       // the mover's move was unparsable or not legal
	ReasonIllegalPass     Reason = "illegal-pass"       // the mover passed while it had legal moves
	ReasonTimeForfeit     Reason = "time-forfeit"       // the mover's clock fell or it overran its budget
	ReasonCrash           Reason = "crash"              // an engine exited or could not be started
	ReasonStall           Reason = "stall"              // an engine stopped answering a command
	ReasonProtocol        Reason = "protocol-violation" // an engine's output broke UHP
	ReasonDesync          Reason = "desync"             // an engine's game differs from the referee's
	ReasonFalseClaim      Reason = "false-claim"        // an engine reported a result the rules do not give
	ReasonRepetition      Reason = "repetition"         // arbiter adjudication: the position repeated too often
	ReasonMoveLimit       Reason = "move-limit"         // arbiter adjudication: the game reached the ply limit
	ReasonForfeit         Reason = "forfeit"            // a player resigned the game (UHP 2.0 "play forfeit")
)

// IsFault reports whether the reason is a player's misbehaviour rather than a result of play.
func (r Reason) IsFault() bool {
	switch r {
	case ReasonQueenSurrounded, ReasonRepetition, ReasonMoveLimit, ReasonForfeit:
		return false
	}
	return true
}

// SearchInfo is what an engine reported of its search for one move: the last value of each
// field its "info" lines gave. Scores are from the mover's point of view.
type SearchInfo struct {
	Depth  int      `json:"depth,omitempty"`
	Score  *int     `json:"score_cp,omitempty"` // "score cp N"
	Mate   *int     `json:"mate,omitempty"`     // "score mate N", as the engine counts it
	Nodes  int64    `json:"nodes,omitempty"`
	Millis int64    `json:"time_ms,omitempty"` // the engine's own measure of its search time
	NPS    int64    `json:"nps,omitempty"`
	PV     []string `json:"pv,omitempty"` // MoveStrings in Mzinga's notation
}

// Warning is an anomaly that decided nothing: an engine that disagreed with the referee about
// a result the rules had already given, a time budget it could only be sent rounded, and so
// on. Side and Engine say whose it is, so that it can be counted by engine.
type Warning struct {
	Side   string `json:"side,omitempty"`   // "White" or "Black"; "" for a warning about no side
	Engine string `json:"engine,omitempty"` // the name of that side's engine
	// Text says what happened, for a person, naming the side: "White (dev): its budget ...".
	Text string `json:"text"`
	// Kind names a warning that the console shows once per engine even after the engine's
	// other warnings (WarningNearMargin); "" for any other.
	Kind string `json:"kind,omitempty"`
}

// WarningNearMargin is the Kind of a warning that a move ran late by more than half its
// engine's margin: the engine is about to lose games on time.
const WarningNearMargin = "near-margin"

// String returns the Warning as it is written in text.
func (w Warning) String() string { return w.Text }

// UnmarshalJSON reads a warning, or the text alone, as older records hold it (whose side and
// engine are then unknown).
func (w *Warning) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		*w = Warning{}
		return json.Unmarshal(b, &w.Text)
	}
	type plain Warning // without this method
	return json.Unmarshal(b, (*plain)(w))
}
