// Package syncbuf is text that several goroutines write at once. A Buffer may be written and
// read at once: the console a tournament or coordinator prints to while a test reads it, or the
// output of a child process copied in by exec while the test polls it. A Printer serializes the
// lines that a server's, coordinator's or worker's goroutines print to its console.
package syncbuf
