//go:build !race

package hiveapi

const raceEnabled = false
