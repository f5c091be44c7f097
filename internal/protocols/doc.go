// Package protocols links every protocol the arbiter's players may speak, for its side
// effect: each registers itself with the driver package's registry when it is linked
// (database/sql's shape). The arbiter binary imports it, and so starts players by proto= name
// without naming a protocol; no library imports it.
package protocols

import (
	_ "hivearbiter/proto/gamestring" // proto=gamestring, the one-engine model
	_ "hivearbiter/proto/hiveapi"    // proto=hiveapi, the Hive API v0.1.0 of AI modules
	_ "hivearbiter/proto/ugi"        // proto=ugi
	_ "hivearbiter/proto/uhp"        // proto=uhp, the default
)
