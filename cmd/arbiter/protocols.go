package main

// The protocols the arbiter's players may speak: each registers itself with package arbiter.
import (
	_ "hivearbiter/proto/gamestring" // proto=gamestring, the one-engine model
	_ "hivearbiter/proto/hiveapi"    // proto=hiveapi, the Hive API v0.1.0 of AI modules
	_ "hivearbiter/proto/ugi"        // proto=ugi
	_ "hivearbiter/proto/uhp"        // proto=uhp, the default
)
