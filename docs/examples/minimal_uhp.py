#!/usr/bin/env python3
"""A minimal UHP engine: Base Hive (no expansions), random legal moves.

It speaks the Universal Hive Protocol on standard input and output, as the arbiter and the
viewers need: the info banner at start, then one reply to each command, ended by "ok". It keeps
the game itself and generates its own legal moves, so it answers validmoves, play, pass, undo,
newgame with a GameString, and bestmove (a random legal move, the same one for the same
position, answered at once). Run it with: arbiter check -engine "python3 minimal_uhp.py".
docs/protocols.md walks through a session with it.
"""
import random
import sys
import zlib

# The six directions of a hexagonal grid in axial coordinates, clockwise from north-west.
NW, NE, E, SE, SW, W = range(6)
DELTAS = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
# UHP writes where a piece goes by a piece next to it: "wS1-" is east of wS1, "-wS1" west.
AFTER = {"-": E, "/": NE, "\\": SE}
BEFORE = {"-": W, "/": SW, "\\": NW}
# Base Hive's pieces of each colour, in UHP's names, the lowest number of a bug placed first.
PIECES = ["Q", "S1", "S2", "B1", "B2", "G1", "G2", "G3", "A1", "A2", "A3"]


def step(cell, d):
    return (cell[0] + DELTAS[d][0], cell[1] + DELTAS[d][1])


def neighbours(cell):
    return [step(cell, d) for d in range(6)]


class InvalidMove(Exception):
    pass


