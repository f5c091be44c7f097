#!/usr/bin/env bash
# The regression's size: hivebot with InPlayAnt=22 (an ant in play worth 22, not 32) against
# its defaults, both at depth=2, over ROUNDS game pairs of random 4-ply openings, under
# nice -n 15. Prints the result block.
#
# Usage: docs/experiments/gate-error-rates/measure.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/arbiter" ./cmd/arbiter
nice -n 15 "$tmp/arbiter" match -engine builtin=hivebot name=variant option.InPlayAnt=22 -engine builtin=hivebot name=default \
	-each depth=2 -rounds "$rounds" -concurrency 2 -openings plies=4 order=random -seed 8 -out "$tmp/measure.jsonl" |
	sed -n '/^Results of/,/^Finished/p'
