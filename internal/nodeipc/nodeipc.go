package nodeipc

import "bytes"

// Env tells Node that the file the program gets as its descriptor 3 (the first of
// proc.Spec.ExtraFiles) is its parent's channel, and that messages are JSON.
var Env = []string{"NODE_CHANNEL_FD=3", "NODE_CHANNEL_SERIALIZATION_MODE=json"}

// Internal reports whether a message is Node's own (its "NODE_" commands, which manage the
// channel), not the program's.
func Internal(msg []byte) bool { return bytes.HasPrefix(msg, []byte(`{"cmd":"NODE_`)) }
