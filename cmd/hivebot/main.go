// Command hivebot is the reference Hive engine, a UHP engine on standard input and output.
// See package hivearbiter/hivebot.
package main

import (
	"context"
	"os"

	"hivearbiter/enginekit/hivebot"
)

func main() {
	os.Exit(hivebot.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
