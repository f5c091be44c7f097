#!/bin/sh
# run.sh: how fast an SPRT decides a known difference with each opening set.
#
#   [METHODS="old free book"] docs/experiments/openings/run.sh [OUTDIR] [REPS]
#
# The known difference: hivebot's weak profile (aggression 5) against its default evaluation
# (aggression 3), both searching to depth 2, one thread, so every game is a pure function of
# its opening and the load of the machine changes nothing but the wall time. The weak profile
# is the stronger at this depth: about +70 nElo per pair (measured over 300 random pairs).
# Each repetition runs the same SPRT (normalized, elo0=0 elo1=40, alpha=beta=0.05) once with
# each opening set, on seed REP:
#   old   the arbiter's random 4-ply openings as drawn before they avoided symmetric repeats
#         (measure olddraw writes them, pair by pair, as that draw made them)
#   free  random 4-ply openings with no two pairs equal up to symmetry (-openings plies=4)
#   book  the shipped book (-openings book=base+mlp order=random)
# and measure summary prints the table of docs/openings.md. Run it under nice on a shared
# machine; interrupted, it keeps what finished (rerun with the same OUTDIR to add reps).
set -eu
out=${1:-/tmp/openings-experiment}
reps=${2:-30}
methods=${METHODS:-old free book}
mkdir -p "$out"
measure=$out/measure
go build -tags experiments -o "$measure" ./docs/experiments/openings/measure
if [ -z "${ARBITER:-}" ]; then
	ARBITER=$out/arbiter
	go build -o "$ARBITER" ./cmd/arbiter
fi
rep=1
while [ "$rep" -le "$reps" ]; do
	for m in $methods; do
		[ -f "$out/$m-$rep.json" ] && continue
		case $m in
		old)
			"$measure" olddraw -gametype Base+MLP -plies 4 -pairs 1000 -seed "$rep" >"$out/old-$rep.txt"
			openings="file=$out/old-$rep.txt" ;;
		free) openings="plies=4" ;;
		book) openings="book=base+mlp order=random" ;;
		esac
		rm -f "$out/$m-$rep.jsonl"
		# shellcheck disable=SC2086 # the -openings words are meant to split
		"$ARBITER" match -engine builtin=hivebot name=weak arg=-profile arg=weak \
			-engine builtin=hivebot name=default -each depth=2 -gametype Base+MLP \
			-rounds 1000 -concurrency 2 -seed "$rep" -openings $openings \
			-sprt elo0=0 elo1=40 alpha=0.05 beta=0.05 model=normalized \
			-out "$out/$m-$rep.jsonl" -json "$out/$m-$rep.json.part" >"$out/$m-$rep.log" 2>&1
		mv "$out/$m-$rep.json.part" "$out/$m-$rep.json"
	done
	rep=$((rep + 1))
done
"$measure" summary "$out"
