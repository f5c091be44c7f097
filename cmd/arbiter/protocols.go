package main

// The protocols the arbiter's players may speak: each registers itself with package arbiter.
import (
	_ "hivearbiter/uhpplayer" // proto=uhp, the default
)
