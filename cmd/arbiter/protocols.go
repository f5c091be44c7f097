package main

// The protocols the arbiter's players may speak: each registers itself with package arbiter.
import (
	_ "hivearbiter/gamestringplayer" // proto=gamestring, the one-engine model
	_ "hivearbiter/hiveapi"          // proto=hiveapi, the Hive API v0.1.0 of AI modules
	_ "hivearbiter/ugiplayer"        // proto=ugi
	_ "hivearbiter/uhpplayer"        // proto=uhp, the default
)
