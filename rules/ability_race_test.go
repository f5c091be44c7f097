//go:build race

package rules_test

// abilityPositions is fewer under the race detector, which slows move generation tenfold.
const abilityPositions = 300
