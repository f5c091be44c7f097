// Package ugiclient talks to an engine that speaks the Universal Game Interface (UGI, the
// UCI-like protocol of the cutegames runner) for Hive: the handshake, one command at a time,
// searches that a stop or a watchdog ends, queries, and the notation of Hive over UGI (a move
// as one token, positions, info lines, options, results). It is the UGI counterpart of
// uhpclient and knows nothing of the arbiter; proto/ugi puts it behind the arbiter's player
// seam, where the protocol's conventions are described.
package ugiclient
