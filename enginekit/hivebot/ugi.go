package hivebot

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"hivearbiter/enginekit/search"
	"hivearbiter/enginekit/ugiserver"
	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/rules"
)

// serve speaks UHP or UGI on the streams, as the first command decides: UHP engines print
// their banner unprompted, so the UHP server starts at once, and a first command of "ugi"
// (which UGI clients send before anything else, skipping the banner) hands the conversation
// over to the UGI server. Any other first command goes to the UHP server, followed by the rest
// of the input.
func serve(ctx context.Context, engine *Engine, uhp *uhpserver.Server, stdin io.Reader, stdout io.Writer) error {
	pr, pw := io.Pipe()
	uhpDone := make(chan error, 1)
	go func() {
		err := uhp.Serve(ctx, pr, stdout)
		pr.Close() // a copy still under way ends with it
		uhpDone <- err
	}()
	in := bufio.NewReader(stdin)
	var first string
	var readErr error
	for strings.TrimSpace(first) == "" && readErr == nil {
		first, readErr = in.ReadString('\n')
	}
	if strings.TrimSpace(first) == "ugi" {
		pw.Close()
		if err := <-uhpDone; err != nil {
			return err
		}
		server := ugiserver.NewServer(ugiSearcher{engine})
		return server.Serve(ctx, io.MultiReader(strings.NewReader(first), in), stdout)
	}
	go func() {
		if _, err := io.WriteString(pw, first); err == nil && readErr == nil {
			io.Copy(pw, in)
		}
		pw.Close()
	}()
	return <-uhpDone
}

// ugiSearcher adapts the engine to ugiserver.Searcher: the same profiles, options and search
// as over UHP.
type ugiSearcher struct{ e *Engine }

func (u ugiSearcher) ID() (string, string) { return "hivebot " + Version, "the Hive Arbiter authors" }

// Options shows the UHP options as UGI's spin and combo options.
func (u ugiSearcher) Options() []ugiserver.Option {
	var out []ugiserver.Option
	for _, o := range u.e.Options() {
		uo := ugiserver.Option{Name: o.Name, Default: o.Default}
		switch o.Type {
		case "int":
			uo.Type = "spin"
			if len(o.Extra) == 2 {
				uo.Min, uo.Max = o.Extra[0], o.Extra[1]
			}
		case "enum":
			uo.Type, uo.Vars = "combo", o.Extra
		default:
			uo.Type = "string"
		}
		out = append(out, uo)
	}
	return out
}

func (u ugiSearcher) SetOption(name, value string) error {
	if canonicalOption(name) == "" {
		return fmt.Errorf("unknown option %q", name)
	}
	_, err := u.e.SetOption(name, value)
	return err
}

func (u ugiSearcher) NewGame() { u.e.searcher.Clear() }

// Search searches as BestMove does (the profile's depth, the limit's and the MaxDepth cap,
// the smallest of them), with the node limit UGI adds.
func (u ugiSearcher) Search(ctx context.Context, g *rules.Game, limit ugiserver.GoArgs) ugiserver.Result {
	e := u.e
	if e.profile == Random {
		moves := g.ValidMoves()
		m := moves[e.rng.IntN(len(moves))]
		return ugiserver.Result{Move: m, PV: []rules.Move{m}}
	}
	depth := 0
	for _, d := range []int{e.profile.Depth(), limit.Depth, e.maxDepth} {
		if d > 0 && (depth == 0 || d < depth) {
			depth = d
		}
	}
	if depth > 0 {
		e.searcher.Clear()
	}
	res := e.searcher.Search(ctx, g.Board(), search.Limits{Depth: depth, Nodes: limit.Nodes})
	out := ugiserver.Result{Move: res.Move, Depth: res.Depth, Score: res.Score, Nodes: res.Nodes, PV: res.PV}
	if plies, mate := search.IsMate(res.Score); mate {
		out.MateIn = plies
		if res.Score < 0 {
			out.MateIn = -plies
		}
	}
	return out
}
