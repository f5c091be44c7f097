package hivebot

import (
	"context"
	"io"
	"os"
	"os/signal"

	"hivearbiter/enginekit/uhpserver"
)

// Serve talks with a client for engine on stdin and stdout, in UHP, or in UGI when the first
// command is "ugi", until "exit" ("quit" in UGI), the end of input or ctx's end. Ctrl-C
// (SIGINT) stops a running bestmove or perft, which then answers at once, as in Mzinga,
// rather than ending the engine. The command line that sets the engine up is
// cmd/hivebot/hivebotcmd's.
func Serve(ctx context.Context, engine *Engine, stdin io.Reader, stdout io.Writer) error {
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	// In UGI mode the interrupts reach no search: UGI stops one with "stop".
	server := uhpserver.NewServer(engine, uhpserver.WithInterrupts(interrupts))
	return serve(ctx, engine, server, stdin, stdout)
}
