package gamestring

import (
	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
)

var _ compliance.PlayChecked = Protocol{}

// PlayRows implements compliance.PlayChecked: a bot is judged by play alone (the model keeps no
// state to query), and these are the rows of its check (package arbiter/check plays them): the
// settings, the greeting (a line with the player's name, before anything else), a first move
// within the engine's time, games against the referee from random openings of Base and
// Base+MLP, each colour in turn, in which every answer must be a legal MoveString (an illegal
// or malformed one fails its game, quoted), and a clean exit at the end of its input.
func (Protocol) PlayRows(e driver.EngineConfig) compliance.PlayerRows {
	rows := compliance.PlayerRows{
		Settings:       "settings",
		SettingsDetail: "validmoves unset: the player is sent GameStrings alone, and keeps rules of its own",
		Greeting:       "greeting: its name, before anything else",
		Close:          "exits at the end of its input",
	}
	if v, _ := validMovesOf(e); v {
		rows.SettingsDetail = "validmoves=true: each GameString that asks for a move follows the legal moves"
	}
	if e.Addr != "" {
		rows.Close = "leaves when its connection ends"
	}
	return rows
}
