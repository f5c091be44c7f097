// Package syncbuf is a text buffer that several goroutines may write and read at once: the
// console a tournament or coordinator prints to while a test reads it, or the output of a
// child process copied in by exec while the test polls it.
package syncbuf
