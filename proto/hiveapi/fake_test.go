//go:build unix

package hiveapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"sort"
	"strconv"
	"time"

	"hivearbiter/cmd/hivebot/hivebotcmd"
)

// The test binary doubles as the modules under test, as in os/exec's own tests: with
// HIVEAPI_FAKE set it runs fakeModule instead of the tests. HIVEAPI_FAKE_TRANSPORT says how it
// is reached (stdio, ipc through NODE_CHANNEL_FD, or tcp as a server on HIVEAPI_FAKE_ADDR), and
// the scenario how it misbehaves. Scenario "uhp" is not a module but the bundled UHP engine.
const (
	fakeEnv          = "HIVEAPI_FAKE"
	fakeTransportEnv = "HIVEAPI_FAKE_TRANSPORT"
	fakeAddrEnv      = "HIVEAPI_FAKE_ADDR"
)

func fakeMain(scenario string) int {
	if scenario == "uhp" {
		return hivebotcmd.Main(context.Background(), []string{"-profile", "random", "-seed", "7"}, os.Stdin, os.Stdout, os.Stderr)
	}
	var (
		r io.Reader
		w io.Writer
	)
	switch os.Getenv(fakeTransportEnv) {
	case TransportStdio:
		r, w = os.Stdin, os.Stdout
	case TransportIPC:
		fd, err := strconv.Atoi(os.Getenv("NODE_CHANNEL_FD"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "fake module: NODE_CHANNEL_FD:", err)
			return 2
		}
		f := os.NewFile(uintptr(fd), "ipc")
		r, w = f, f
	case TransportTCP:
		if scenario == "never-listens" {
			time.Sleep(time.Minute)
			return 0
		}
		l, err := net.Listen("tcp", os.Getenv(fakeAddrEnv))
		if err != nil {
			fmt.Fprintln(os.Stderr, "fake module:", err)
			return 2
		}
		// A server: each connection served in turn, as long as the module lives.
		for {
			conn, err := l.Accept()
			if err != nil {
				return 2
			}
			if code := fakeModule(scenario, bufio.NewReader(conn), conn, true); code != 0 {
				return code
			}
			conn.Close()
		}
	default:
		fmt.Fprintln(os.Stderr, "fake module: no transport")
		return 2
	}
	return fakeModule(scenario, bufio.NewReader(r), w, false)
}

