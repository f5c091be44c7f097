#!/usr/bin/env bash
# The step of action.yml that runs Hive Arbiter, kept in a script so that a test runs it as
# GitHub does (ci/action_test.go): with the action's inputs as INPUT_* variables and
# GITHUB_ACTION_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTIONS and RUNNER_TEMP set.
# It builds the arbiter from the action's checkout, runs a check or a gate, writes the
# decision, the exit code and the report folder to GITHUB_OUTPUT, and exits with the
# arbiter's exit code. The arbiter itself appends the Markdown summary to GITHUB_STEP_SUMMARY
# and prints the annotations.
set -uo pipefail

root=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
out=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/hive-arbiter
mkdir -p "$out"
echo "report-dir=$out" >>"$GITHUB_OUTPUT"

arbiter=$out/bin/arbiter
echo "::group::Build Hive Arbiter"
(cd "$root" && go build -o "$arbiter" ./cmd/arbiter) || { echo "decision=error" >>"$GITHUB_OUTPUT"; echo "exit-code=1" >>"$GITHUB_OUTPUT"; exit 1; }
echo "::endgroup::"

# An engine's words, with a name unless it has one.
named() { # default-name words...
	local name=$1
	shift
	case " $* " in *" name="*) ;; *) set -- "$@" "name=$name" ;; esac
	printf '%s\n' "$@"
}

mode=${INPUT_MODE:-gate}
# The engines are key=value words, split on spaces as the shell splits an unquoted word.
read -r -a engine <<<"${INPUT_ENGINE:-}"
if ((${#engine[@]} == 0)); then
	echo "::error title=Hive Arbiter::the input engine is empty"
	echo "decision=error" >>"$GITHUB_OUTPUT"
	echo "exit-code=2" >>"$GITHUB_OUTPUT"
	exit 2
fi

case $mode in
check)
	"$arbiter" check -engine "${engine[@]}" -junit "$out/check.xml" | tee "$out/check.txt"
	code=${PIPESTATUS[0]}
	case $code in 0) decision=pass ;; 5) decision=fail ;; *) decision=error ;; esac
	;;
gate)
	read -r -a baseline <<<"${INPUT_BASELINE:-}"
	if ((${#baseline[@]} == 0)); then
		echo "::error title=Hive Arbiter::a gate needs the input baseline, the released build"
		echo "decision=error" >>"$GITHUB_OUTPUT"
		echo "exit-code=2" >>"$GITHUB_OUTPUT"
		exit 2
	fi
	mapfile -t new < <(named new "${engine[@]}")
	mapfile -t released < <(named released "${baseline[@]}")
	read -r -a limit <<<"${INPUT_LIMIT:-depth=3}"
	# On a clock or a move time, each move is forgiven the lateness that arbiter check measures
	# of the new build under the gate's limit and concurrency, unless the inputs give margin=:
	# the arbiter's default of 0.2 s loses games on time of an engine whose overshoot grows
	# through its games or under load (docs/check.md).
	case " ${limit[*]} ${engine[*]} ${baseline[*]} " in
	*" depth="* | *" nodes="* | *" margin="*) ;;
	*)
		echo "::group::Measure the new build's margin (arbiter check)"
		"$arbiter" check -engine "${engine[@]}" "${limit[@]}" -concurrency "${INPUT_CONCURRENCY:-2}" >"$out/gate-check.txt"
		cat "$out/gate-check.txt"
		echo "::endgroup::"
		margin=$(grep -o ' margin=[0-9.]*' "$out/gate-check.txt" | head -n 1)
		if [[ -n $margin ]]; then
			limit+=("${margin# }")
			echo "The gate forgives each move ${margin# margin=} s of lateness: the margin arbiter check measured of the new build (gate-check.txt)"
		fi
		;;
	esac
	"$arbiter" match -config "${INPUT_CONFIG:-$root/configs/ci-gate.toml}" \
		-engine "${new[@]}" -engine "${released[@]}" -each "${limit[@]}" \
		-sprt "elo0=${INPUT_ELO0:--50}" "elo1=${INPUT_ELO1:-0}" "model=${INPUT_MODEL:-logistic}" "at_cap=${INPUT_AT_CAP:-decide}" \
		-rounds "${INPUT_ROUNDS:-400}" -concurrency "${INPUT_CONCURRENCY:-2}" -ratinginterval 10 \
		-out "$out/gate.jsonl" -pgnout "$out/gate.pgn" -json "$out/gate.json" -report "$out/report.html" \
		-junit "$out/gate.xml" -summary "$out/summary.md" | tee "$out/gate.txt"
	code=${PIPESTATUS[0]}
	case $code in
	0) decision=H1 ;; 3) decision=H0 ;; 4) decision=inconclusive ;; 5) decision=engine-failure ;;
	130) decision=interrupted ;; *) decision=error ;;
	esac
	;;
*)
	echo "::error title=Hive Arbiter::unknown mode '$mode': want check or gate"
	echo "decision=error" >>"$GITHUB_OUTPUT"
	echo "exit-code=2" >>"$GITHUB_OUTPUT"
	exit 2
	;;
esac

echo "decision=$decision" >>"$GITHUB_OUTPUT"
echo "exit-code=$code" >>"$GITHUB_OUTPUT"
exit "$code"
