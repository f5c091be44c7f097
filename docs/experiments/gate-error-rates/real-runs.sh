#!/usr/bin/env bash
# The shipped gate (configs/ci-gate.toml, as it is) run RUNS times on a no-op (hivebot against
# itself) and RUNS times on a regression (hivebot with VARIANT, InPlayAnt=22 unless given,
# against its default of 32, measured by ./measure.sh), each run with its own seed (its own random openings), at a cheap
# limit (depth=2 for both engines), under nice -n 15. Prints each run's exit code and pairs,
# then the false-fail rate on the no-op and the miss rate (passes) on the regression, with
# 95 % Wilson intervals. Exit codes: 0 pass (H1), 3 fail (H0), 4 fail (no decision at the
# cap), 5 fail (an engine misbehaved, strict).
#
# Usage: docs/experiments/gate-error-rates/real-runs.sh [RUNS [FIRST_SEED]]
#   LIMIT the engines' limit as -each words (default depth=2), CHANGES which changes to run
#   (default "no-op regression"), VARIANT the regression's option (default InPlayAnt=22).
# On 2 cores, a no-op gate takes about 15 s and a regression gate about 40 s.
set -euo pipefail
cd "$(dirname "$0")/../../.."
runs=${1:-20}
first=${2:-1}
limit=${LIMIT:-depth=2}   # the -each words, split: LIMIT="tc=1+0.02 fractional=true margin=1"
changes=${CHANGES:-no-op regression}
VARIANT=${VARIANT:-InPlayAnt=22}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/arbiter" ./cmd/arbiter
echo "shipped gate, each engine $limit, regression $VARIANT, $runs runs per change from seed $first, $(getconf _NPROCESSORS_ONLN) cores"
# The two changes alternate, seed by seed, so that a run cut short has as many of each.
for seed in $(seq "$first" $((first + runs - 1))); do
	for change in $changes; do
		variant=()
		[ "$change" = regression ] && variant=("option.$VARIANT")
		set +e
		nice -n 15 "$tmp/arbiter" match -config configs/ci-gate.toml -seed "$seed" \
			-out "$tmp/$change-$seed.jsonl" -pgnout "$tmp/$change-$seed.pgn" \
			-engine builtin=hivebot name=new "${variant[@]}" -engine builtin=hivebot name=released \
			-each $limit >"$tmp/$change-$seed.out" 2>&1
		code=$?
		set -e
		pairs=$(grep -o 'after [0-9]* game pairs' "$tmp/$change-$seed.out" | tail -1 | grep -o '[0-9]*' || echo "?")
		echo "$change seed=$seed exit=$code pairs=$pairs"
	done
done | tee "$tmp/runs.txt"
awk '
function wilson(k, n,   z, p, c, h) { z = 1.959964; p = k / n; c = (p + z*z/(2*n)) / (1 + z*z/n)
	h = z / (1 + z*z/n) * sqrt(p*(1-p)/n + z*z/(4*n*n)); return sprintf("%.1f %% [%.1f, %.1f]", 100*p, 100*(c-h < 0 ? 0 : c-h), 100*(c+h > 1 ? 1 : c+h)) }
/^no-op/      { n0++; if ($3 != "exit=0") f0++ }
/^regression/ { n1++; if ($3 == "exit=0") m1++ }
END {
	if (n0) printf "no-op: %d of %d runs failed: false-fail rate %s\n", f0, n0, wilson(f0, n0)
	if (n1) printf "regression: %d of %d runs passed: miss rate %s\n", m1, n1, wilson(m1, n1)
}' "$tmp/runs.txt"