// fakeModule answers requests as the scenario says. It returns its exit code.
func fakeModule(scenario string, r *bufio.Reader, w io.Writer, frames bool) int {
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), 3))
	send := func(v any) {
		var data []byte
		if s, ok := v.(string); ok {
			data = []byte(s)
		} else {
			data, _ = json.Marshal(v)
		}
		if frames {
			w.Write([]byte(strconv.Itoa(len([]rune(string(data)))) + "#" + string(data)))
		} else {
			w.Write(append(data, '\n'))
		}
	}
	turns := 0
	for {
		var data []byte
		var err error
		if frames {
			data, err = ReadFrame(r)
		} else {
			data, err = ReadLine(r)
		}
		if err != nil {
			return 0
		}
		var req struct {
			RequestType string     `json:"request_type"`
			RequestID   string     `json:"request_id"`
			GameID      string     `json:"game_id"`
			GameState   *GameState `json:"game_state"`
		}
		if err := json.Unmarshal(data, &req); err != nil {
			fmt.Fprintln(os.Stderr, "fake module: unreadable request:", err)
			return 3
		}
		reply := map[string]any{"response_type": req.RequestType, "response_id": req.RequestID}
		switch scenario {
		case "no-id":
			delete(reply, "response_id")
		case "request-id":
			delete(reply, "response_id")
			reply["request_id"] = req.RequestID
		}
		if req.RequestType == Greetings {
			if scenario == "mute" { // never answers its greeting
				time.Sleep(time.Minute)
				return 0
			}
			reply["name"], reply["version"], reply["author"], reply["active"] = "fake-"+scenario, "0.0.1", "the tests", scenario != "inactive"
			reply["language"] = "Go"
			send(reply)
			continue
		}
		turns++
		reply["game_id"] = req.GameID
		switch scenario {
		case "crash":
			fmt.Fprintln(os.Stderr, "TypeError: cannot read property 'Movement' of undefined")
			return 1
		case "hang":
			time.Sleep(time.Minute)
			return 0
		case "slow-first": // answers its first turn late, then promptly
			if turns == 1 {
				time.Sleep(700 * time.Millisecond)
			}
		case "garbage":
			send("hello, world")
			continue
		case "non-object":
			send(`["Movement","0,0","2,0"]`)
			continue
		case "wrong-id":
			reply["response_id"] = "no-such-request"
		case "throw":
			send(map[string]any{"success": false, "error": "ReferenceError: board is not defined"})
			continue
		case "cheat-cell": // a cell that does not exist: row+col odd
			send(merge(reply, map[string]any{"turn_type": Placement, "piece_type": "Spider", "destination": "1,0"}))
			continue
		case "forfeit": // gives up its turn while it has others
			send(merge(reply, map[string]any{"turn_type": Forfeit}))
			continue
		case "cheat-far": // a cell that exists, far from the hive
			send(merge(reply, map[string]any{"turn_type": Placement, "piece_type": "Spider", "destination": "40,0"}))
			continue
		case "cheat-piece": // a piece type it has no more of
			if turns >= 2 {
				send(merge(reply, map[string]any{"turn_type": Placement, "piece_type": "Queen Bee", "destination": anyPosition(req.GameState)}))
				continue
			}
		case "cheat-opponent": // moves the other side's piece
			if turns >= 5 {
				if src, dst, ok := opponentMove(req.GameState); ok {
					send(merge(reply, map[string]any{"turn_type": Movement, "source": src, "destination": dst}))
					continue
				}
			}
		}
		for k, v := range chooseRandom(rng, req.GameState.PossibleTurns) {
			reply[k] = v
		}
		send(reply)
	}
}

func merge(a, b map[string]any) map[string]any {
	for k, v := range b {
		a[k] = v
	}
	return a
}

// chooseRandom picks one offered turn, each category with equal chance, as a random module
// does.
func chooseRandom(rng *rand.Rand, p PossibleTurns) map[string]any {
	var kinds []string
	if p.Placement != nil {
		kinds = append(kinds, Placement)
	}
	if len(p.Movement) > 0 {
		kinds = append(kinds, Movement)
	}
	if len(p.SpecialAbility) > 0 {
		kinds = append(kinds, SpecialAbility)
	}
	if len(kinds) == 0 {
		return map[string]any{"turn_type": Forfeit}
	}
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	switch kind := pick(kinds); kind {
	case Placement:
		return map[string]any{"turn_type": kind, "piece_type": pick(p.Placement.PieceTypes), "destination": pick(p.Placement.Positions)}
	case Movement:
		src := pick(keys(p.Movement))
		return map[string]any{"turn_type": kind, "source": src, "destination": pick(p.Movement[src])}
	default:
		user := pick(keys(p.SpecialAbility))
		src := pick(keys(p.SpecialAbility[user]))
		return map[string]any{"turn_type": kind, "ability_user": user, "source": src, "destination": pick(p.SpecialAbility[user][src])}
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func anyPosition(st *GameState) string {
	if p := st.PossibleTurns.Placement; p != nil {
		return p.Positions[0]
	}
	return "0,0"
}

// opponentMove finds a piece of the other side on top of a stack and an empty point next to
// the hive for it.
func opponentMove(st *GameState) (string, string, bool) {
	for _, pt := range keys(st.Board.Pieces) {
		stack := st.Board.Pieces[pt]
		if stack[len(stack)-1].Color == st.PlayerTurn {
			continue
		}
		p, _ := ParsePoint(pt)
		for _, s := range step {
			q := p.add(s)
			if _, taken := st.Board.Pieces[q.String()]; !taken {
				return pt, q.String(), true
			}
		}
	}
	return "", "", false
}
