// Command hivebot is the reference Hive engine, a UHP engine on standard input and output.
// See package hivearbiter/enginekit/hivebot; its command line is cmd/hivebot/hivebotcmd.
package main

import (
	"context"
	"os"

	"hivearbiter/cmd/hivebot/hivebotcmd"
)

func main() {
	os.Exit(hivebotcmd.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
