package main

// The protocols the arbiter's players may speak: each registers itself with package arbiter.
import (
	_ "hivearbiter/hiveapi"   // proto=hiveapi, the Hive API v0.1.0 of AI modules
	_ "hivearbiter/uhpplayer" // proto=uhp, the default
)