class Game:
    """A Base game: stacks of pieces by cell, and the moves played."""

    def __init__(self):
        self.stacks = {}  # cell -> pieces, bottom first
        self.where = {}  # piece -> cell
        self.moves = []  # (piece, from cell or None, to cell, MoveString)

    def ply(self):
        return len(self.moves)

    def to_move(self):
        return "wb"[self.ply() % 2]

    def turn(self):
        return self.ply() // 2 + 1

    def height(self, cell):
        return len(self.stacks.get(cell, ()))

    def top(self, cell):
        stack = self.stacks.get(cell)
        return stack[-1] if stack else None

    def state(self):
        if not self.moves:
            return "NotStarted"
        lost = [c for c in "wb" if c + "Q" in self.where and all(self.height(n) for n in neighbours(self.where[c + "Q"]))]
        if len(lost) == 2:
            return "Draw"
        if lost:
            return "BlackWins" if lost == ["w"] else "WhiteWins"
        return "InProgress"

    def game_string(self):
        colour = "White" if self.to_move() == "w" else "Black"
        return ";".join(["Base", self.state(), "%s[%d]" % (colour, self.turn())] + [m[3] for m in self.moves])

    # Playing and taking back.

    def lift(self, piece):
        cell = self.where.pop(piece)
        self.stacks[cell].pop()
        if not self.stacks[cell]:
            del self.stacks[cell]
        return cell

    def drop(self, piece, cell):
        self.stacks.setdefault(cell, []).append(piece)
        self.where[piece] = cell

    def apply(self, move):
        piece, source, target = move
        text = self.move_string(move)
        if piece is not None:
            if source is not None:
                self.lift(piece)
            self.drop(piece, target)
        self.moves.append((piece, source, target, text))

    def undo(self):
        piece, source, target, _ = self.moves.pop()
        if piece is not None:
            self.lift(piece)
            if source is not None:
                self.drop(piece, source)

    # Move generation.

    def valid_moves(self):
        """Every legal move as (piece, from, to); (None, None, None) is a pass."""
        if self.state() not in ("NotStarted", "InProgress"):
            return []
        us = self.to_move()
        moves = [(p, None, c) for p in self.placeable(us) for c in self.placement_cells(us)]
        if us + "Q" in self.where:
            pinned = self.articulation_points()
            for piece, cell in list(self.where.items()):
                if piece[0] == us and self.top(cell) == piece and not (self.height(cell) == 1 and cell in pinned):
                    moves += [(piece, cell, t) for t in self.destinations(piece, cell)]
        return moves or [(None, None, None)]

    def placeable(self, us):
        hand = [us + p for p in PIECES if us + p not in self.where]
        if self.turn() == 4 and us + "Q" in hand:
            return [us + "Q"]
        lowest = [p for p in hand if not (p[-1] in "23" and p[:-1] + str(int(p[-1]) - 1) in hand)]
        return [p for p in lowest if not (self.turn() == 1 and p[1] == "Q")]

    def placement_cells(self, us):
        if self.ply() == 0:
            return [(0, 0)]
        if self.ply() == 1:
            return neighbours((0, 0))
        cells = set()
        for cell in self.stacks:
            if self.top(cell)[0] == us:
                cells.update(n for n in neighbours(cell) if n not in self.stacks)
        return sorted(c for c in cells if not any(self.top(n) and self.top(n)[0] != us for n in neighbours(c)))

    def articulation_points(self):
        """The cells whose pieces, taken away, would split the hive."""
        cells = list(self.stacks)
        order, low, points = {}, {}, set()

        def visit(cell, parent, counter):
            order[cell] = low[cell] = counter[0]
            counter[0] += 1
            children = 0
            for n in neighbours(cell):
                if n not in self.stacks or n == parent:
                    continue
                if n in order:
                    low[cell] = min(low[cell], order[n])
                    continue
                children += 1
                visit(n, cell, counter)
                low[cell] = min(low[cell], low[n])
                if parent is not None and low[n] >= order[cell]:
                    points.add(cell)
            if parent is None and children > 1:
                points.add(cell)

        if cells:
            visit(cells[0], None, [0])
        return points

    def can_slide(self, cell, d):
        """A ground step: into an empty cell, between exactly one occupied flank."""
        if self.height(step(cell, d)):
            return False
        return bool(self.height(step(cell, (d + 5) % 6))) != bool(self.height(step(cell, (d + 1) % 6)))

    def can_climb(self, cell, d, below):
        """A beetle's step, with below pieces under it where it starts."""
        dest = self.height(step(cell, d))
        left, right = self.height(step(cell, (d + 5) % 6)), self.height(step(cell, (d + 1) % 6))
        if below == 0 and dest == 0 and left == 0 and right == 0:
            return False
        return not (dest < left and dest < right and below < left and below < right)

    def destinations(self, piece, cell):
        bug = piece[1]
        if bug == "G":
            found = set()
            for d in range(6):
                n = step(cell, d)
                if self.height(n):
                    while self.height(n):
                        n = step(n, d)
                    found.add(n)
            return sorted(found)
        self.lift(piece)  # it moves over the hive without itself
        try:
            if bug == "Q":
                return sorted({step(cell, d) for d in range(6) if self.can_slide(cell, d)})
            if bug == "B":
                below = self.height(cell)
                return sorted({step(cell, d) for d in range(6) if self.can_climb(cell, d, below)})
            if bug == "S":
                found = set()
                for d1 in range(6):
                    if not self.can_slide(cell, d1):
                        continue
                    c1 = step(cell, d1)
                    for d2 in range(6):
                        c2 = step(c1, d2)
                        if c2 == cell or not self.can_slide(c1, d2):
                            continue
                        for d3 in range(6):
                            c3 = step(c2, d3)
                            if c3 not in (c1, cell) and self.can_slide(c2, d3):
                                found.add(c3)
                return sorted(found)
            # The ant: anywhere it can slide to, step by step.
            seen, todo = {cell}, [cell]
            while todo:
                c = todo.pop()
                for d in range(6):
                    n = step(c, d)
                    if n not in seen and self.can_slide(c, d):
                        seen.add(n)
                        todo.append(n)
            seen.discard(cell)
            return sorted(seen)
        finally:
            self.drop(piece, cell)

    # Notation.

    def move_string(self, move):
        """A move in UHP's notation, written before it is played."""
        piece, source, target = move
        if piece is None:
            return "pass"
        if self.ply() == 0:
            return piece
        if target in self.stacks and self.top(target) != piece:
            return piece + " " + self.top(target)  # a beetle onto a stack
        for d in range(6):
            ref_cell = step(target, (d + 3) % 6)  # the reference is opposite the way it goes
            ref = self.top(ref_cell)
            if ref_cell == source and self.height(source) == 1:
                continue  # the piece itself, which leaves
            if ref is not None and ref != piece:
                for sep, way in AFTER.items():
                    if way == d:
                        return piece + " " + ref + sep
                for sep, way in BEFORE.items():
                    if way == d:
                        return piece + " " + sep + ref
            if ref == piece:  # a beetle leaving a stack: name what it leaves on
                under = self.stacks[ref_cell][-2]
                for sep, way in AFTER.items():
                    if way == d:
                        return piece + " " + under + sep
                for sep, way in BEFORE.items():
                    if way == d:
                        return piece + " " + sep + under
        raise InvalidMove("no piece next to where it goes")

    def parse(self, text):
        """The legal move a MoveString names, or InvalidMove."""
        text = text.strip()
        if text == "pass":
            move = (None, None, None)
        else:
            words = text.split()
            piece = words[0]
            if len(words) == 1:
                target = (0, 0) if self.ply() == 0 else None
            else:
                ref = words[1]
                if ref[0] in BEFORE:
                    way, ref = BEFORE[ref[0]], ref[1:]
                elif ref[-1] in AFTER:
                    way, ref = AFTER[ref[-1]], ref[:-1]
                else:
                    way = None
                if ref not in self.where:
                    raise InvalidMove("%s is not on the board." % ref)
                target = self.where[ref] if way is None else step(self.where[ref], way)
            move = (piece, self.where.get(piece), target)
        if move not in self.valid_moves():
            raise InvalidMove("That is not a valid move.")
        return move


