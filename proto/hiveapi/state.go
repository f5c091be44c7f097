package hiveapi

// GameState is the API's game_state: everything a module is told about a game, with the
// turns it may choose from enumerated in PossibleTurns.
type GameState struct {
	Board              Board                     `json:"board"`
	Hands              map[string]map[string]int `json:"hands"` // by colour, then piece type; zero counts left out
	PlayerTurn         string                    `json:"player_turn"`
	TurnNumber         int                       `json:"turn_number"` // plies played, passes included
	GameOver           bool                      `json:"game_over"`
	Winner             *string                   `json:"winner"` // null unless one side won
	IsDraw             bool                      `json:"is_draw"`
	CreationParameters CreationParameters        `json:"creation_parameters"`
	TurnHistory        []Turn                    `json:"turn_history"`
	PossibleTurns      PossibleTurns             `json:"possible_turns"`
}

// Board is the pieces in play: each occupied point's stack, bottom first.
type Board struct {
	Pieces map[string][]Piece `json:"pieces"`
}

// Piece is a piece as the API names it.
type Piece struct {
	Color string `json:"color"`
	Type  string `json:"type"`
}

// CreationParameters are the expansions in play.
type CreationParameters struct {
	UseMosquito bool `json:"use_mosquito"`
	UseLadybug  bool `json:"use_ladybug"`
	UsePillbug  bool `json:"use_pillbug"`
}

// Turn is one turn of the API: a turn of the history, or a module's choice. Which fields
// mean something depends on TurnType: Placement has PieceType and Destination, Movement
// Source and Destination, Special Ability AbilityUser, Source and Destination, and Forfeit
// (a pass) none.
type Turn struct {
	TurnType    string `json:"turn_type"`
	PieceType   string `json:"piece_type,omitempty"`
	AbilityUser string `json:"ability_user,omitempty"`
	Source      string `json:"source,omitempty"`
	Destination string `json:"destination,omitempty"`
}

// PossibleTurns enumerates every legal turn. Empty categories are left out; Forfeit is set
// only when nothing else is legal.
type PossibleTurns struct {
	Placement *Placements `json:"Placement,omitempty"`
	// Movement lists each movable piece's point and the points it may move to.
	Movement map[string][]string `json:"Movement,omitempty"`
	// SpecialAbility lists, by the point of a pillbug (or of a mosquito copying one), the
	// points of the pieces it may throw and where each may land.
	SpecialAbility map[string]map[string][]string `json:"Special Ability,omitempty"`
	Forfeit        bool                           `json:"Forfeit,omitempty"`
}

// Placements are the placements allowed: any of the piece types on any of the positions.
type Placements struct {
	PieceTypes []string `json:"piece_types"`
	Positions  []string `json:"positions"`
}
