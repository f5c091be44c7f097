// Command hivebot is the reference Hive engine, a UHP engine on standard input and output.
// See package hivearbiter/enginekit/hivebot; its command line is internal/hivebotcmd.
package main

import (
	"context"
	"os"

	"hivearbiter/internal/hivebotcmd"
)

func main() {
	os.Exit(hivebotcmd.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
