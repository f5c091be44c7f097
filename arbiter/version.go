package arbiter

// Version is the arbiter's version, written into every record. It is a variable so that a
// release build can stamp it: go build -ldflags "-X hivearbiter/arbiter.Version=0.2.0"
// (internal/cmd/release does).
var Version = "0.1.0"
