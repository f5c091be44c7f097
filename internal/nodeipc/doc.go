// Package nodeipc makes the channel Node's child_process.fork gives a child, so that the
// arbiter can start a Node program as fork would and talk to it with process.send and
// process.on("message"): a connected pair of Unix stream sockets, the child's end passed as
// its file descriptor 3, and JSON messages one per line. It is a transport, and knows no
// protocol: package proto/hiveapi speaks the Hive API over it.
package nodeipc
