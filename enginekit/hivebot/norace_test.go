//go:build !race

package hivebot

const raceEnabled = false
