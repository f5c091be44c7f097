package enginecheck

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/proto/ugi"
	"hivearbiter/rules"
)

// CheckUGI runs a UGI compliance check of one engine, under the Hive mapping of package
// proto/ugi: the handshake, readyok, the game types it accepts, "query p1turn|gameover|result"
// against the referee over random games and finished ones, an illegal move answered with
// "info error", each go form (depth, nodes, movetime, a clock) answered in time with a legal
// move, "go infinite" with readyok during the search and exactly one bestmove after stop, and
// a forced pass. It returns one result per check; err is set only when the engine cannot be
// started at all.
func CheckUGI(ctx context.Context, e arbiter.EngineConfig, opts Options) ([]Result, error) {
	if opts.Games <= 0 {
		opts.Games = 3
	}
	if opts.Plies <= 0 {
		opts.Plies = 30
	}
	if opts.Margin <= 0 {
		opts.Margin = 500 * time.Millisecond
	}
	startCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	eng, err := ugi.Start(startCtx, ugi.Config{Command: e.Command, Dir: e.Dir, Env: e.Env, Addr: e.Addr, Name: e.Name})
	cancel()
	if err != nil {
		return []Result{{Name: "ugi: id lines and ugiok", Detail: err.Error()}}, err
	}
	defer func() { eng.Close(context.WithoutCancel(ctx)) }()
	c := &ugiChecker{ctx: ctx, opts: opts, rng: rand.New(rand.NewPCG(opts.Seed, 7)), eng: eng}
	hello := eng.Hello()
	c.add("ugi: id lines and ugiok", hello.Name != "",
		fmt.Sprintf("id name %q, id author %q, %d options", hello.Name, hello.Author, len(hello.Options)))
	var setup []string
	for _, o := range e.Options {
		setup = append(setup, fmt.Sprintf("setoption name %s value %s", o.Name, o.Value))
	}
	if err := c.sync(setup...); err != nil {
		c.add("isready answered with readyok", false, err.Error())
		return c.results, nil
	}
	c.add("isready answered with readyok", true, "")
	c.gameTypes()
	c.queries()
	c.refusedMove()
	c.searches()
	c.infinite()
	c.forcedPass()
	return c.results, nil
}

// ugiChecker runs the UGI checks. It shares nothing with the UHP checker but the shape of
// its results, so that either can change alone.
type ugiChecker struct {
	ctx     context.Context
	opts    Options
	rng     *rand.Rand
	eng     *ugi.Engine
	types   []rules.GameType // the game types the engine accepts
	results []Result
}

// ugiTimeout bounds each command of the check but the searches.
const ugiTimeout = 5 * time.Second

func (c *ugiChecker) add(name string, passed bool, detail string) {
	c.results = append(c.results, Result{Name: name, Passed: passed, Detail: detail})
}

func (c *ugiChecker) sync(commands ...string) error {
	ctx, cancel := context.WithTimeout(c.ctx, ugiTimeout)
	defer cancel()
	return c.eng.Sync(ctx, commands...)
}

func (c *ugiChecker) query(position, question string) (string, error) {
	ctx, cancel := context.WithTimeout(c.ctx, ugiTimeout)
	defer cancel()
	if position != "" {
		if err := c.eng.Send(ctx, position); err != nil {
			return "", err
		}
	}
	return c.eng.Query(ctx, question)
}

func positionOf(g *rules.Game) string {
	p, _ := ugi.NewPosition(g.GameString())
	return p.Command()
}

// gameTypes finds the game types the engine accepts: UGI has no capability list, so each is
// offered as a position.
func (c *ugiChecker) gameTypes() {
	var refused []string
	for _, t := range rules.GameTypes {
		err := c.sync("uginewgame", positionOf(rules.NewGame(t)))
		var r *ugi.RefusedError
		switch {
		case err == nil:
			c.types = append(c.types, t)
		case errors.As(err, &r):
			refused = append(refused, t.String())
		default:
			c.add("game types accepted by position", false, err.Error())
			return
		}
	}
	var names []string
	for _, t := range c.types {
		names = append(names, t.String())
	}
	detail := "plays " + strings.Join(names, ", ")
	if len(refused) > 0 {
		detail += "; refuses " + strings.Join(refused, ", ")
	}
	c.add("game types accepted by position", len(c.types) > 0 && c.types[0] == rules.Base, detail)
}

