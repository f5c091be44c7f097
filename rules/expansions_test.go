package rules

import (
	"slices"
	"testing"
)

func TestParseExpansionsAndMissing(t *testing.T) {
	tests := []struct {
		gameType GameType
		names    []string
		want     []Bug
	}{
		{Base, nil, nil},
		{BaseMLP, []string{"Mosquito", "Ladybug", "Pillbug"}, nil},
		{BaseMLP, []string{"pillbug", " mosquito ", "LADYBUG"}, nil},
		{BaseMLP, []string{"Ladybug"}, []Bug{Mosquito, Pillbug}},
		{BaseP, []string{"Mosquito", "Ladybug"}, []Bug{Pillbug}},
		{BaseML, nil, []Bug{Mosquito, Ladybug}},
		{BaseM, []string{"Spider", "Mosquito;Ladybug"}, []Bug{Mosquito}},
	}
	for _, tt := range tests {
		if got := tt.gameType.Missing(ParseExpansions(tt.names)); !slices.Equal(got, tt.want) {
			t.Errorf("%s with %q: missing %v, want %v", tt.gameType, tt.names, got, tt.want)
		}
	}
	if got := BaseMLP.Expansions(); !slices.Equal(got, []Bug{Mosquito, Ladybug, Pillbug}) {
		t.Errorf("Base+MLP expansions: %v", got)
	}
}
