package ugi

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
	"hivearbiter/rules"
	"hivearbiter/ugiclient"
)

var _ compliance.Suite = Protocol{}

// RunChecks implements compliance.Suite: a UGI compliance check of one engine, under the Hive
// mapping of this package: the handshake, readyok, the game types it accepts, "query
// p1turn|gameover|result" against the referee over random games and finished ones, an illegal
// move answered with "info error", each go form (depth, nodes, movetime, a clock) answered in
// time with a legal move, "go infinite" with readyok during the search and exactly one bestmove
// after stop, and a forced pass. It returns one result per check; after a check fails the
// engine is started afresh. err is set only when the engine cannot be started at all.
func (Protocol) RunChecks(ctx context.Context, e driver.EngineConfig, opts compliance.Options) ([]compliance.Result, error) {
	c := &checker{engine: e}
	c.Session = compliance.NewSession(ctx, opts, func(ctx context.Context) (*ugiclient.Engine, error) {
		return startChecked(ctx, e, c.Options())
	})
	defer c.Close()
	eng, err := c.Begin("ugi: id lines and ugiok")
	if err != nil {
		return c.Results(), err
	}
	hello := eng.Hello()
	c.add("ugi: id lines and ugiok", hello.Name != "",
		fmt.Sprintf("id name %q, id author %q, %d options", hello.Name, hello.Author, len(hello.Options)))
	return c.Run(c.ready, func() { c.fairOptions(hello.Options) }, c.gameTypes, c.queries, c.refusedMove, c.searches, c.infinite, c.forcedPass,
		c.determinism), nil
}

// ugiTypes are the types of UGI options in UHP's words, which compliance.FairOption reads.
var ugiTypes = map[string]string{"spin": "int", "check": "bool", "combo": "enum", "string": "string"}

// fairOptions says which of the engine's options fair timing sets, each at its default.
func (c *checker) fairOptions(opts []ugiclient.Option) {
	c.listed = make([]compliance.ListedOption, len(opts))
	for i, o := range opts {
		c.listed[i] = compliance.ListedOption{Name: o.Name, Type: ugiTypes[o.Type], Value: o.Default, Choices: o.Vars}
	}
	c.AdviseFairTiming(c.listed, c.engine.Options)
}

// determinism is the check framework's probe (compliance.Session.CheckDeterminism), each
// search a new game at the position and "go depth".
func (c *checker) determinism() {
	t := rules.Base
	if len(c.types) > 0 {
		t = c.types[len(c.types)-1]
	}
	c.CheckDeterminism(t, c.listed, func(ctx context.Context, eng *ugiclient.Engine, position *rules.Game, depth int) (string, error) {
		if err := eng.Sync(ctx, "uginewgame", positionOf(position)); err != nil {
			return "", err
		}
		s, err := eng.Go(ctx, fmt.Sprintf("go depth %d", depth))
		if err != nil {
			return "", err
		}
		move, err := ugiclient.DecodeMove(s.Move)
		if err != nil {
			return "", fmt.Errorf("bestmove %s: %w", s.Move, err)
		}
		m, err := position.ParseMove(move)
		if err != nil {
			return "", fmt.Errorf("bestmove %s: %w", s.Move, err)
		}
		return position.MoveString(m), nil
	})
}

// startChecked starts the engine and sets its options.
func startChecked(ctx context.Context, e driver.EngineConfig, opts compliance.Options) (*ugiclient.Engine, error) {
	eng, err := ugiclient.Start(ctx, ugiclient.Config{Command: e.Command, Dir: e.Dir, Env: e.Env, Addr: e.Addr, Name: e.Name, Grace: opts.Grace})
	if err != nil {
		return nil, err
	}
	var setup []string
	for _, o := range e.Options {
		setup = append(setup, fmt.Sprintf("setoption name %s value %s", o.Name, o.Value))
	}
	if err := eng.Sync(ctx, setup...); err != nil {
		eng.Kill()
		return nil, err
	}
	return eng, nil
}

// checker is a UGI compliance check in progress.
type checker struct {
	*compliance.Session[*ugiclient.Engine]
	engine driver.EngineConfig
	eng    *ugiclient.Engine         // the engine of the check that runs
	types  []rules.GameType          // the game types the engine accepts
	listed []compliance.ListedOption // the options it lists, at their defaults
}

