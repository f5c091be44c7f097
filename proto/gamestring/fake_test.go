package gamestring_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/cmd/hivebot/hivebotcmd"
	"hivearbiter/internal/proc"
	"hivearbiter/rules"
)

// The test binary doubles as the players under test: with GAMESTRING_FAKE set it runs a bot
// of the one-engine model (see bot), with GAMESTRING_HIVEBOT set it is hivebot, for the mixed
// tournament. GAMESTRING_FAKE_LOG names a file that receives every line the bot is sent.
const (
	fakeEnv    = "GAMESTRING_FAKE"
	fakeLog    = "GAMESTRING_FAKE_LOG"
	hivebotEnv = "GAMESTRING_HIVEBOT"
)

func TestMain(m *testing.M) {
	proc.Main() // on Windows a copy of the test binary is its Ctrl-C sender
	if os.Getenv(hivebotEnv) != "" {
		os.Exit(hivebotcmd.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if scenario := os.Getenv(fakeEnv); scenario != "" {
		var log io.Writer
		if path := os.Getenv(fakeLog); path != "" {
			f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			defer f.Close()
			log = f
		}
		os.Exit(bot(os.Stdin, os.Stdout, scenario, log))
	}
	// Under the race detector every process sleeps a second at exit to let reports through;
	// the fakes this test starts inherit this and exit at once instead.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

// bot is a player of the one-engine model, as simple as the package documentation's: it
// reads lines, remembers its colour from newgame, and answers every GameString that has it to
// move. "first" plays the first legal move in sorted order, "random" a random one, "listed" a
// random one of those the arbiter lists (validmoves=true) without any rules; the other
// scenarios misbehave. It returns its exit code.
func bot(in io.Reader, out io.Writer, scenario string, log io.Writer) int {
	if scenario == "mute" {
		time.Sleep(time.Minute)
	}
	fmt.Fprintln(out, "bot "+scenario)
	rng := rand.New(rand.NewPCG(1, 2))
	colour := ""
	var listed []string
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := sc.Text()
		if log != nil {
			fmt.Fprintln(log, line)
		}
		words := strings.Fields(line)
		if len(words) == 0 || words[0] == "err" || words[0] == "gameover" {
			continue
		}
		if words[0] == "newgame" {
			colour = words[1]
			continue
		}
		if words[0] == "validmoves" {
			listed = strings.Split(strings.TrimPrefix(line, "validmoves "), ";")
			continue
		}
		fields := strings.Split(line, ";")
		if len(fields) < 3 || !strings.HasPrefix(fields[2], colour) || (fields[1] != "NotStarted" && fields[1] != "InProgress") {
			continue
		}
		if scenario == "listed" { // no rules at all: one of the moves the arbiter listed
			fmt.Fprintln(out, listed[rng.IntN(len(listed))])
			continue
		}
		g, err := rules.ParseGameString(line)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		moves := g.ValidMoveStrings()
		slices.Sort(moves)
		move := moves[0]
		switch scenario {
		case "random":
			move = moves[rng.IntN(len(moves))]
		case "illegal":
			move = "wQ"
		case "garbage":
			move = "please make a move for me"
		case "pass": // while it has moves
			move = "pass"
		case "slow": // a second late
			time.Sleep(time.Second)
		case "silent":
			time.Sleep(time.Minute)
		case "crash":
			fmt.Fprintln(os.Stderr, "bot: giving up")
			return 3
		}
		fmt.Fprintln(out, move)
	}
	return 0
}
