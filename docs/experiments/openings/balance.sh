#!/bin/sh
# balance.sh: white's score in hivebot self-play over each opening set, one game per opening,
# at fixed depths (deterministic: the figures do not depend on the machine's load).
#
#   [DEPTHS="2 3"] docs/experiments/openings/balance.sh [OUTDIR]
#
# Needs an arbiter binary in $ARBITER (default: built from this tree into OUTDIR). Prints one
# line per set and depth: games, white's score, draw rate. Run it under nice on a shared machine.
set -eu
out=${1:-/tmp/openings-balance}
mkdir -p "$out"
measure=$out/measure
go build -tags experiments -o "$measure" ./docs/experiments/openings/measure
if [ -z "${ARBITER:-}" ]; then
	ARBITER=$out/arbiter
	go build -o "$ARBITER" ./cmd/arbiter
fi
play() { # name gametype depth openings...
	name=$1 gt=$2 depth=$3
	shift 3
	rm -f "$out/$name-d$depth.jsonl"
	"$ARBITER" match -engine builtin=hivebot name=white -engine builtin=hivebot name=black \
		-each depth="$depth" -gametype "$gt" -games 1 -concurrency 2 -seed 1 \
		-out "$out/$name-d$depth.jsonl" "$@" >"$out/$name-d$depth.log" 2>&1
	"$measure" balance "$out/$name-d$depth.jsonl" | sed "s/^/$name depth=$depth: /"
}
# One game per opening of each book, and as many random openings.
for depth in ${DEPTHS:-2 3}; do
	play book-base+mlp Base+MLP "$depth" -rounds 300 -openings book=base+mlp
	play random-base+mlp Base+MLP "$depth" -rounds 300 -openings plies=4
	play book-base Base "$depth" -rounds 200 -openings book=base
	play random-base Base "$depth" -rounds 200 -openings plies=4
done
