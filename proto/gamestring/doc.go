// Package gamestring enters players of the one-engine model in the arbiter's games
// (protocol "gamestring", proto=gamestring): the easiest way to write a Hive bot. The player
// keeps no rules of its own: the arbiter sends it the game as a GameString whenever it is to
// move, and it answers one MoveString. Any language that reads and writes lines will do.
//
// The model is the one-engine model of the UHP 2.0 remote-play proposal: the server holds the
// only true game and sends each player a stream of GameStrings; when a GameString says the
// player is to move, the player answers a MoveString, and the server replies with the new
// GameString, or with err when the move is refused.
//
// # Transport
//
// A program (cmd=PROGRAM, arg=...) talks on its standard input and output; standard error is
// kept for error reports. A listener (addr=HOST:PORT) is connected to by the arbiter, once per
// seat: with -concurrency 2 it is connected to twice. One connection plays game after game. The
// end of input (or the connection closing) ends the session.
//
// # Wire format
//
// Lines end in "\n" ("\r\n" is accepted from the player). The player speaks first: when it
// starts (or when the arbiter connects), it prints one line, its name, such as "randombot 1.0".
// The arbiter waits for it (within the start timeout) before any game, so that a slow start
// is not charged to the first move, and records it as the player's id. Then, from the
// arbiter:
//
//	newgame COLOUR GAMESTRING   a game starts: you play COLOUR (White or Black) from GAMESTRING
//	                            (an empty board such as "Base+MLP;NotStarted;White[1]", or
//	                            an opening). Sent before the first GameString of each game.
//	GAMESTRING                  the game as it stands. When its turn is your colour, answer
//	                            with your move; otherwise (the reply to your move) answer
//	                            nothing.
//	err REASON                  your move was refused (REASON as Mzinga words it): the game is
//	                            lost. Answer nothing.
//	gameover RESULT GAMESTRING  the game ended: RESULT is WhiteWins, BlackWins or Draw (a
//	                            game may end by the arbiter's adjudication or a forfeit while
//	                            the GameString still says InProgress). Answer nothing.
//	validmoves M1;M2;...        only with the setting validmoves=true: the legal moves, in
//	                            Mzinga's notation as UHP's validmoves lists them, sent just
//	                            before each GameString that asks you to move. A bot then needs
//	                            no rules at all: it picks one of them.
//
// From the player, only when it is to move, one line: a MoveString in Mzinga's notation
// ("wS1", "bS1 wS1-", "wQ \wS1"), or "pass" when nothing else is legal. Blank lines are
// skipped. The player is given no time information: the engine's time control (st=SECONDS or
// tc=BASE+INC) bounds each answer, as for every engine, and an answer that comes too late
// loses on time.
//
// A game seen from White:
//
//	< randombot 1.0
//	> newgame White Base+MLP;NotStarted;White[1]
//	> Base+MLP;NotStarted;White[1]
//	< wS1
//	> Base+MLP;InProgress;Black[1];wS1
//	> Base+MLP;InProgress;White[2];wS1;bS1 wS1-
//	< wQ -wS1
//	> Base+MLP;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1
//	...
//	> gameover BlackWins Base+MLP;BlackWins;White[12];...
//
// A whole bot in Python, run with validmoves=true, that plays a random legal move:
//
//	import random, sys
//	print("randombot 1.0", flush=True)
//	colour, moves = None, []
//	for line in sys.stdin:
//	    words = line.split(" ", 1)
//	    if words[0] == "newgame":
//	        colour = line.split()[1]
//	    elif words[0] == "validmoves":
//	        moves = words[1].strip().split(";")
//	    elif words[0] not in ("err", "gameover"):
//	        fields = line.strip().split(";")
//	        if fields[1] in ("NotStarted", "InProgress") and fields[2].startswith(colour):
//	            print(random.choice(moves), flush=True)
//
// The arbiter checks every answer with its referee; a player that answers an illegal move,
// answers too late, or goes away loses the game, and is started (or connected to) anew for its
// next game.
//
// Protocol is compliance.PlayChecked: "arbiter check -engine ... proto=gamestring" checks a bot
// before a run, by play, with the rows it declares (PlayRows): its greeting, a first move in time, games against the
// referee in which every answer must be a legal MoveString, and its exit.
package gamestring