def reply(lines):
    for line in lines:
        print(line)
    print("ok", flush=True)  # unflushed, the arbiter would see nothing


def main():
    game = Game()
    reply(["id minimal-uhp 1.0", ""])  # no expansions: an empty line of capabilities
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command, args = words[0], " ".join(words[1:])
        try:
            if command == "info":
                reply(["id minimal-uhp 1.0", ""])
            elif command == "newgame":
                fields = args.split(";") if args else ["Base"]
                if fields[0] != "Base":
                    raise ValueError("it plays Base only, not %s" % fields[0])
                new = Game()
                for text in fields[3:]:
                    try:
                        new.apply(new.parse(text))
                    except InvalidMove as e:  # a GameString that does not load is an error
                        raise ValueError("%s: %s" % (text, e))
                game = new
                reply([game.game_string()])
            elif command in ("play", "pass"):
                game.apply(game.parse(args if command == "play" else "pass"))
                reply([game.game_string()])
            elif command == "validmoves":
                reply([";".join(game.move_string(m) for m in game.valid_moves())])
            elif command == "bestmove":
                moves = game.valid_moves()
                if not moves:
                    raise ValueError("The game is over.")
                pick = random.Random(zlib.crc32(game.game_string().encode())).choice(moves)
                reply([game.move_string(pick)])
            elif command == "undo":
                n = int(args or "1")
                if n > game.ply():
                    raise ValueError("Unable to undo %d moves." % n)
                for _ in range(n):
                    game.undo()
                reply([game.game_string()])
            elif command == "options":
                reply([])  # it has none
            elif command == "exit":
                return
            else:
                reply(["err Invalid command."])
        except InvalidMove as e:
            reply(["invalidmove %s" % e])
        except (ValueError, KeyError, IndexError) as e:
            reply(["err %s" % e])


if __name__ == "__main__":
    main()