// finished are games that the rules have ended: White wins, Black wins, both queens surrounded.
var finished = []string{
	`Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \bQ;wG1 bQ\;bG2 bQ/;wA1 wQ\;bA1 bG2/;wA1 bG2\;bA1 \bG2;wQ \wS1;bA1 bG2/;wQ /bG1`,
	`Base;BlackWins;White[7];wS1;bS1 wS1-;wQ \wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\;bA1 bQ\;wA2 \wQ;bA2 \bG1;wG2 wQ/;bG1 wG2\`,
	`Base;Draw;White[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \bQ;wG1 bQ\;bG2 bQ/;wA1 wQ\;bA1 bG2/;wA1 bG2\;bA1 \bG2;wQ \wS1;bG1 wA1/;wQ -bQ;bA1 \wQ;wB1 -wS1;bG3 bG1-;wB1 /bA1;bG3 -bG2`,
}

// mustPass is a position where White's only move is a pass.
const mustPass = `Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \wA1;bA1 bS1\;wQ -wA1;bA2 bQ\;wQ \wA1;bA1 \wQ;wG1 /wQ;bA2 /wG1`

// queries compares the engine's answers to the three queries with the referee's, over random
// games of the richest game type it accepts and over finished games.
func (c *ugiChecker) queries() {
	t := rules.Base
	if len(c.types) > 0 {
		t = c.types[len(c.types)-1]
	}
	name := fmt.Sprintf("query p1turn, gameover, result (%d random %s games and 3 finished ones)", c.opts.Games, t)
	var games []*rules.Game
	for range c.opts.Games {
		g := rules.NewGame(t)
		for ply := 0; ply < c.opts.Plies && !g.State().IsOver(); ply++ {
			games = append(games, g.Clone())
			valid := g.ValidMoves()
			g.PlayMove(valid[c.rng.IntN(len(valid))])
		}
		games = append(games, g)
	}
	for _, gs := range finished {
		g, _ := rules.ParseGameString(gs)
		games = append(games, g)
	}
	for _, g := range games {
		want := map[string]string{"p1turn": fmt.Sprint(g.ToMove() == rules.White), "gameover": fmt.Sprint(g.State().IsOver()), "result": "none"}
		switch g.State() {
		case rules.WhiteWins:
			want["result"] = "p1win"
		case rules.BlackWins:
			want["result"] = "p2win"
		case rules.Draw:
			want["result"] = "draw"
		}
		for _, q := range []string{"p1turn", "gameover", "result"} {
			got, err := c.query(positionOf(g), q)
			if err != nil || got != want[q] {
				c.add(name, false, fmt.Sprintf("%s: query %s: got %q (%v), want %q", positionOf(g), q, got, err, want[q]))
				return
			}
		}
	}
	c.add(name, true, fmt.Sprintf("%d positions agree", len(games)))
}

// refusedMove checks that an illegal move in a position is answered with "info error", and
// that the engine's position is then the one before.
func (c *ugiChecker) refusedMove() {
	const name = "position with an illegal move answered with info error"
	if err := c.sync("position startpos moves wS1"); err != nil {
		c.add(name, false, err.Error())
		return
	}
	err := c.sync("position startpos moves wS1 wQ_-wS1")
	var r *ugi.RefusedError
	if !errors.As(err, &r) {
		c.add(name, false, fmt.Sprintf("position startpos moves wS1 wQ_-wS1 (White moves twice): %v", err))
		return
	}
	turn, err := c.query("", "p1turn")
	if err != nil || turn != "false" {
		c.add(name, false, fmt.Sprintf("after the refusal: query p1turn got %q (%v), want false (the position before)", turn, err))
		return
	}
	c.add(name, true, "info error "+r.Message)
}

// search runs one go on a position and checks the answer is a legal move in time.
func (c *ugiChecker) search(name string, g *rules.Game, command string, allowed time.Duration) {
	ctx, cancel := context.WithTimeout(c.ctx, allowed+c.opts.Margin)
	defer cancel()
	if err := c.eng.Send(ctx, positionOf(g)); err != nil {
		c.add(name, false, err.Error())
		return
	}
	began := time.Now()
	s, err := c.eng.Go(ctx, command)
	took := time.Since(began)
	if err != nil {
		c.add(name, false, err.Error())
		return
	}
	move, err := ugi.DecodeMove(s.Move)
	if err == nil {
		err = g.Clone().Play(move)
	}
	if err != nil {
		c.add(name, false, fmt.Sprintf("bestmove %s: %v", s.Move, err))
		return
	}
	detail := fmt.Sprintf("bestmove %s in %d ms", s.Move, took.Milliseconds())
	if s.Info.Nodes > 0 {
		detail += fmt.Sprintf(", info depth %d nodes %d", s.Info.Depth, s.Info.Nodes)
	}
	c.add(name, true, detail)
}

func (c *ugiChecker) searches() {
	g := rules.NewGame(rules.Base)
	g.Play("wS1")
	c.search("go depth 1", g, "go depth 1", 30*time.Second)
	c.search("go nodes 1000", g, "go nodes 1000", 30*time.Second)
	c.search("go movetime 500 within its time", g, "go movetime 500", 500*time.Millisecond)
	// Black to move, with little time of its own: an engine that reads White's clock overruns.
	c.search("go p1time 600000 p2time 2000 p1inc 0 p2inc 0 within Black's time", g, "go p1time 600000 p2time 2000 p1inc 0 p2inc 0", 2*time.Second)
}

// infinite checks "go infinite": readyok during the search, and exactly one bestmove after
// stop, a second stop being ignored.
func (c *ugiChecker) infinite() {
	const name = "go infinite: readyok while searching, one bestmove after stop"
	ctx, cancel := context.WithTimeout(c.ctx, ugiTimeout)
	defer cancel()
	fail := func(format string, args ...any) { c.add(name, false, fmt.Sprintf(format, args...)) }
	g := rules.NewGame(rules.Base)
	g.Play("wS1")
	for _, cmd := range []string{positionOf(g), "go infinite", "isready"} {
		if err := c.eng.Send(ctx, cmd); err != nil {
			fail("%v", err)
			return
		}
	}
	sent := time.Now()
	for {
		line, err := c.eng.Next(ctx, `"readyok" during the search`)
		if err != nil {
			fail("%v", err)
			return
		}
		if strings.HasPrefix(line, "bestmove") {
			fail("bestmove %q before stop", line)
			return
		}
		if line == "readyok" {
			break
		}
	}
	readyIn := time.Since(sent)
	for _, cmd := range []string{"stop", "stop", "isready"} {
		if err := c.eng.Send(ctx, cmd); err != nil {
			fail("%v", err)
			return
		}
	}
	bestmoves := 0
	for {
		line, err := c.eng.Next(ctx, `"bestmove" and "readyok" after stop`)
		if err != nil {
			fail("%v (after %d bestmove lines)", err, bestmoves)
			return
		}
		if strings.HasPrefix(line, "bestmove") {
			bestmoves++
		}
		if line == "readyok" && bestmoves > 0 {
			break
		}
	}
	// A second bestmove could come after the readyok that followed it: ask again.
	if err := c.sync(); err != nil {
		fail("%v", err)
		return
	}
	if bestmoves != 1 {
		fail("%d bestmove lines after stop", bestmoves)
		return
	}
	c.add(name, true, fmt.Sprintf("readyok in %d ms", readyIn.Milliseconds()))
}

func (c *ugiChecker) forcedPass() {
	const name = "a forced pass answered with bestmove pass"
	g, err := rules.ParseGameString(mustPass)
	if err != nil {
		c.add(name, false, err.Error())
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, ugiTimeout)
	defer cancel()
	if err := c.eng.Send(ctx, positionOf(g)); err != nil {
		c.add(name, false, err.Error())
		return
	}
	s, err := c.eng.Go(ctx, "go depth 2")
	if err != nil || s.Move != "pass" {
		c.add(name, false, fmt.Sprintf("bestmove %q (%v)", s.Move, err))
		return
	}
	c.add(name, true, "")
}
