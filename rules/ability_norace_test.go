//go:build !race

package rules_test

const abilityPositions = 4000
