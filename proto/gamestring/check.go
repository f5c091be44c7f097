package gamestring

import (
	"context"

	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
)

// RunChecks implements compliance.Suite, by play alone (the model keeps no state to query): the
// settings, the greeting (a line with the player's name, before anything else), a first move
// within the engine's time, games against the referee from random openings of Base and
// Base+MLP, each colour in turn, in which every answer must be a legal MoveString (an illegal
// or malformed one fails its game, quoted), and a clean exit at the end of its input.
func (p Protocol) RunChecks(ctx context.Context, e driver.EngineConfig, opts compliance.Options) ([]compliance.Result, error) {
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
	return compliance.PlaySuite(ctx, p, e, opts, rows)
}