// use makes a running engine the one for the check named (started afresh after a failure); it
// returns false when none could be started, and the check is skipped.
func (c *checker) use(name string) bool {
	eng, ok := c.Engine(name)
	c.eng = eng
	return ok
}

func (c *checker) ready() {
	const name = "isready answered with readyok"
	if !c.use(name) {
		return
	}
	if err := c.sync(); err != nil {
		c.add(name, false, err.Error())
		return
	}
	c.add(name, true, "")
}

// ugiTimeout bounds each command of the check but the searches.
const ugiTimeout = 5 * time.Second

func (c *checker) add(name string, passed bool, detail string) {
	if passed {
		c.Pass(name, detail)
	} else {
		c.Fail(name, detail)
	}
}

func (c *checker) sync(commands ...string) error {
	ctx, cancel := context.WithTimeout(c.Context(), ugiTimeout)
	defer cancel()
	return c.eng.Sync(ctx, commands...)
}

func (c *checker) query(position, question string) (string, error) {
	ctx, cancel := context.WithTimeout(c.Context(), ugiTimeout)
	defer cancel()
	if position != "" {
		if err := c.eng.Send(ctx, position); err != nil {
			return "", err
		}
	}
	return c.eng.Query(ctx, question)
}

func positionOf(g *rules.Game) string {
	p, _ := ugiclient.NewPosition(g.GameString())
	return p.Command()
}

// gameTypes finds the game types the engine accepts: UGI has no capability list, so each is
// offered as a position.
func (c *checker) gameTypes() {
	const name = "game types accepted by position"
	if !c.use(name) {
		return
	}
	var refused []string
	for _, t := range rules.GameTypes {
		err := c.sync("uginewgame", positionOf(rules.NewGame(t)))
		var r *ugiclient.RefusedError
		switch {
		case err == nil:
			c.types = append(c.types, t)
		case errors.As(err, &r):
			refused = append(refused, t.String())
		default:
			c.add(name, false, err.Error())
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
	c.add(name, len(c.types) > 0 && c.types[0] == rules.Base, detail)
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
func (c *checker) queries() {
	t := rules.Base
	if len(c.types) > 0 {
		t = c.types[len(c.types)-1]
	}
	name := fmt.Sprintf("query p1turn, gameover, result (%d random %s games and 3 finished ones)", c.Options().Games, t)
	if !c.use(name) {
		return
	}
	var games []*rules.Game
	for range c.Options().Games {
		g := rules.NewGame(t)
		for ply := 0; ply < c.Options().Plies && !g.State().IsOver(); ply++ {
			games = append(games, g.Clone())
			valid := g.ValidMoves()
			g.PlayMove(valid[c.Rand().IntN(len(valid))])
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
func (c *checker) refusedMove() {
	const name = "position with an illegal move answered with info error"
	if !c.use(name) {
		return
	}
	if err := c.sync("position startpos moves wS1"); err != nil {
		c.add(name, false, err.Error())
		return
	}
	err := c.sync("position startpos moves wS1 wQ_-wS1")
	var r *ugiclient.RefusedError
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
func (c *checker) search(name string, g *rules.Game, command string, allowed time.Duration) {
	if !c.use(name) {
		return
	}
	ctx, cancel := context.WithTimeout(c.Context(), allowed+c.Options().Margin)
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
	move, err := ugiclient.DecodeMove(s.Move)
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

func (c *checker) searches() {
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
func (c *checker) infinite() {
	const name = "go infinite: readyok while searching, one bestmove after stop"
	if !c.use(name) {
		return
	}
	ctx, cancel := context.WithTimeout(c.Context(), ugiTimeout)
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

func (c *checker) forcedPass() {
	const name = "a forced pass answered with bestmove pass"
	if !c.use(name) {
		return
	}
	g, err := rules.ParseGameString(mustPass)
	if err != nil {
		c.add(name, false, err.Error())
		return
	}
	ctx, cancel := context.WithTimeout(c.Context(), ugiTimeout)
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
